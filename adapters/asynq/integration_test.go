package asynqadapter_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/relay"
	"github.com/vetted-dev/vetted/internal/testenv"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
)

// These tests run against a real Redis (see asynqtest); each owns one
// database, 1 to 10.

func TestEnqueueSameMessageTwiceRunsOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1, asynqadapter.QueueConfig{})
	h := newFakeHandler(nil)
	m, key := alert(time.Now())

	for range 2 { // before any worker runs: the task is pending
		if err := e.queue.Enqueue(t.Context(), m); err != nil {
			t.Fatal(err)
		}
	}
	if c := e.total(t); c.Pending != 1 {
		t.Fatalf("pending tasks = %d, want 1", c.Pending)
	}
	e.startServer(t, h, fastServer())
	asynqtest.Eventually(t, "the task completed", func() bool { return e.total(t).Completed == 1 })
	// After completion the id is retained, so a late hand-over is ignored too.
	if err := e.queue.Enqueue(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	settle()
	if calls, ok := h.counts(key); calls != 1 || ok != 1 {
		t.Errorf("handled %d times (%d ok), want once", calls, ok)
	}
}

func TestRelayCrashAndConcurrentRelaysEnqueueOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 2, asynqadapter.QueueConfig{})
	h := newFakeHandler(nil)
	store := &crashingStore{Store: memstore.New()}
	clk := &clock{now: testenv.Clock(t)()}

	var keys []string
	add := func(n int) {
		for range n {
			m, key := alert(clk.Now())
			seedOutbox(t, store, m)
			keys = append(keys, key)
		}
	}

	// A relay that enqueues and then dies before its commit: the messages
	// stay in the outbox and the next run hands them over again.
	add(3)
	store.failMarks.Store(1)
	r := newRelay(t, store, e.queue, clk)
	if _, err := r.RunOnce(t.Context()); err == nil {
		t.Fatal("RunOnce survived the crash")
	}
	if n := pending(t, store); n != 3 {
		t.Fatalf("pending after the crash = %d, want 3", n)
	}
	if n := drain(t, r); n != 3 {
		t.Fatalf("second run delivered %d, want 3", n)
	}

	// Two relays at once over a bigger backlog.
	add(20)
	var wg sync.WaitGroup
	for range 2 {
		r := newRelay(t, store, e.queue, clk)
		wg.Go(func() { drain(t, r) })
	}
	wg.Wait()
	if n := pending(t, store); n != 0 {
		t.Fatalf("pending = %d, want 0", n)
	}

	e.startServer(t, h, fastServer())
	asynqtest.Eventually(t, "every task completed", func() bool { return e.total(t).Completed == len(keys) })
	settle()
	for _, k := range keys {
		if calls, ok := h.counts(k); calls != 1 || ok != 1 {
			t.Errorf("%s handled %d times (%d ok), want once", k, calls, ok)
		}
	}
	if n := h.totalCalls(); n != len(keys) {
		t.Errorf("handler ran %d times, want %d", n, len(keys))
	}
}

