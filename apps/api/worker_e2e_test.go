package api_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/apps/worker"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/relay"
)

// Redis databases 14 and 15 belong to these tests (the asynq adapter's own
// tests use 1-10, the worker's 11-13).

func startWorker(t *testing.T, env *apitest.Env, redisURL string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- worker.Run(ctx, worker.Config{RedisURL: redisURL, Concurrency: 4, ShutdownTimeout: time.Second,
			RelayInterval: 20 * time.Millisecond, MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
			TaskCheckInterval: 20 * time.Millisecond, DelayedTaskCheckInterval: 50 * time.Millisecond, Clock: env.Clock},
			env.Svc, env.Store, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("worker: %v", err)
		}
	})
}

func alertsTo(env *apitest.Env) map[string]int {
	out := map[string]int{}
	for _, m := range env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.HasPrefix(m.Key, "alert:") }) {
		out[m.To]++
	}
	return out
}

// subscribeVerified subscribes verified members, who are confirmed at once.
func subscribeVerified(t *testing.T, env *apitest.Env, acct, tok, list string, emails ...string) {
	t.Helper()
	for _, e := range emails {
		apitest.Must(t, env.Do(t, "GET", "/accounts", env.Token(e, apitest.Verified()), nil), 200) // sign in once: verified
		r := apitest.Must(t, env.Do(t, "POST", "/subscribers?account-id="+acct+"&vendor-list="+list, tok, map[string]any{"subscriber-email": e}), 201)
		if !strings.Contains(r.String(), `"confirmed"`) {
			t.Fatalf("%s not confirmed at once: %s", e, r.Body)
		}
	}
}

// TestAlertsThroughWorker: an incident with 3 confirmed subscribers on 2
// lists yields exactly 3 mails through the asynq worker on Redis, also when
// a mail send fails once and is retried and when the relay runs again.
func TestAlertsThroughWorker(t *testing.T) {
	url := asynqtest.URL(t, 14)
	env := apitest.New(t, apitest.WithConfig(func(c *app.Config) { c.RedisURL = url }))
	if env.App.Jobs != nil {
		t.Fatal("the app should queue on Redis, not in process")
	}
	startWorker(t, env, url)
	acct := env.NewAccount(t, "Acme", "o@a.test")
	tok := env.Token("o@a.test", apitest.Verified())
	for _, e := range []string{"x@a.test", "y@a.test"} {
		env.AddMember(t, acct, tok, e, "viewer")
	}
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+acct+"&vendor-list=Second", tok, nil), 201)
	env.SaveVendors(t, tok, acct, "Okta")
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=save-vendors&vendor-list=Second&account-id="+acct, tok, map[string]any{"vendors": []string{"Okta"}}), 200)
	subscribeVerified(t, env, acct, tok, "master-list", "x@a.test", "y@a.test")
	subscribeVerified(t, env, acct, tok, "Second", "x@a.test")

	env.Mail.FailNext(1, errors.New("421 try again later"))
	admin := env.Token("ops@platform.test", apitest.Admin())
	apitest.Must(t, env.Do(t, "POST", "/vendor/Okta/incidents", admin, map[string]any{"title": "Session tokens leaked", "severity": "critical"}), 201)
	asynqtest.Eventually(t, "3 alert mails", func() bool {
		got := alertsTo(env)
		return got["x@a.test"] == 2 && got["y@a.test"] == 1
	})
	// The relay running again (another process, a crash replay) adds nothing.
	if _, err := env.App.Relay.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if got := alertsTo(env); got["x@a.test"] != 2 || got["y@a.test"] != 1 || len(got) != 2 {
		t.Fatalf("alerts after a second relay run: %v", got)
	}
}

// TestRedisDown: with Redis unreachable, writes through the API succeed and
// their side effects wait in the outbox; once a relay reaches Redis again,
// each is delivered exactly once.
func TestRedisDown(t *testing.T) {
	url := asynqtest.URL(t, 15)
	env := apitest.New(t, apitest.WithConfig(func(c *app.Config) { c.RedisURL = "redis://127.0.0.1:1/0" }))
	acct := env.NewAccount(t, "Acme", "o@a.test")
	tok := env.Token("o@a.test")
	for _, e := range []string{"m1@a.test", "m2@a.test", "m3@a.test"} {
		env.AddMember(t, acct, tok, e, "member")
	}
	if _, err := env.App.Relay.RunOnce(context.Background()); err == nil {
		t.Fatal("relay to a closed Redis port reported success")
	}
	pending := env.Pending(t)
	if pending != 4 { // owner added at creation + 3 members
		t.Fatalf("%d messages wait in the outbox, want 4", pending)
	}
	if n := len(env.Mail.Sent()); n != 0 {
		t.Fatalf("%d mails sent while Redis was down", n)
	}
	// Redis is back: a relay (here: the worker's) delivers everything, once.
	env.Clock.Advance(time.Hour) // past the relay's backoff
	startWorker(t, env, url)
	asynqtest.Eventually(t, "4 member mails", func() bool { return len(env.Mail.Sent()) == 4 && env.Pending(t) == 0 })
	// A second relay over the same outbox and Redis finds nothing to send.
	rdb := asynqtest.Client(t, url)
	q, err := asynqadapter.NewQueue(rdb, asynqadapter.QueueConfig{})
	if err != nil {
		t.Fatal(err)
	}
	rl, err := relay.New(env.Store, q, env.Clock, relay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := rl.RunOnce(context.Background()); err != nil || n != 0 {
		t.Fatalf("second relay delivered %d (%v)", n, err)
	}
	time.Sleep(200 * time.Millisecond)
	seen := map[string]int{}
	for _, m := range env.Mail.Sent() {
		seen[m.To]++
	}
	for e, n := range seen {
		if n != 1 {
			t.Fatalf("%s got %d mails", e, n)
		}
	}
}
