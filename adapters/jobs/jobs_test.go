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
	"github.com/vetted-dev/vetted/core/outbox"
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
	q := newQueue(t, h, jobs.Options{Workers: 1})
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

func TestCloseFinishesQueuedJobs(t *testing.T) {
	t.Parallel()
	h := &recorder{fail: map[int]int{0: 1}, errs: map[int]error{0: errors.New("once")}}
	q, err := jobs.New(h, jobs.Options{Workers: 1, MinBackoff: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := q.Enqueue(t.Context(), msg(outbox.KindAlertMail, i)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := q.Close(ctx); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for i := range 5 {
		want := 1
		if i == 0 {
			want = 2 // failed once, retried during Close
		}
		if h.count(i) != want {
			t.Errorf("message %d ran %d times, want %d", i, h.count(i), want)
		}
	}
	if err := q.Enqueue(t.Context(), msg(outbox.KindAlertMail, 9)); !errors.Is(err, jobs.ErrClosed) {
		t.Errorf("Enqueue after Close = %v, want ErrClosed", err)
	}
	if err := q.Close(ctx); err != nil {
		t.Errorf("second Close = %v", err)
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
	if err := q.Enqueue(t.Context(), msg(outbox.KindEnrich, 1)); err != nil {
		t.Fatal(err)
	}
	<-started
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if err := q.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close = %v, want the deadline", err)
	}
	if dead := q.Dead(); len(dead) != 1 {
		t.Errorf("dead = %+v, want the cancelled job", dead)
	}
}
