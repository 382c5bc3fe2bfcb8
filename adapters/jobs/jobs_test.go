package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/jobs"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// handlerFunc adapts a function to ports.JobHandler.
type handlerFunc func(ctx context.Context, kind outbox.Kind, payload any) error

func (f handlerFunc) Handle(ctx context.Context, kind outbox.Kind, payload any) error {
	return f(ctx, kind, payload)
}

// recorder is a JobHandler that records every call by the payload's "n"
// field and fails the first failures[n] calls of message n with errs[n].
type recorder struct {
	mu    sync.Mutex
	calls []int
	fail  map[int]int
	errs  map[int]error
}

func (r *recorder) Handle(_ context.Context, _ outbox.Kind, payload any) error {
	n := payload.(map[string]int)["n"] // as msg made it; the queue hands it on as it is
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, n)
	if r.fail[n] > 0 {
		r.fail[n]--
		return r.errs[n]
	}
	return nil
}

func (r *recorder) count(n int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := 0
	for _, x := range r.calls {
		if x == n {
			c++
		}
	}
	return c
}

func msg(kind outbox.Kind, n int) outbox.Message {
	return outbox.New(uuid.Must(uuid.NewV7()), kind, map[string]int{"n": n}, time.Now())
}

func newQueue(t *testing.T, h ports.JobHandler, opts jobs.Options) *jobs.Queue {
	t.Helper()
	if opts.MinBackoff == 0 {
		opts.MinBackoff = time.Millisecond
	}
	q, err := jobs.New(h, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := q.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return q
}

func wait(t *testing.T, q *jobs.Queue) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := q.Wait(ctx); err != nil {
		t.Fatalf("Wait: %v", err)
	}
}

func TestNewRejectsNilHandler(t *testing.T) {
	t.Parallel()
	if _, err := jobs.New(nil, jobs.Options{}); err == nil {
		t.Fatal("New(nil) returned no error")
	}
}

func TestOutcomes(t *testing.T) {
	t.Parallel()
	transient := errors.New("smtp: 421 try later")
	permanent := fmt.Errorf("smtp: 550 no such user: %w", ports.ErrPermanent)
	notYet := ports.NotYet(time.Millisecond, errors.New("mail claimed by another run"))
	tests := []struct {
		name      string
		maxRetry  int
		failures  int
		err       error
		wantCalls int
		wantDead  bool
	}{
		{"success", 3, 0, nil, 1, false},
		{"fails once then succeeds", 3, 1, transient, 2, false},
		{"permanent is not retried", 3, 1, permanent, 1, true},
		{"retries run out", 2, 10, transient, 3, true},
		{"no retries", -1, 1, transient, 1, true},
		{"deferred runs are no failed attempts", 1, 3, notYet, 4, false},
		{"deferred runs even without retries", -1, 2, notYet, 3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := &recorder{fail: map[int]int{1: tt.failures}, errs: map[int]error{1: tt.err}}
			q := newQueue(t, h, jobs.Options{MaxRetry: tt.maxRetry})
			m := msg(outbox.KindAlertMail, 1)
			if err := q.Enqueue(t.Context(), m); err != nil {
				t.Fatal(err)
			}
			wait(t, q)
			if got := h.count(1); got != tt.wantCalls {
				t.Errorf("calls = %d, want %d", got, tt.wantCalls)
			}
			dead := q.Dead()
			if (len(dead) == 1) != tt.wantDead {
				t.Fatalf("dead = %+v, want dead: %v", dead, tt.wantDead)
			}
			if tt.wantDead && (dead[0].Message.ID != m.ID || dead[0].Attempts != tt.wantCalls || dead[0].Err != tt.err.Error()) {
				t.Errorf("dead job = %+v; want id %s, %d attempts, error %q", dead[0], m.ID, tt.wantCalls, tt.err)
			}
		})
	}
}

func TestEnqueueIsIdempotentByID(t *testing.T) {
	t.Parallel()
	h := &recorder{}
	q := newQueue(t, h, jobs.Options{})
	m := msg(outbox.KindEnrich, 7)
	for range 3 {
		if err := q.Enqueue(t.Context(), m); err != nil {
			t.Fatal(err)
		}
		wait(t, q)
	}
	if got := h.count(7); got != 1 {
		t.Errorf("calls = %d, want 1", got)
	}
}

