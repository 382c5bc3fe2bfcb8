package api_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
)

// memberMailJob is the payload of a member mail and its delivery key.
func memberMailJob(t *testing.T, email string) (outbox.MemberMail, string) {
	t.Helper()
	p := outbox.MemberMail{EventID: uuid.Must(uuid.NewV7()), AccountID: uuid.Must(uuid.NewV7()), AccountName: "Acme",
		Email: email, Role: "member", Change: "added", By: "o@a.test"}
	return p, "member:" + p.EventID.String()
}

// TestMailClaimOfADeadWorkerExpires: a worker claimed a mail's key and died
// before sending it. Runs of the job within the lease are deferred until
// the claim expires (not done, not failed); the first run after it sends
// the mail, and later runs send nothing more.
func TestMailClaimOfADeadWorkerExpires(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	ctx := context.Background()
	payload, key := memberMailJob(t, "new@a.test")
	err := env.Store.InTx(ctx, func(ctx context.Context, tx stores.Tx) error {
		_, err := tx.Deliveries().Claim(ctx, key, env.Clock.Now(), mailonce.MailLease)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	run := func() error { return env.Svc.Handle(ctx, outbox.KindMemberMail, payload) }
	sent := func() int { return len(env.Mail.Find(func(m mailtmpl.Mail) bool { return m.Key == key })) }

	for _, tt := range []struct {
		advance time.Duration
		wait    time.Duration
	}{
		{0, mailonce.MailLease},
		{mailonce.MailLease - time.Minute, time.Minute},
	} {
		env.Clock.Advance(tt.advance)
		err := run()
		wait, ok := ports.RetryAfter(err)
		// The test clock ticks a microsecond per reading.
		if !errors.Is(err, ports.ErrNotYet) || !ok || wait > tt.wait || wait < tt.wait-time.Millisecond {
			t.Fatalf("run within the lease: %v (retry after %v), want not yet, retry after about %v", err, wait, tt.wait)
		}
		if n := sent(); n != 0 {
			t.Fatalf("%d mails sent within the lease", n)
		}
	}
	env.Clock.Advance(time.Minute)
	if err := run(); err != nil {
		t.Fatalf("run once the lease is over: %v", err)
	}
	env.Clock.Advance(10 * mailonce.MailLease)
	if err := run(); err != nil {
		t.Fatalf("run again: %v", err)
	}
	if n := sent(); n != 1 {
		t.Fatalf("%d mails sent, want 1", n)
	}
}

// TestFailedSendReleasesTheClaim: a send that fails releases the key at
// once, so the retry sends without waiting for the lease.
func TestFailedSendReleasesTheClaim(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	payload, key := memberMailJob(t, "new@a.test")
	env.Mail.FailNext(1, errors.New("421 try again later"))
	if err := env.Svc.Handle(context.Background(), outbox.KindMemberMail, payload); err == nil || errors.Is(err, ports.ErrNotYet) {
		t.Fatalf("failed send: %v, want the send's error", err)
	}
	if err := env.Svc.Handle(context.Background(), outbox.KindMemberMail, payload); err != nil {
		t.Fatalf("retry at once: %v", err)
	}
	if n := len(env.Mail.Find(func(m mailtmpl.Mail) bool { return m.Key == key })); n != 1 {
		t.Fatalf("%d mails sent, want 1", n)
	}
}
