package api_test

import (
	"strings"
	"testing"

	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/adapters/smtp"
	"github.com/vetted-dev/vetted/adapters/smtp/smtptest"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/internal/tcpproxy"
)

// TestSMTPDown: with the mail server unreachable (a proxy the test started
// in front of an SMTP server it started, cut), the writes that send mail
// succeed, and the worker tries the mails and retries them (with the
// exponential backoff of asynqadapter.RetryDelay, short here) while nothing
// is delivered; once the server is back, every mail arrives exactly once,
// and no job is given up.
//
// Not parallel: it borrows Redis database 14 (see asynqtest), which the
// other tests that use it in this package take one after another too.
func TestSMTPDown(t *testing.T) {
	url := asynqtest.URL(t, 14)
	server := smtptest.Start(t)
	proxy := tcpproxy.Start(t, server.Addr())
	proxy.Cut()
	env := apitest.New(t, apitest.WithConfiguredMailer(), apitest.WithConfig(func(c *app.Config) {
		c.RedisURL = url
		c.SMTPURL = "smtp://" + proxy.Addr() + "?tls=none&from=vetted@smtpdown.test"
	}))
	startWorker(t, env, url)
	acct := env.NewAccount(t, "Acme", "o@a.test")
	tok := env.Token("o@a.test")
	members := []string{"m1@a.test", "m2@a.test", "m3@a.test"}
	for _, e := range members {
		env.AddMember(t, acct, tok, e, "member")
	}
	const mails = 4 // the owner's, at creation, and one per member

	asynqtest.Eventually(t, "3 attempts a mail (on average) while SMTP is down", func() bool { return proxy.Refused() >= 3*mails })
	if n := len(server.Messages()); n != 0 {
		t.Fatalf("%d mails delivered while SMTP was down", n)
	}
	proxy.Restore()
	asynqtest.Eventually(t, "every mail delivered", func() bool { return len(server.Messages()) >= mails && env.Pending(t) == 0 })

	rdb := asynqtest.Client(t, url)
	defer rdb.Close()
	insp := asynqadapter.NewInspector(rdb)
	asynqtest.Eventually(t, "every job done", func() bool {
		c, err := insp.Counts(outbox.KindMemberMail.Queue())
		return err == nil && c.Completed == mails
	})
	if n, err := insp.Archived(); err != nil || n != 0 {
		t.Fatalf("%d jobs given up (%v)", n, err)
	}
	byID := server.CountByMessageID()
	if len(byID) != mails {
		t.Fatalf("%d distinct mails delivered, want %d: %v", len(byID), mails, byID)
	}
	for id, n := range byID {
		if n != 1 {
			t.Errorf("mail %s delivered %d times", id, n)
		}
	}
	for _, m := range server.Messages() {
		if !strings.HasSuffix(m.MessageID, "@"+smtp.MessageIDDomain) {
			t.Errorf("mail to %v has Message-ID %q, not one derived from its key", m.To, m.MessageID)
		}
	}
	t.Logf("%d connection attempts refused during the outage, then %d mails delivered once each", proxy.Refused(), mails)
}
