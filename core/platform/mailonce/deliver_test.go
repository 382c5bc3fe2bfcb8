package mailonce_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
)

// failing is a store that is down.
type failing struct {
	ports.UnitOfWork[mailonce.Tx]
	err error
}

func (f failing) InTx(context.Context, func(context.Context, mailonce.Tx) error) error {
	return f.err
}

// claim takes key at now, as another run would, and says what it found.
func claim(t *testing.T, s ports.UnitOfWork[mailonce.Tx], key string, now time.Time) mailonce.DeliveryState {
	t.Helper()
	var d mailonce.Delivery
	if err := s.InTx(context.Background(), func(ctx context.Context, tx mailonce.Tx) (err error) {
		d, err = tx.Deliveries().Claim(ctx, key, now, mailonce.MailLease)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return d.State
}

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
	k := ports.Narrow[mailonce.Tx](memstore.New())
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
	claim(t, k, "k2", clk.now)
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
	if st := claim(t, k, "k3", clk.now); st != mailonce.DeliveryClaimed {
		t.Fatalf("a mail with nothing to send claimed its key: %v", st)
	}

	// The store failing before the send sends nothing.
	down := failing{UnitOfWork: k, err: errors.New("store down")}
	d.Store = down
	if err := d.Once(ctx, mailtmpl.Mail{Key: "k4"}); !errors.Is(err, down.err) || m.sent != 2 {
		t.Fatalf("store down: %v, sent %d", err, m.sent)
	}
}
