package relay

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// The rule of a held queue (ports.HeldJobQueue, see the package comment):
// a message handed to it is leased, not delivered; its lease is renewed
// while the queue holds its job, and it is delivered once the job ended.

// handedOver marks messages the queue accepted: delivered, or leased when
// the queue holds them in memory.
func (r *Relay) handedOver(ctx context.Context, tx outbox.Tx, ids []uuid.UUID, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	if r.held != nil {
		if err := tx.Outbox().Lease(ctx, ids, now.Add(r.opts.Lease)); err != nil {
			return fmt.Errorf("relay: lease: %w", err)
		}
		return nil
	}
	if err := tx.Outbox().MarkDelivered(ctx, ids, now); err != nil {
		return fmt.Errorf("relay: mark delivered: %w", err)
	}
	return nil
}

// settle marks the ended jobs delivered and leases the held ones until
// until (now: released).
func (r *Relay) settle(ctx context.Context, tx outbox.Tx, held []uuid.UUID, until time.Time) error {
	if len(r.ended) > 0 {
		if err := tx.Outbox().MarkDelivered(ctx, r.ended, r.clock.Now()); err != nil {
			return fmt.Errorf("relay: mark ended jobs delivered: %w", err)
		}
	}
	if len(held) > 0 {
		if err := tx.Outbox().Lease(ctx, held, until); err != nil {
			return fmt.Errorf("relay: renew leases: %w", err)
		}
	}
	return nil
}

// Settle is the last round of a held queue's relay, once the queue is
// closed: it marks the ended jobs delivered and releases the messages of
// the jobs the queue still holds (it did not run them, or stopped them at
// its deadline), so that the next start runs them at once rather than when
// their leases end. With another queue it does nothing.
func (r *Relay) Settle(ctx context.Context) error {
	if r.held == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = append(r.ended, r.held.Ended()...)
	held := r.held.Held()
	if len(r.ended) == 0 && len(held) == 0 {
		return nil
	}
	err := r.store.InTx(ctx, func(ctx context.Context, tx outbox.Tx) error {
		return r.settle(ctx, tx, held, r.clock.Now())
	})
	if err != nil {
		return err
	}
	r.ended = nil
	return nil
}