func TestRetriesAndArchive(t *testing.T) {
	t.Parallel()
	transient := errors.New("smtp 421 try later")
	permanent := fmt.Errorf("smtp 550 no such mailbox: %w", ports.ErrPermanent)
	tests := []struct {
		name         string
		db           int
		maxRetry     int
		outcome      func(n int) error
		wantCalls    int
		wantOK       int
		wantArchived int
		wantErrText  string
	}{
		{
			name: "fails once then succeeds", db: 3, maxRetry: 3,
			outcome:   func(n int) error { return map[bool]error{true: transient}[n == 1] },
			wantCalls: 2, wantOK: 1,
		},
		{
			name: "permanent failure is not retried", db: 4, maxRetry: 3,
			outcome:   func(int) error { return permanent },
			wantCalls: 1, wantArchived: 1, wantErrText: "550",
		},
		{
			name: "retries run out", db: 5, maxRetry: 2,
			outcome:   func(int) error { return transient },
			wantCalls: 3, wantArchived: 1, wantErrText: "421",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, tt.db, asynqadapter.QueueConfig{MaxRetry: tt.maxRetry})
			h := newFakeHandler(func(_ context.Context, _ string, n int) error { return tt.outcome(n) })
			e.startServer(t, h, fastServer())
			m, key := e.alertRunToEnd(t)
			settle()
			if calls, ok := h.counts(key); calls != tt.wantCalls || ok != tt.wantOK {
				t.Errorf("handled %d times (%d ok), want %d (%d ok)", calls, ok, tt.wantCalls, tt.wantOK)
			}
			archived, err := e.insp.Archived()
			if err != nil {
				t.Fatal(err)
			}
			if archived != tt.wantArchived {
				t.Errorf("archived = %d, want %d", archived, tt.wantArchived)
			}
			if tt.wantArchived == 0 {
				return
			}
			dead, err := e.insp.ArchivedTasks(outbox.KindAlertMail.Queue())
			if err != nil {
				t.Fatal(err)
			}
			if len(dead) != 1 || dead[0].ID != m.ID.String() || !strings.Contains(dead[0].LastErr, tt.wantErrText) {
				t.Errorf("archive = %+v, want task %s failing with %q", dead, m.ID, tt.wantErrText)
			}
			// The archived id still dedupes: handing it over again is a no-op.
			if err := e.queue.Enqueue(t.Context(), m); err != nil {
				t.Fatal(err)
			}
			settle()
			if calls, _ := h.counts(key); calls != tt.wantCalls {
				t.Errorf("re-enqueued archived task ran again: %d calls", calls)
			}
		})
	}
}

// TestDeferredRunsAreNotRetries: a job deferred with ports.ErrNotYet runs
// again after the delay it asks for, however often, without using up its
// retries. Not parallel: it borrows database 3 before the parallel tests
// that own it start.
func TestDeferredRunsAreNotRetries(t *testing.T) {
	e := newEnv(t, 3, asynqadapter.QueueConfig{MaxRetry: 1})
	notYet := ports.NotYet(20*time.Millisecond, errors.New("claimed by another run"))
	h := newFakeHandler(func(_ context.Context, _ string, n int) error {
		if n <= 3 {
			return notYet
		}
		return nil
	})
	e.startServer(t, h, fastServer())
	_, key := e.alertRunToEnd(t)
	if calls, ok := h.counts(key); calls != 4 || ok != 1 {
		t.Errorf("handled %d times (%d ok), want 3 deferred runs and 1 success", calls, ok)
	}
	if c := e.total(t); c.Archived != 0 {
		t.Errorf("archived %d: deferred runs were counted as failed retries", c.Archived)
	}
}

func TestUnknownTaskTypeIsArchivedWithoutRetry(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 6, asynqadapter.QueueConfig{MaxRetry: 5})
	h := newFakeHandler(nil)
	e.startServer(t, h, fastServer())
	m, _ := alert(time.Now())
	m.Kind = "mail:from_the_future"
	if err := e.queue.Enqueue(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	asynqtest.Eventually(t, "the task was archived", func() bool { return e.total(t).Archived == 1 })
	if n := h.totalCalls(); n != 0 {
		t.Errorf("handler ran %d times for an unknown kind", n)
	}
}

