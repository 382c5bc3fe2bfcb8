package mailonce_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/ports"
)

// keys is a store of delivery keys: claimed at a time, or sent.
type keys struct {
	claimed map[string]time.Time
	sent    map[string]bool
	failTx  error
}

func (k *keys) InTx(ctx context.Context, fn func(context.Context, mailonce.Tx) error) error {
	if k.failTx != nil {
		return k.failTx
	}
	return fn(ctx, tx{k: k})
}
func (k *keys) View(ctx context.Context, fn func(context.Context, mailonce.Tx) error) error {
	return k.InTx(ctx, fn)
}
func (k *keys) Ping(context.Context) error { return nil }

type tx struct {
	k *keys
}

func (t tx) Deliveries() mailonce.Repo { return t }

func (t tx) Claim(_ context.Context, key string, now time.Time, lease time.Duration) (mailonce.Delivery, error) {
	if t.k.sent[key] {
		return mailonce.Delivery{State: mailonce.DeliverySent}, nil
	}
	if at, ok := t.k.claimed[key]; ok && now.Sub(at) < lease {
		return mailonce.Delivery{State: mailonce.DeliveryBusy, ClaimedAt: at}, nil
	}
	t.k.claimed[key] = now
	return mailonce.Delivery{State: mailonce.DeliveryClaimed, ClaimedAt: now}, nil
}

func (t tx) MarkSent(_ context.Context, key string, _ time.Time) error {
	t.k.sent[key] = true
	return nil
}
func (t tx) Release(_ context.Context, key string) error { delete(t.k.claimed, key); return nil }

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

type mailer struct {
	sent int
	err  error
}

func (m *mailer) Send(context.Context, mailtmpl.Mail) error {
	if m.err != nil {
		return m.err
	}
	m.sent++
	return nil
}

func TestMailGoesOutOnceByKey(t *testing.T) {
	t.Parallel()
	k := &keys{claimed: map[string]time.Time{}, sent: map[string]bool{}}
	clk := &clock{now: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}
	m := &mailer{}
	d := mailonce.Mail[mailonce.Tx]{Store: k, Clock: clk, Mailer: m}
	ctx := context.Background()
	mail := mailtmpl.Mail{To: "ann@acme.test", Key: "k1"}

	// A failed send releases the key: the retry sends at once.
	m.err = errors.New("smtp down")
	if err := d.Once(ctx, mail); !errors.Is(err, m.err) {
		t.Fatalf("failed send: %v", err)
	}
	m.err = nil
	for range 2 {
		if err := d.Once(ctx, mail); err != nil {
			t.Fatal(err)
		}
	}
	if m.sent != 1 {
		t.Fatalf("sent %d times, want once", m.sent)
	}

	// A key another run claimed and did not mark sent makes the job wait
	// until the lease is over, then it is taken over.
	k.claimed["k2"] = clk.now
	err := d.Once(ctx, mailtmpl.Mail{Key: "k2"})
	after, ok := ports.RetryAfter(err)
	if !ok || after != mailonce.MailLease {
		t.Fatalf("busy key: %v (retry after %v)", err, after)
	}
	clk.now = clk.now.Add(mailonce.MailLease)
	if err := d.Once(ctx, mailtmpl.Mail{Key: "k2"}); err != nil || m.sent != 2 {
		t.Fatalf("after the lease: %v, sent %d", err, m.sent)
	}

	// build may decide there is nothing to send: no key is claimed.
	if err := d.Build(ctx, "k3", func(context.Context, mailonce.Tx) (mailtmpl.Mail, bool, error) { return mailtmpl.Mail{}, false, nil }); err != nil {
		t.Fatal(err)
	}
	if _, ok := k.claimed["k3"]; ok {
		t.Fatal("a mail with nothing to send claimed its key")
	}

	// The store failing before the send sends nothing.
	k.failTx = errors.New("store down")
	if err := d.Once(ctx, mailtmpl.Mail{Key: "k4"}); !errors.Is(err, k.failTx) || m.sent != 2 {
		t.Fatalf("store down: %v, sent %d", err, m.sent)
	}
}
