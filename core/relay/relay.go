// Package relay moves outbox messages to the job queue after the unit of work
// that wrote them has committed. It claims due messages in one unit of work,
// hands them to the queue in order, and marks them delivered, or records the
// failure and when to try again. The queue is idempotent by message id, so a
// relay that crashes between enqueueing and marking, or two relays racing,
// cannot run a job twice; nothing is lost while the queue is down, because a
// message leaves the outbox only once the queue has accepted it.
package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// Defaults for the zero Options.
const (
	DefaultBatchSize  = 100
	DefaultInterval   = time.Second
	DefaultMaxBackoff = 5 * time.Minute
)

// Options tune a Relay; zero fields take the defaults above.
type Options struct {
	// BatchSize is how many messages one RunOnce claims.
	BatchSize int
	// Interval is how long Run sleeps when the outbox is idle or the queue
	// failed, and the first retry delay of a message whose hand-over failed.
	Interval time.Duration
	// MaxBackoff caps the exponential retry delay of a failing message.
	MaxBackoff time.Duration
	// Logger receives hand-over failures; nil discards them.
	Logger *slog.Logger
}

// Relay delivers outbox messages to a job queue.
type Relay struct {
	store ports.Store
	queue ports.JobQueue
	clock ports.Clock
	opts  Options
	wake  chan struct{}
}

// New builds a relay; it rejects nil dependencies.
func New(store ports.Store, queue ports.JobQueue, clock ports.Clock, opts Options) (*Relay, error) {
	switch {
	case store == nil:
		return nil, errors.New("relay: nil store")
	case queue == nil:
		return nil, errors.New("relay: nil queue")
	case clock == nil:
		return nil, errors.New("relay: nil clock")
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	if opts.Interval <= 0 {
		opts.Interval = DefaultInterval
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = DefaultMaxBackoff
	}
	if opts.MaxBackoff < opts.Interval {
		opts.MaxBackoff = opts.Interval
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Relay{store: store, queue: queue, clock: clock, opts: opts, wake: make(chan struct{}, 1)}, nil
}

// EnqueueError reports the message whose hand-over failed in RunOnce. The
// failure is already recorded in the outbox when RunOnce returns it.
type EnqueueError struct {
	ID   uuid.UUID
	Kind outbox.Kind
	Err  error
}

func (e *EnqueueError) Error() string {
	return fmt.Sprintf("relay: enqueue %s %s: %v", e.Kind, e.ID, e.Err)
}

func (e *EnqueueError) Unwrap() error { return e.Err }

// RunOnce relays one batch in one unit of work: it claims up to BatchSize due
// messages, enqueues them oldest first and marks those the queue accepted as
// delivered. At the first failure it records the error with an exponential
// retry time and stops, so that later messages do not overtake it in this
// round; they go out in a later one. It answers how many messages were
// delivered, and an *EnqueueError when a hand-over failed (the batch is still
// committed) or the store's error when the unit of work failed (then nothing
// is marked and the messages are claimed again later; the queue deduplicates
// those it already took).
func (r *Relay) RunOnce(ctx context.Context) (int, error) {
	var (
		delivered int
		failed    *EnqueueError
	)
	err := r.store.InTx(ctx, func(ctx context.Context, tx ports.Tx) error {
		// The store may run fn again after a serialization failure; enqueueing
		// again is harmless because the queue is idempotent by message id.
		delivered, failed = 0, nil
		now := r.clock.Now()
		ms, err := tx.Outbox().Claim(ctx, r.opts.BatchSize, now)
		if err != nil {
			return fmt.Errorf("relay: claim: %w", err)
		}
		ids := make([]uuid.UUID, 0, len(ms))
		for _, m := range ms {
			if err := r.queue.Enqueue(ctx, m); err != nil {
				failed = &EnqueueError{ID: m.ID, Kind: m.Kind, Err: err}
				retryAt := now.Add(r.Backoff(m.Attempts))
				if err := tx.Outbox().MarkFailed(ctx, m.ID, err.Error(), retryAt); err != nil {
					return fmt.Errorf("relay: mark failed %s: %w", m.ID, err)
				}
				break
			}
			ids = append(ids, m.ID)
		}
		if len(ids) > 0 {
			if err := tx.Outbox().MarkDelivered(ctx, ids, now); err != nil {
				return fmt.Errorf("relay: mark delivered: %w", err)
			}
		}
		delivered = len(ids)
		return nil
	})
	if err != nil {
		return 0, err
	}
	if failed != nil {
		return delivered, failed
	}
	return delivered, nil
}

// Backoff is the delay before the next hand-over of a message that has
// failed attempts times before this failure: Interval doubled per earlier
// attempt, capped at MaxBackoff.
func (r *Relay) Backoff(attempts int) time.Duration {
	d := r.opts.Interval
	for range max(attempts, 0) {
		if d >= r.opts.MaxBackoff/2 {
			return r.opts.MaxBackoff
		}
		d *= 2
	}
	return min(d, r.opts.MaxBackoff)
}

// Notify wakes a sleeping Run so that a just-committed write is relayed
// promptly. It never blocks; wake-ups that arrive while Run is busy collapse
// into one.
func (r *Relay) Notify() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Run relays until ctx is done and then returns nil. While batches come back
// full it goes on at once, draining a backlog; otherwise, and after a
// failure, it sleeps Interval or until Notify.
func (r *Relay) Run(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		case <-r.wake:
		}
		n, err := r.RunOnce(ctx)
		if ctx.Err() != nil {
			return nil
		}
		var enq *EnqueueError
		switch {
		case errors.As(err, &enq):
			r.opts.Logger.WarnContext(ctx, "outbox relay: hand-over failed",
				"id", enq.ID, "kind", enq.Kind, "delivered", n, "err", enq.Err)
		case err != nil:
			r.opts.Logger.ErrorContext(ctx, "outbox relay: batch failed", "err", err)
		}
		next := r.opts.Interval
		if err == nil && n >= r.opts.BatchSize {
			next = 0 // a full batch: there may be more
		}
		timer.Reset(next)
	}
}
