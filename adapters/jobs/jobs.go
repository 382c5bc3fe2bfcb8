// Package jobs is the in-process job runner of the embedded profile: a
// ports.JobQueue that runs each outbox message on a bounded pool of
// goroutines through a ports.JobHandler. Like the Redis queue it replaces,
// it is idempotent by message id, runs critical work before default before
// low, retries failures with exponential backoff up to a limit, does not
// retry errors wrapping ports.ErrPermanent, runs a job deferred with
// ports.ErrNotYet again after the delay it asks for (not counted as an
// attempt), and keeps dead jobs for inspection.
//
// Mail never waits behind enrichment: besides the Workers that take the
// most urgent job of any queue, CriticalWorkers take only critical jobs
// (mail and alerts), so a member added while every worker scans a vendor
// of a large import is mailed at once.
//
// Jobs live in memory, so the queue is a ports.HeldJobQueue: the relay
// leases a message it hands over and marks it delivered only once the
// queue reports its job ended (Ended: succeeded or dead). A job not ended
// when the process dies is still in the outbox and runs again after the
// next start: jobs run at least once. Close stops taking work, lets the
// running jobs end until its deadline and leaves the queued ones (Held) for
// the next start.
package jobs

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
	DefaultWorkers         = 4
	DefaultCriticalWorkers = 2
	DefaultMaxRetry        = 5
	DefaultMinBackoff      = time.Second
	DefaultMaxBackoff      = 5 * time.Minute
)

// ErrClosed is returned by Enqueue after Close has begun.
var ErrClosed = errors.New("jobs: queue closed")

// Options tune a Queue; zero fields take the defaults above.
type Options struct {
	// Workers bounds how many jobs of any queue run at once.
	Workers int
	// CriticalWorkers run only critical jobs (mail and alerts), besides
	// Workers; a negative value means none.
	CriticalWorkers int
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
	critical *sync.Cond // signalled when ready gains a critical job or stopping is set
	ready    map[string][]job
	// seen are the ids handed over, true once their job ended; held
	// are those not ended, and ended those ended since the last call of
	// Ended.
	seen     map[uuid.UUID]bool
	held     map[uuid.UUID]struct{}
	ended    []uuid.UUID
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
	if opts.CriticalWorkers == 0 {
		opts.CriticalWorkers = DefaultCriticalWorkers
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
		seen:    make(map[uuid.UUID]bool),
		held:    make(map[uuid.UUID]struct{}),
		waiting: make(map[*time.Timer]struct{}),
		changed: make(chan struct{}),
	}
	q.work = sync.NewCond(&q.mu)
	q.critical = sync.NewCond(&q.mu)
	for range opts.Workers {
		q.wg.Go(func() { q.worker(q.work, priority) })
	}
	for range opts.CriticalWorkers {
		q.wg.Go(func() { q.worker(q.critical, priority[:1]) })
	}
	return q, nil
}

// Enqueue schedules m to run once. An id seen before is accepted and
// ignored, whatever became of its job, so a relay that hands a message over
// twice runs it once; one whose job ended is reported by Ended again. The
// ids are remembered for the life of the queue.
func (q *Queue) Enqueue(_ context.Context, m outbox.Message) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return ErrClosed
	}
	if ended, ok := q.seen[m.ID]; ok {
		if ended {
			q.ended = append(q.ended, m.ID)
		}
		return nil
	}
	q.seen[m.ID] = false
	q.held[m.ID] = struct{}{}
	q.push(job{msg: m})
	return nil
}

// Ended returns the ids of the jobs that succeeded or died since the last
// call (ports.HeldJobQueue).
func (q *Queue) Ended() []uuid.UUID {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.ended
	q.ended = nil
	return out
}

// Held returns the ids of the jobs handed over that have not ended: ready,
// running or waiting for a retry (ports.HeldJobQueue). After Close, these
// are the jobs it left for the next start.
func (q *Queue) Held() []uuid.UUID {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]uuid.UUID, 0, len(q.held))
	for id := range q.held {
		out = append(out, id)
	}
	return out
}

// push queues j by its kind's urgency; the caller holds mu.
func (q *Queue) push(j job) {
	name := j.msg.Kind.Queue()
	q.ready[name] = append(q.ready[name], j)
	q.work.Signal()
	if name == outbox.QueueCritical {
		q.critical.Signal()
	}
}

// next takes the most urgent ready job of queues, oldest first; the caller
// holds mu.
func (q *Queue) next(queues []string) (job, bool) {
	for _, name := range queues {
		if js := q.ready[name]; len(js) > 0 {
			j := js[0]
			js[0] = job{}
			q.ready[name] = js[1:]
			return j, true
		}
	}
	return job{}, false
}

// worker runs jobs of queues, most urgent first, waiting on cond while
// there are none.
func (q *Queue) worker(cond *sync.Cond, queues []string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for !q.stopping {
		j, ok := q.next(queues)
		if !ok {
			cond.Wait()
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
		q.end(j)
		return
	}
	if q.stopping {
		// Stopped at Close's deadline: held, for the next start.
		q.log.Warn("job stopped by shutdown; it runs again after the next start", "id", j.msg.ID, "kind", j.msg.Kind, "err", err)
		return
	}
	delay, notYet := ports.RetryAfter(err)
	if !notYet {
		j.attempts++ // a deferred run is no failed attempt
	}
	permanent := errors.Is(err, ports.ErrPermanent)
	if permanent || (!notYet && (q.opts.MaxRetry < 0 || j.attempts > q.opts.MaxRetry)) {
		q.log.Error("job dead", "id", j.msg.ID, "kind", j.msg.Kind, "attempts", j.attempts, "permanent", permanent, "err", err)
		q.dead = append(q.dead, DeadJob{Message: j.msg, Attempts: j.attempts, Err: err.Error(), DiedAt: time.Now().UTC()})
		q.end(j)
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

// end records that j's job ended; the caller holds mu.
func (q *Queue) end(j job) {
	q.seen[j.msg.ID] = true
	delete(q.held, j.msg.ID)
	q.ended = append(q.ended, j.msg.ID)
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

// Close stops taking jobs and starting them: the running ones may end until
// ctx is done. Then it cancels their context and waits for them to return,
// at most closeGrace more. The jobs not run (queued, waiting for a retry, or
// stopped at the deadline) stay Held: the relay releases them in the outbox
// for the next start. Close reports how many it left when the deadline
// passed with jobs running. Calling Close again does nothing.
func (q *Queue) Close(ctx context.Context) error {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return nil
	}
	q.closed = true
	q.stopping = true
	for t := range q.waiting {
		t.Stop()
	}
	clear(q.waiting)
	clear(q.ready)
	q.work.Broadcast()
	q.critical.Broadcast()
	q.signalChange()
	q.mu.Unlock()

	waitErr := q.Wait(ctx) // only running jobs are left
	q.cancel()             // handlers still running past the deadline see ctx done
	done := make(chan struct{})
	go func() { q.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(closeGrace):
		q.log.Error("jobs still running after shutdown cancelled them; leaving them", "grace", closeGrace)
	}
	if waitErr != nil {
		q.mu.Lock()
		held := len(q.held)
		q.mu.Unlock()
		return fmt.Errorf("jobs: close: jobs still running at the deadline; %d jobs left for the next start: %w", held, waitErr)
	}
	return nil
}

// closeGrace is how long Close waits for handlers it cancelled to return.
const closeGrace = 2 * time.Second