func TestRedisDownKeepsMessagesInTheOutbox(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 7, asynqadapter.QueueConfig{})
	store := memstore.New()
	clk := &clock{now: testenv.Clock(t)()}
	var keys []string
	for range 5 {
		m, key := alert(clk.Now())
		seedOutbox(t, store, m)
		keys = append(keys, key)
	}

	down := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})
	t.Cleanup(func() { down.Close() })
	deadQueue, err := asynqadapter.NewQueue(down, asynqadapter.QueueConfig{EnqueueTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := newRelay(t, store, deadQueue, clk)
	for round := range 3 {
		n, err := r.RunOnce(t.Context())
		var enq *relay.EnqueueError
		if n != 0 || !errors.As(err, &enq) {
			t.Fatalf("round %d: RunOnce = %d, %v; want 0 and an enqueue error", round, n, err)
		}
		clk.advance(time.Hour) // past any backoff
	}
	if n := pending(t, store); n != 5 {
		t.Fatalf("pending = %d, want 5", n)
	}
	ms := undelivered(t, store)
	if ms[0].Attempts != 3 || ms[0].LastError == "" {
		t.Errorf("oldest message: %d attempts, error %q; want 3 attempts and the error", ms[0].Attempts, ms[0].LastError)
	}

	h := newFakeHandler(nil)
	e.startServer(t, h, fastServer())
	r = newRelay(t, store, e.queue, clk)
	if n := drain(t, r); n != 5 {
		t.Fatalf("delivered %d once Redis is back, want 5", n)
	}
	if n := pending(t, store); n != 0 {
		t.Errorf("pending = %d, want 0", n)
	}
	asynqtest.Eventually(t, "every task completed", func() bool { return e.total(t).Completed == 5 })
	settle()
	for _, k := range keys {
		if calls, ok := h.counts(k); calls != 1 || ok != 1 {
			t.Errorf("%s handled %d times (%d ok), want once", k, calls, ok)
		}
	}
}

// TestWorkerStoppedMidTask stops a server while its handler is busy: the
// task goes back to the queue, a new server runs it to the end, and the
// side effect, deduplicated by its delivery key as the mail handler does,
// happens once whether the first run was cut off before or after it.
func TestWorkerStoppedMidTask(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		db           int
		sendThenHang bool
	}{
		{"stopped before the side effect", 8, false},
		{"stopped after the side effect", 9, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, tt.db, asynqadapter.QueueConfig{})
			var (
				mu      sync.Mutex
				claimed = map[string]bool{}
				sent    = map[string]int{}
				started = make(chan struct{})
			)
			send := func(key string) {
				mu.Lock()
				defer mu.Unlock()
				if claimed[key] { // the delivery key says it went out already
					return
				}
				claimed[key] = true
				sent[key]++
			}
			h := newFakeHandler(func(ctx context.Context, key string, n int) error {
				if n > 1 {
					send(key)
					return nil
				}
				if tt.sendThenHang {
					send(key)
				}
				close(started)
				<-ctx.Done() // hangs until the server gives up on it
				return ctx.Err()
			})
			cfg := fastServer()
			cfg.ShutdownTimeout = 200 * time.Millisecond
			srv, err := asynqadapter.NewServer(e.rdb, h, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if err := srv.Start(); err != nil {
				t.Fatal(err)
			}
			m, key := alert(time.Now())
			if err := e.queue.Enqueue(t.Context(), m); err != nil {
				t.Fatal(err)
			}
			select {
			case <-started:
			case <-time.After(10 * time.Second):
				t.Fatal("the task never started")
			}
			srv.Shutdown()
			if c := e.total(t); c.Pending != 1 || c.Completed != 0 {
				t.Fatalf("after shutdown: %+v; want the task pending again", c)
			}

			e.startServer(t, h, fastServer())
			asynqtest.Eventually(t, "the task completed", func() bool { return e.total(t).Completed == 1 })
			settle()
			calls, _ := h.counts(key)
			mu.Lock()
			defer mu.Unlock()
			if calls != 2 || sent[key] != 1 {
				t.Errorf("handled %d times, sent %d; want 2 runs and 1 send", calls, sent[key])
			}
		})
	}
}

func TestSchedulerEnqueuesPeriodicJobs(t *testing.T) {
	// Not parallel: the two scheduler tests share Redis database 10, and
	// each asserts what the other's scheduler enqueues does not run.
	e := newEnv(t, 10, asynqadapter.QueueConfig{})
	h := newFakeHandler(nil)
	e.startServer(t, h, fastServer())
	s, err := asynqadapter.NewScheduler(e.rdb, asynqadapter.SchedulerConfig{PollIncidentsEvery: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if s.Entries() != 1 {
		t.Fatalf("Entries = %d, want 1 (re-enrichment is disabled)", s.Entries())
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	asynqtest.Eventually(t, "incidents were polled", func() bool {
		calls, _ := h.counts(string(outbox.KindPollIncidents))
		return calls >= 1
	})
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}
	if calls, _ := h.counts(string(outbox.KindReenrichStale)); calls != 0 {
		t.Errorf("disabled re-enrichment ran %d times", calls)
	}
	if err := e.queue.Ping(t.Context()); err != nil {
		t.Errorf("Ping = %v", err)
	}
}
