// Package jobs is the in-process job runner of the embedded profile: a
// ports.JobQueue that runs each outbox message on a bounded pool of
// goroutines through a ports.JobHandler. Like the Redis queue it replaces,
// it is idempotent by message id, runs critical work before default before
// low, retries failures with exponential backoff up to a limit, does not
// retry errors wrapping ports.ErrPermanent, runs a job deferred with
// ports.ErrNotYet again after the delay it asks for (not counted as an
// attempt), and keeps dead jobs for inspection. Jobs live in memory only: they do not survive the process,
// just as the embedded memory store does not.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// Defaults for the zero Options.
const (
	DefaultWorkers    = 4
	DefaultMaxRetry   = 5
	DefaultMinBackoff = time.Second
	DefaultMaxBackoff = 5 * time.Minute
)

// ErrClosed is returned by Enqueue after Close has begun.
var ErrClosed = errors.New("jobs: queue closed")

// Options tune a Queue; zero fields take the defaults above.
type Options struct {
	// Workers bounds how many jobs run at once.
	Workers int
	// MaxRetry is how many times a failed job is retried before it is dead;
	// a negative value means never retry.
	MaxRetry int
	// MinBackoff is the delay before the first retry; it doubles per retry.
	MinBackoff time.Duration
	// MaxBackoff caps the retry delay.
	MaxBackoff time.Duration
	// Logger receives job failures; nil discards them.
	Logger *slog.Logger
}

// DeadJob is a job that failed permanently or ran out of retries.
type DeadJob struct {
	Message outbox.Message
	// Attempts counts the runs, the first one included.
	Attempts int
	// Err is the last error.
	Err    string
	DiedAt time.Time
}

type job struct {
	msg      outbox.Message
	attempts int
}

// Queue runs jobs in process. Build it with New; it starts its workers at
// once and runs until Close.
type Queue struct {
	handler ports.JobHandler
	opts    Options
	log     *slog.Logger

	// base is the context handlers run in; Close cancels it when its
	// deadline passes with jobs still running.
	base   context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	work     *sync.Cond // signalled when ready gains a job or stopping is set
	ready    map[string][]job
	seen     map[uuid.UUID]struct{}
	running  int
	waiting  map[*time.Timer]struct{} // retries not due yet
	dead     []DeadJob
	closed   bool          // Enqueue refuses
	stopping bool          // workers exit
	changed  chan struct{} // closed and replaced whenever the load drops
}

// priority is the order in which workers pick queues.
var priority = []string{outbox.QueueCritical, outbox.QueueDefault, outbox.QueueLow}

// New starts a queue that runs jobs through handler; it rejects a nil handler.
func New(handler ports.JobHandler, opts Options) (*Queue, error) {
	if handler == nil {
		return nil, errors.New("jobs: nil handler")
	}
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.MaxRetry == 0 {
		opts.MaxRetry = DefaultMaxRetry
	}
	if opts.MinBackoff <= 0 {
		opts.MinBackoff = DefaultMinBackoff
	}
	if opts.MaxBackoff < opts.MinBackoff {
		opts.MaxBackoff = max(DefaultMaxBackoff, opts.MinBackoff)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	base, cancel := context.WithCancel(context.Background())
	q := &Queue{
		handler: handler,
		opts:    opts,
		log:     log,
		base:    base,
		cancel:  cancel,
		ready:   make(map[string][]job),
		seen:    make(map[uuid.UUID]struct{}),
		waiting: make(map[*time.Timer]struct{}),
		changed: make(chan struct{}),
	}
	q.work = sync.NewCond(&q.mu)
	for range opts.Workers {
		q.wg.Go(q.worker)
	}
	return q, nil
}

// Enqueue schedules m to run once. An id seen before is accepted and
// ignored, whatever became of its job, so a relay that hands a message over
// twice runs it once. The ids are remembered for the life of the queue.
func (q *Queue) Enqueue(_ context.Context, m outbox.Message) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	if _, ok := q.seen[m.ID]; ok {
		return nil
	}
	q.seen[m.ID] = struct{}{}
	q.push(job{msg: m})
	return nil
}

// push queues j by its kind's urgency; the caller holds mu.
func (q *Queue) push(j job) {
	name := j.msg.Kind.Queue()
	q.ready[name] = append(q.ready[name], j)
	q.work.Signal()
}