func TestPanicIsAFailure(t *testing.T) {
	t.Parallel()
	q := newQueue(t, handlerFunc(func(context.Context, outbox.Kind, any) error { panic("boom") }), jobs.Options{MaxRetry: 1})
	if err := q.Enqueue(t.Context(), msg(outbox.KindBlobDelete, 1)); err != nil {
		t.Fatal(err)
	}
	wait(t, q)
	if dead := q.Dead(); len(dead) != 1 || dead[0].Attempts != 2 {
		t.Errorf("dead = %+v, want one job after 2 attempts", dead)
	}
}

func TestPriorityByKindQueue(t *testing.T) {
	t.Parallel()
	gate := make(chan struct{})
	var (
		mu    sync.Mutex
		order []outbox.Kind
	)
	first := msg(outbox.KindEnrich, 0)
	h := handlerFunc(func(_ context.Context, kind outbox.Kind, payload any) error {
		if reflect.DeepEqual(payload, first.Payload) {
			<-gate // hold the only worker while the others queue up
			return nil
		}
		mu.Lock()
		order = append(order, kind)
		mu.Unlock()
		return nil
	})
	q := newQueue(t, h, jobs.Options{Workers: 1, CriticalWorkers: -1}) // one worker for every queue
	if err := q.Enqueue(t.Context(), first); err != nil {
		t.Fatal(err)
	}
	for i, k := range []outbox.Kind{outbox.KindBackfill, outbox.KindBlobDelete, outbox.KindAlertMail, outbox.KindBackfill, outbox.KindMemberMail} {
		if err := q.Enqueue(t.Context(), msg(k, i+1)); err != nil {
			t.Fatal(err)
		}
	}
	close(gate)
	wait(t, q)
	want := []outbox.Kind{outbox.KindAlertMail, outbox.KindMemberMail, outbox.KindBlobDelete, outbox.KindBackfill, outbox.KindBackfill}
	if !slices.Equal(order, want) {
		t.Errorf("order = %v, want %v", order, want)
	}
}

func TestWorkersAreBounded(t *testing.T) {
	t.Parallel()
	var (
		mu          sync.Mutex
		now, atMost int
	)
	h := handlerFunc(func(context.Context, outbox.Kind, any) error {
		mu.Lock()
		now++
		atMost = max(atMost, now)
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		now--
		mu.Unlock()
		return nil
	})
	q := newQueue(t, h, jobs.Options{Workers: 3})
	for i := range 20 {
		if err := q.Enqueue(t.Context(), msg(outbox.KindEnrich, i)); err != nil {
			t.Fatal(err)
		}
	}
	wait(t, q)
	if atMost > 3 {
		t.Errorf("%d jobs ran at once, want at most 3", atMost)
	}
}

