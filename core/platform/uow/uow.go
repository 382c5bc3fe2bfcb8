// Package uow is what every use-case package does around a unit of work:
// run it and wake the outbox relay afterwards (Write), add a message to the
// outbox inside it (Emit), and read the clock in UTC (Now). It is shared so
// that each area takes these three ports once, not a copy of the helpers.
package uow

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// Unit is the store, seen through T (the area's Tx), with the clock and
// id source a use case writes with.
type Unit[T outbox.Tx] struct {
	Store ports.UnitOfWork[T]
	Clock ports.Clock
	IDs   ports.IDs
	// Notify, when set, is called after a unit of work that added to the
	// outbox commits, to wake the relay.
	Notify func()
	// Events, when set, takes the outbound webhook events a unit of work
	// records (core/webhooks.Service.Emit, wired by core/usecases), so the
	// areas tell what happened without importing the webhooks area.
	Events func(ctx context.Context, tx T, ev domainevent.Event) error
}

// Missing names the required ports of u that are nil.
func (u Unit[T]) Missing() []string {
	var out []string
	if u.Store == nil {
		out = append(out, "Store")
	}
	if u.Clock == nil {
		out = append(out, "Clock")
	}
	if u.IDs == nil {
		out = append(out, "IDs")
	}
	return out
}

// Now is the clock's time in UTC, at the precision every store keeps
// (PostgreSQL's microseconds): what a use case writes with it is what a read
// returns, so a use case answers with the row it saved instead of reading
// it back.
func (u Unit[T]) Now() time.Time { return u.Clock.Now().UTC().Truncate(time.Microsecond) }

// View runs a read-only unit of work.
func (u Unit[T]) View(ctx context.Context, fn func(ctx context.Context, tx T) error) error {
	return u.Store.View(ctx, fn)
}

// Write runs fn in a unit of work and, when it added to the outbox (Add,
// Emit), wakes the relay afterwards (a wake costs the relay a transaction of
// its own: most writes, a comment or a toggle, have nothing for it).
func (u Unit[T]) Write(ctx context.Context, fn func(ctx context.Context, tx T) error) error {
	var emitted atomic.Bool
	err := u.Store.InTx(ctx, func(ctx context.Context, tx T) error {
		emitted.Store(false) // fn may run again: only its last run counts
		return fn(context.WithValue(ctx, emittedKey{}, &emitted), tx)
	})
	if err != nil {
		return err
	}
	if u.Notify != nil && emitted.Load() {
		u.Notify()
	}
	return nil
}

type emittedKey struct{}

// Add adds messages to the outbox in tx and, inside Write, notes that the
// relay has work once the unit commits. Use cases add to the outbox only
// through Add or Emit.
func Add(ctx context.Context, tx outbox.Tx, msgs ...outbox.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	if flag, ok := ctx.Value(emittedKey{}).(*atomic.Bool); ok {
		flag.Store(true)
	}
	return tx.Outbox().Add(ctx, msgs...)
}

// Event records a webhook event in tx, in the unit of work of the change
// it tells of; without Events wired it does nothing.
func (u Unit[T]) Event(ctx context.Context, tx T, ev domainevent.Event) error {
	if u.Events == nil {
		return nil
	}
	return u.Events(ctx, tx, ev)
}

// Emit adds one message to the outbox in tx.
func (u Unit[T]) Emit(ctx context.Context, tx T, kind outbox.Kind, payload any) error {
	return Add(ctx, tx, outbox.New(u.IDs.New(), kind, payload, u.Now()))
}
