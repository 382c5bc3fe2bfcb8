package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/adapters/smtp/smtptest"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/internal/tcpproxy"
)

// TestWebhooksRedisAndSMTPDown: with Redis unreachable, the event waits in
// the outbox and the receiver hears nothing; once a worker reaches Redis it
// is delivered once. An endpoint that fails for 24 hours is disabled while
// the mail server is down: the mail to its owner and admin is retried and
// arrives once each when the server is back.
//
// Not parallel: it borrows Redis database 15 (see asynqtest).
func TestWebhooksRedisAndSMTPDown(t *testing.T) {
	url := asynqtest.URL(t, 15)
	server := smtptest.Start(t)
	proxy := tcpproxy.Start(t, server.Addr())
	proxy.Cut()
	env := apitest.New(t, apitest.WithConfiguredMailer(), apitest.WithConfig(func(c *app.Config) {
		c.RedisURL = "redis://127.0.0.1:1/0" // down
		c.SMTPURL = "smtp://" + proxy.Addr() + "?tls=none&from=vetted@hooksdown.test"
		c.FetchAllowPrivate = true
	}))
	good := newReceiver(t, env.Clock.Now, nil)
	bad := newReceiver(t, env.Clock.Now, func(int) int { return http.StatusBadGateway })
	acct := env.NewAccount(t, "Outage", "owner@out.test", "admin@out.test")
	tok := env.Token("owner@out.test", apitest.Verified())
	createHook(t, env, tok, acct, good.srv.URL, "list.vendors_changed")
	badID, _ := createHook(t, env, tok, acct, bad.srv.URL, "list.vendors_changed")
	env.SaveVendors(t, tok, acct, "Outage Supplier")
	if _, err := env.App.Relay.RunOnce(t.Context()); err == nil {
		t.Fatal("relay to a closed Redis port reported success")
	}
	if !pendingKind(t, env, outbox.KindWebhookEvent) || len(good.got()) != 0 {
		t.Fatalf("while Redis is down: event pending %v, %d requests", pendingKind(t, env, outbox.KindWebhookEvent), len(good.got()))
	}

	env.Clock.Advance(time.Hour) // past the relay's backoff
	startWorker(t, env, url)
	asynqtest.Eventually(t, "the event delivered once Redis is back", func() bool { return len(good.got()) == 1 && len(bad.got()) >= 1 })
	// A day of failures at the other endpoint: the worker's relay hands
	// each next attempt over when the clock reaches it.
	deadline := time.Now().Add(30 * time.Second)
	for len(bad.got()) < 8 {
		if time.Now().After(deadline) {
			t.Fatalf("%d attempts at the failing endpoint", len(bad.got()))
		}
		env.Clock.Advance(30 * time.Minute)
		time.Sleep(30 * time.Millisecond)
	}
	asynqtest.Eventually(t, "mails of the disabled endpoint tried while SMTP is down", func() bool { return proxy.Refused() >= 2 })
	if n := len(server.Messages()); n != 0 {
		t.Fatalf("%d mails delivered while SMTP was down", n)
	}
	proxy.Restore()
	disabledTo := func() []string {
		var to []string
		for _, m := range server.Messages() {
			if strings.Contains(m.Subject, "Webhook endpoint disabled") {
				to = append(to, m.To...)
			}
		}
		return to
	}
	asynqtest.Eventually(t, "the owner and the admin told", func() bool { return len(disabledTo()) == 2 })
	time.Sleep(200 * time.Millisecond)
	if to, g := disabledTo(), len(good.got()); len(to) != 2 || to[0] == to[1] || g != 1 {
		t.Fatalf("disabled mails to %v, %d requests at the good endpoint: want the owner and the admin once each, and 1", to, g)
	}
	if p := deliveries(t, env, tok, acct, badID); p.Total != 8 || p.Deliveries[0].NextRetryAt != nil {
		t.Fatalf("failing endpoint's log: %+v", p)
	}
}
