// Package mailonce sends mail at most once per delivery key, for every area
// that mails (member changes, subscriber confirmations, incident alerts,
// review reminders): the key is claimed before the send and marked sent
// after it, so a retried job does not mail twice and a crashed one does
// not lose its mail.
package mailonce

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/ports"
)

// MailLease is how long a claimed mail may stay unsent before the next run
// of its job takes the claim over and sends it. It must be longer than any
// send takes (an SMTP connection is bounded at 30 s by default), or a slow
// send and its take-over both deliver; it is also how late a mail whose
// worker died between the claim and the send goes out.
const MailLease = 5 * time.Minute

// Mail sends through Mailer, keeping the delivery keys in Store.
type Mail[T Tx] struct {
	Store  ports.UnitOfWork[T]
	Clock  ports.Clock
	Mailer ports.Mailer
	Log    *slog.Logger
}

func (d Mail[T]) now() time.Time { return d.Clock.Now().UTC() }

// Once claims the mail's delivery key, sends it and marks it sent.
func (d Mail[T]) Once(ctx context.Context, m mailtmpl.Mail) error {
	return d.Build(ctx, m.Key, func(context.Context, T) (mailtmpl.Mail, bool, error) { return m, true, nil })
}

// Build reads what a mail needs and claims its key in one unit of work
// (build may decide there is nothing to send), sends it outside the unit
// of work, and marks the key sent in another. A failed send releases the
// key for the retry. A key sent before is done; a key another run claimed
// less than MailLease ago and has not marked sent makes the job run again
// once that claim has expired (ports.ErrNotYet), so a worker that died
// between its claim and its send loses nothing. A worker that dies after
// the send and before the mark causes the one duplicate this allows, which
// carries the same Message-ID (derived from the key) for receivers to drop.
func (d Mail[T]) Build(ctx context.Context, key string, build func(context.Context, T) (mailtmpl.Mail, bool, error)) error {
	var (
		m   mailtmpl.Mail
		del Delivery
	)
	err := d.Store.InTx(ctx, func(ctx context.Context, tx T) error {
		var send bool
		var err error
		del = Delivery{}
		if m, send, err = build(ctx, tx); err != nil || !send {
			return err
		}
		del, err = tx.Deliveries().Claim(ctx, key, d.now(), MailLease)
		return err
	})
	if err != nil {
		return err
	}
	switch del.State {
	case DeliveryClaimed:
	case DeliveryBusy:
		return ports.NotYet(max(del.ClaimedAt.Add(MailLease).Sub(d.now()), time.Second),
			fmt.Errorf("mail %s: claimed at %s by a run that has not sent it yet", key, del.ClaimedAt.Format(time.RFC3339)))
	default:
		return nil // sent before, or nothing to send
	}
	// The key's bookkeeping outlives the job's context: a send cut short
	// must still release, and a send that went out must still be marked.
	book := context.WithoutCancel(ctx)
	if err := d.Mailer.Send(ctx, m); err != nil {
		if rerr := d.Store.InTx(book, func(ctx context.Context, tx T) error {
			return tx.Deliveries().Release(ctx, key)
		}); rerr != nil {
			d.Log.Error("release delivery key", "key", key, "err", rerr)
		}
		return err
	}
	if err := d.Store.InTx(book, func(ctx context.Context, tx T) error {
		return tx.Deliveries().MarkSent(ctx, key, d.now())
	}); err != nil {
		// The mail is out and the job done: only a second run of this job
		// would look at the key again, and after the lease it would send a
		// duplicate, which receivers drop by Message-ID.
		d.Log.Error("mark delivery key sent", "key", key, "err", err)
	}
	return nil
}