// next takes the most urgent ready job, oldest first; the caller holds mu.
func (q *Queue) next() (job, bool) {
	for _, name := range priority {
		if js := q.ready[name]; len(js) > 0 {
			j := js[0]
			js[0] = job{}
			q.ready[name] = js[1:]
			return j, true
		}
	}
	return job{}, false
}

func (q *Queue) worker() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.stopping {
		j, ok := q.next()
		if !ok {
			q.work.Wait()
			continue
		}
		q.running++
		q.mu.Unlock()
		err := q.run(j)
		q.mu.Lock()
		q.running--
		q.finish(j, err)
		q.signalChange()
	}
}

// run calls the handler, turning a panic into an error.
func (q *Queue) run(j job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("jobs: handler panicked: %v", p)
		}
	}()
	return q.handler.Handle(q.base, j.msg.Kind, j.msg.Payload)
}

// finish records the outcome of one run; the caller holds mu.
func (q *Queue) finish(j job, err error) {
	if err == nil {
		return
	}
	delay, notYet := ports.RetryAfter(err)
	if !notYet {
		j.attempts++ // a deferred run is no failed attempt
	}
	permanent := errors.Is(err, ports.ErrPermanent)
	if permanent || (!notYet && (q.opts.MaxRetry < 0 || j.attempts > q.opts.MaxRetry)) || q.stopping {
		q.log.Error("job dead", "id", j.msg.ID, "kind", j.msg.Kind, "attempts", j.attempts, "permanent", permanent, "err", err)
		q.dead = append(q.dead, DeadJob{Message: j.msg, Attempts: j.attempts, Err: err.Error(), DiedAt: time.Now().UTC()})
		return
	}
	if notYet {
		q.log.Info("job deferred", "id", j.msg.ID, "kind", j.msg.Kind, "in", delay, "reason", err)
	} else {
		delay = q.backoff(j.attempts)
		q.log.Warn("job failed, will retry", "id", j.msg.ID, "kind", j.msg.Kind, "attempts", j.attempts, "in", delay, "err", err)
	}
	var t *time.Timer
	t = time.AfterFunc(delay, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		if _, ok := q.waiting[t]; !ok {
			return // Close gave up on it
		}
		delete(q.waiting, t)
		q.push(j)
	})
	q.waiting[t] = struct{}{}
}

// backoff is the delay before retry n (from 1).
func (q *Queue) backoff(n int) time.Duration {
	d := q.opts.MinBackoff
	for i := 1; i < n && d < q.opts.MaxBackoff; i++ {
		d *= 2
	}
	return min(d, q.opts.MaxBackoff)
}

// signalChange wakes Wait callers; the caller holds mu.
func (q *Queue) signalChange() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// idle reports whether nothing is ready, running or waiting to retry; the
// caller holds mu.
func (q *Queue) idle() bool {
	if q.running > 0 || len(q.waiting) > 0 {
		return false
	}
	for _, js := range q.ready {
		if len(js) > 0 {
			return false
		}
	}
	return true
}

// Wait blocks until every job enqueued so far has succeeded or died,
// retries included, or until ctx is done.
func (q *Queue) Wait(ctx context.Context) error {
	for {
		q.mu.Lock()
		if q.idle() {
			q.mu.Unlock()
			return nil
		}
		ch := q.changed
		q.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Dead returns the jobs that failed for good, oldest first.
func (q *Queue) Dead() []DeadJob {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]DeadJob, len(q.dead))
	copy(out, q.dead)
	return out
}

// Close stops taking jobs and lets the queued ones, retries included, run
// to the end until ctx is done. Then it cancels the context of the running
// handlers, waits for them to return, and reports how many jobs it gave up
// on; those that were running end up in Dead. Calling Close again is
// harmless.
func (q *Queue) Close(ctx context.Context) error {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()

	waitErr := q.Wait(ctx)

	q.mu.Lock()
	q.stopping = true
	abandoned := len(q.waiting)
	for t := range q.waiting {
		t.Stop()
	}
	clear(q.waiting)
	for name, js := range q.ready {
		abandoned += len(js)
		delete(q.ready, name)
	}
	abandoned += q.running
	q.work.Broadcast()
	q.mu.Unlock()

	q.cancel() // handlers still running past the deadline see ctx done
	q.wg.Wait()
	if waitErr != nil {
		return fmt.Errorf("jobs: close: %d jobs not run: %w", abandoned, waitErr)
	}
	return nil
}
