// Package relay moves outbox messages to the job queue after the unit of work
// that wrote them has committed. It claims due messages in one unit of work,
// hands them to the queue in order, and marks them delivered, or records the
// failure and when to try again. The queue is idempotent by message id, so a
// relay that crashes between enqueueing and marking, or two relays racing,
// cannot run a job twice; nothing is lost while the queue is down, because a
// message leaves the outbox only once the queue has accepted it.
//
// A queue that keeps its jobs in memory (ports.HeldJobQueue: the in-process
// runner of the embedded default) has not made a job safe by accepting it:
// the process may be killed before it runs. To such a queue the relay hands
// a message over under a lease (Options.Lease) instead of marking it
// delivered, renews the leases of the jobs the queue still holds in later
// rounds, and marks a message delivered only once the queue reports its job
// ended. A job whose process died comes back when its lease ends; Settle
// releases the leases of what a stopping queue did not run, so the next
// start runs it at once. Those jobs run at least once, so their handlers
// are idempotent (mail through delivery claims, enrichment by run job).
package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// Defaults for the zero Options.
const (
	DefaultBatchSize  = 100
	DefaultInterval   = time.Second
	DefaultMaxBackoff = 5 * time.Minute
	// DefaultMaxOutageBackoff caps Run's wait between rounds while the
	// store or the queue is down.
	DefaultMaxOutageBackoff = 30 * time.Second
	// DefaultLease is how long a message handed to a held queue is kept
	// from other claims; the relay renews it every third of that.
	DefaultLease = 15 * time.Second
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
	// MaxOutageBackoff caps Run's wait between failing rounds: while the
	// store or the queue is down, Run waits Interval, then twice that, and
	// so on up to this cap, instead of trying every Interval.
	MaxOutageBackoff time.Duration
	// Lease is how long a message handed to a ports.HeldJobQueue stays
	// leased before another relay may claim it again, should this
	// process die before its job ended; the relay renews the leases of
	// the jobs the queue holds once a third of it has passed.
	Lease time.Duration
	// Logger receives outages (once each: when one starts and when it
	// ends; the failures in between go to debug); nil discards them.
	Logger *slog.Logger
}

// Relay delivers outbox messages to a job queue.
type Relay struct {
	store ports.UnitOfWork[outbox.Tx]
	queue ports.JobQueue
	clock ports.Clock
	opts  Options
	wake  chan struct{}
	// after is time.After; tests replace it to see the waits.
	after func(time.Duration) <-chan time.Time

	// held is queue when it is a ports.HeldJobQueue, else nil.
	held ports.HeldJobQueue
	mu   sync.Mutex // guards what follows: RunOnce and Settle take turns
	// ended are jobs the queue reported ended that are not yet marked
	// delivered (a unit of work that failed keeps them for the next).
	ended []uuid.UUID
	// renewed is when the leases of the held jobs were last renewed.
	renewed time.Time
}

// New builds a relay; it rejects nil dependencies.
func New[W any](store ports.UnitOfWork[W], queue ports.JobQueue, clock ports.Clock, opts Options) (*Relay, error) {
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
	if opts.MaxOutageBackoff <= 0 {
		opts.MaxOutageBackoff = DefaultMaxOutageBackoff
	}
	if opts.MaxOutageBackoff < opts.Interval {
		opts.MaxOutageBackoff = opts.Interval
	}
	if opts.Lease <= 0 {
		opts.Lease = DefaultLease
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Relay{store: ports.Narrow[outbox.Tx](store), queue: queue, clock: clock, opts: opts, wake: make(chan struct{}, 1), after: time.After}
	r.held, _ = queue.(ports.HeldJobQueue)
	return r, nil
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
// delivered (leased, for a held queue). At the first failure it records the
// error with an exponential retry time and stops, so that later messages do
// not overtake it in this round; they go out in a later one. It answers how
// many messages were handed over, and an *EnqueueError when a hand-over
// failed (the batch is still committed) or the store's error when the unit of
// work failed (then nothing is marked and the messages are claimed again
// later; the queue deduplicates those it already took).
//
// With a held queue the same unit of work first marks delivered the jobs
// the queue reported ended, and renews the leases of those it holds once a
// third of the lease has passed.
func (r *Relay) RunOnce(ctx context.Context) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var (
		delivered int
		failed    *EnqueueError
		held      []uuid.UUID
	)
	if r.held != nil {
		r.ended = append(r.ended, r.held.Ended()...)
		if r.clock.Now().Sub(r.renewed) >= r.opts.Lease/3 {
			held = r.held.Held()
		}
	}
	err := r.store.InTx(ctx, func(ctx context.Context, tx outbox.Tx) error {
		// The store may run fn again after a serialization failure; enqueueing
		// again is harmless because the queue is idempotent by message id.
		delivered, failed = 0, nil
		now := r.clock.Now()
		if err := r.settle(ctx, tx, held, now.Add(r.opts.Lease)); err != nil {
			return err
		}
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
		if err := r.handedOver(ctx, tx, ids, now); err != nil {
			return err
		}
		delivered = len(ids)
		return nil
	})
	if err != nil {
		return 0, err
	}
	r.ended = nil
	if held != nil {
		r.renewed = r.clock.Now()
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
	return doubling(r.opts.Interval, attempts, r.opts.MaxBackoff)
}

// OutageBackoff is how long Run waits after its failures-th failing round
// in a row: Interval doubled per earlier failure, capped at
// MaxOutageBackoff; zero failures is Interval.
func (r *Relay) OutageBackoff(failures int) time.Duration {
	return doubling(r.opts.Interval, failures-1, r.opts.MaxOutageBackoff)
}

func doubling(d time.Duration, times int, limit time.Duration) time.Duration {
	for range max(times, 0) {
		if d >= limit/2 {
			return limit
		}
		d *= 2
	}
	return min(d, limit)
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
// full it goes on at once, draining a backlog; otherwise it sleeps Interval
// or until Notify. While rounds fail (the store or the queue is down) it
// backs off exponentially up to MaxOutageBackoff, ignoring Notify, and logs
// the outage once when it starts and once when it ends.
func (r *Relay) Run(ctx context.Context) error {
	var (
		failures int       // failing rounds in a row
		since    time.Time // when the outage began
		wait     <-chan time.Time
		wake     = r.wake
	)
	wait = r.after(0)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-wait:
		case <-wake:
		}
		n, err := r.RunOnce(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			failures++
			if failures == 1 {
				since = r.clock.Now()
				r.logFailure(ctx, slog.LevelWarn, "outbox relay: store or queue unavailable; backing off", n, err)
			} else {
				r.logFailure(ctx, slog.LevelDebug, "outbox relay: still failing", n, err)
			}
			wait, wake = r.after(r.OutageBackoff(failures)), nil
			continue
		}
		if failures > 0 {
			r.opts.Logger.InfoContext(ctx, "outbox relay: recovered", "failed_rounds", failures,
				"down_for", r.clock.Now().Sub(since).Round(time.Millisecond).String())
			failures = 0
		}
		next := r.opts.Interval
		if n >= r.opts.BatchSize {
			next = 0 // a full batch: there may be more
		}
		wait, wake = r.after(next), r.wake
	}
}

func (r *Relay) logFailure(ctx context.Context, level slog.Level, msg string, delivered int, err error) {
	var enq *EnqueueError
	if errors.As(err, &enq) {
		r.opts.Logger.Log(ctx, level, msg, "stage", "enqueue", "id", enq.ID, "kind", enq.Kind, "delivered", delivered, "err", enq.Err)
		return
	}
	r.opts.Logger.Log(ctx, level, msg, "stage", "store", "err", err)
}