// TestCloseLeavesQueuedJobs: Close starts no job; it lets the running one
// end and leaves the queued ones held, for the next start.
func TestCloseLeavesQueuedJobs(t *testing.T) {
	t.Parallel()
	gate, started := make(chan struct{}), make(chan struct{})
	h := &recorder{}
	q, err := jobs.New(handlerFunc(func(ctx context.Context, kind outbox.Kind, payload any) error {
		if payload.(map[string]int)["n"] == 0 {
			close(started)
			<-gate
		}
		return h.Handle(ctx, kind, payload)
	}), jobs.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var ms []outbox.Message
	for i := range 5 {
		ms = append(ms, msg(outbox.KindEnrich, i))
		if err := q.Enqueue(t.Context(), ms[i]); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	closed := make(chan error, 1)
	go func() { closed <- q.Close(ctx) }()
	for !errors.Is(q.Enqueue(t.Context(), ms[4]), jobs.ErrClosed) {
		time.Sleep(time.Millisecond) // until Close has begun
	}
	close(gate)
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
	for i := range 5 {
		want := 0
		if i == 0 {
			want = 1
		}
		if h.count(i) != want {
			t.Errorf("message %d ran %d times, want %d", i, h.count(i), want)
		}
	}
	if got := q.Ended(); !slices.Equal(got, []uuid.UUID{ms[0].ID}) {
		t.Errorf("ended %v, want the running job %s", got, ms[0].ID)
	}
	if got := sorted(q.Held()); !slices.Equal(got, sorted(messageIDs(ms[1:]))) {
		t.Errorf("held %v, want the queued jobs", got)
	}
	if err := q.Close(ctx); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func messageIDs(ms []outbox.Message) []uuid.UUID {
	out := make([]uuid.UUID, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

func sorted(ids []uuid.UUID) []uuid.UUID {
	out := slices.Clone(ids)
	slices.SortFunc(out, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	return out
}

// TestEndedAndHeld: the queue reports a job ended once it succeeded or
// died, and holds it while it waits for a retry; a message handed over
// again after its job ended is reported again and not run.
func TestEndedAndHeld(t *testing.T) {
	t.Parallel()
	h := &recorder{fail: map[int]int{1: 1, 2: 1}, errs: map[int]error{
		1: fmt.Errorf("gone: %w", ports.ErrPermanent),
		2: ports.NotYet(time.Hour, errors.New("later")),
	}}
	q := newQueue(t, h, jobs.Options{})
	ms := []outbox.Message{msg(outbox.KindEnrich, 0), msg(outbox.KindEnrich, 1), msg(outbox.KindEnrich, 2)}
	for _, m := range ms {
		if err := q.Enqueue(t.Context(), m); err != nil {
			t.Fatal(err)
		}
	}
	for h.count(0)+h.count(1)+h.count(2) < 3 || len(q.Held()) > 1 {
		time.Sleep(time.Millisecond) // until each ran once and two ended
	}
	if got := sorted(q.Ended()); !slices.Equal(got, sorted(messageIDs(ms[:2]))) {
		t.Errorf("ended %v, want the succeeded and the dead job", got)
	}
	if got := q.Held(); !slices.Equal(got, messageIDs(ms[2:])) {
		t.Errorf("held %v, want the deferred job", got)
	}
	if got := q.Ended(); len(got) != 0 {
		t.Errorf("ended again %v, want nothing new", got)
	}
	if err := q.Enqueue(t.Context(), ms[0]); err != nil {
		t.Fatal(err)
	}
	if got := q.Ended(); !slices.Equal(got, messageIDs(ms[:1])) || h.count(0) != 1 {
		t.Errorf("handed over again: ended %v and ran %d times; want reported again, run once", got, h.count(0))
	}
}

// TestMailDoesNotWaitBehindEnrichment: with every worker held by an
// enrichment job and more queued, a member mail still runs.
func TestMailDoesNotWaitBehindEnrichment(t *testing.T) {
	t.Parallel()
	gate, mailed := make(chan struct{}), make(chan struct{})
	h := handlerFunc(func(ctx context.Context, kind outbox.Kind, _ any) error {
		if kind == outbox.KindMemberMail {
			close(mailed)
			return nil
		}
		select {
		case <-gate:
		case <-ctx.Done():
		}
		return nil
	})
	q := newQueue(t, h, jobs.Options{Workers: 2})
	defer close(gate)
	for i := range 500 {
		if err := q.Enqueue(t.Context(), msg(outbox.KindEnrich, i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Enqueue(t.Context(), msg(outbox.KindMemberMail, 500)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-mailed:
	case <-time.After(30 * time.Second): // a generous bound: the mail never runs on the old queue
		t.Fatal("the member mail waited behind the blocked enrichment jobs")
	}
}

func TestCloseCancelsStuckHandlersAtTheDeadline(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	h := handlerFunc(func(ctx context.Context, _ outbox.Kind, _ any) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	})
	q, err := jobs.New(h, jobs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := msg(outbox.KindEnrich, 1)
	if err := q.Enqueue(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	<-started
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if err := q.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close = %v, want the deadline", err)
	}
	if dead := q.Dead(); len(dead) != 0 {
		t.Errorf("dead = %+v, want none: a job stopped by shutdown is not dead", dead)
	}
	if got := q.Held(); !slices.Equal(got, []uuid.UUID{m.ID}) {
		t.Errorf("held %v, want the stopped job for the next start", got)
	}
}
