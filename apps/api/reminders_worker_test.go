package api_test

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/apps/worker"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// kindCounter counts the jobs it hands to the service, by kind.
type kindCounter struct {
	h  ports.JobHandler
	mu sync.Mutex
	n  map[outbox.Kind]int
}

func (c *kindCounter) Handle(ctx context.Context, kind outbox.Kind, payload any) error {
	err := c.h.Handle(ctx, kind, payload)
	c.mu.Lock()
	c.n[kind]++
	c.mu.Unlock()
	return err
}

func (c *kindCounter) count(kind outbox.Kind) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[kind]
}

// TestReviewRemindersThroughTwoWorkers: two asynq workers on Redis, each
// with its scheduler running the reminders job every second, send each
// reminder once (PostgreSQL with VETTED_TEST_STORE=postgres); after one
// worker stops, the other sends the next window's reminders, once.
func TestReviewRemindersThroughTwoWorkers(t *testing.T) {
	url := asynqtest.URL(t, 14)
	env := apitest.New(t, apitest.WithConfig(func(c *app.Config) { c.RedisURL = url }))
	counter := &kindCounter{h: env.Svc, n: map[outbox.Kind]int{}}
	stops := make([]func(), 2)
	for i := range stops {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- worker.Run(ctx, worker.Config{RedisURL: url, Concurrency: 4, ShutdownTimeout: time.Second, ReviewRemindersEvery: time.Second,
				RelayInterval: 20 * time.Millisecond, MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond,
				TaskCheckInterval: 20 * time.Millisecond, DelayedTaskCheckInterval: 50 * time.Millisecond, Clock: env.Clock},
				counter, env.Store, slog.New(slog.NewTextHandler(io.Discard, nil)))
		}()
		var once sync.Once
		stops[i] = func() {
			once.Do(func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("worker %d: %v", i, err)
				}
			})
		}
		t.Cleanup(stops[i])
	}
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	env.AddMember(t, acct, owner, "boss@acme.test", "admin")
	master := env.SaveVendors(t, owner, acct, "Slack")["list"].(map[string]any)["id"].(string)
	apitest.Must(t, env.Do(t, "POST", "/vendor-assessments?account-id="+acct+"&vendor-list-id="+master, owner, map[string]any{
		"vendor_name": "Slack", "tier": "critical", "compliance_approval_status": "approved", "sponsor_contact": "sponsor@vendor.test"}), 201)
	env.Clock.Advance(6*31*24*time.Hour + 24*time.Hour) // overdue a few days: the due-date window

	window := []string{"boss@acme.test Slack", "owner@acme.test Slack", "sponsor@vendor.test Slack"}
	sent := func() int { return len(remindersSent(env)) }
	asynqtest.Eventually(t, "the due-date reminders", func() bool { return sent() >= 3 })
	runs := counter.count(outbox.KindReviewReminders)
	asynqtest.Eventually(t, "three more runs of the job", func() bool { return counter.count(outbox.KindReviewReminders) >= runs+3 })
	if got := remindersSent(env); !sameList(got, window) {
		t.Fatalf("reminders %q, want %q once each", got, window)
	}

	stops[0]()
	env.Mail.Reset()
	env.Clock.Advance(7 * 24 * time.Hour) // the first weekly window
	asynqtest.Eventually(t, "the weekly reminders", func() bool { return sent() >= 3 })
	runs = counter.count(outbox.KindReviewReminders)
	asynqtest.Eventually(t, "three more runs of the job", func() bool { return counter.count(outbox.KindReviewReminders) >= runs+3 })
	if got := remindersSent(env); !sameList(got, window) {
		t.Fatalf("weekly reminders %q, want %q once each", got, window)
	}
}
