package relay_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/relay"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// store is the memory store with two ways to fail: down makes every unit
// of work fail, as a database outage would, and failMarkDelivered makes
// MarkDelivered fail, to test the rollback.
type store struct {
	*memstore.Store
	down, failMarkDelivered atomic.Bool
}

func newStore() *store { return &store{Store: memstore.New()} }

var errDBDown = errors.New("dial tcp 127.0.0.1:5432: connection refused")

func (s *store) InTx(ctx context.Context, fn func(context.Context, stores.Tx) error) error {
	if s.down.Load() {
		return errDBDown
	}
	return s.Store.InTx(ctx, func(ctx context.Context, tx stores.Tx) error { return fn(ctx, failingTx{tx, s}) })
}

func (s *store) View(ctx context.Context, fn func(context.Context, stores.Tx) error) error {
	if s.down.Load() {
		return errDBDown
	}
	return s.Store.View(ctx, fn)
}

type failingTx struct {
	stores.Tx
	s *store
}

func (t failingTx) Outbox() outbox.Repo { return failingOutbox{t.Tx.Outbox(), t.s} }

type failingOutbox struct {
	outbox.Repo
	s *store
}

func (o failingOutbox) MarkDelivered(ctx context.Context, ids []uuid.UUID, now time.Time) error {
	if o.s.failMarkDelivered.Load() {
		return errors.New("disk full")
	}
	return o.Repo.MarkDelivered(ctx, ids, now)
}

// undelivered returns the message of each id still in the outbox.
func undelivered(s *store, ids []uuid.UUID) map[uuid.UUID]outbox.Message {
	out := map[uuid.UUID]outbox.Message{}
	for _, m := range s.Undelivered() {
		if slices.Contains(ids, m.ID) {
			out[m.ID] = m
		}
	}
	return out
}

// due reports whether the message id would be claimed at now.
func due(t *testing.T, s *store, id uuid.UUID, now time.Time) bool {
	t.Helper()
	var found bool
	errLook := errors.New("only looking")
	err := s.Store.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error {
		ms, err := tx.Outbox().Claim(ctx, 1000, now)
		found = slices.ContainsFunc(ms, func(m outbox.Message) bool { return m.ID == id })
		return cmp.Or(err, errLook)
	})
	if !errors.Is(err, errLook) {
		t.Fatal(err)
	}
	return found
}

// fakeQueue records hand-overs; fail, when set, decides per message.
type fakeQueue struct {
	mu   sync.Mutex
	got  []uuid.UUID
	fail func(outbox.Message) error
}

func (q *fakeQueue) Enqueue(_ context.Context, m outbox.Message) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.fail != nil {
		if err := q.fail(m); err != nil {
			return err
		}
	}
	q.got = append(q.got, m.ID)
	return nil
}

func (q *fakeQueue) enqueued() []uuid.UUID {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.Clone(q.got)
}

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

var t0 = time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)

// seed adds n messages, one millisecond apart, and returns their ids in order.
func seed(t *testing.T, s *store, n int) []uuid.UUID {
	t.Helper()
	ids := make([]uuid.UUID, n)
	for i := range ids {
		ids[i] = uuid.Must(uuid.NewV7())
		m := outbox.New(ids[i], outbox.KindMemberMail, outbox.MemberMail{Email: fmt.Sprintf("u%d@example.com", i)}, t0.Add(time.Duration(i-n)*time.Millisecond))
		if err := s.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error { return tx.Outbox().Add(ctx, m) }); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

func pending(t *testing.T, s *store) int {
	t.Helper()
	var n int
	err := s.View(t.Context(), func(ctx context.Context, tx stores.Tx) (err error) {
		n, err = tx.Outbox().Pending(ctx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func newRelay(t *testing.T, s stores.Store, q ports.JobQueue, c ports.Clock, opts relay.Options) *relay.Relay {
	t.Helper()
	r, err := relay.New(s, q, c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestNewRejectsNilDependencies(t *testing.T) {
	t.Parallel()
	s, q, c := newStore(), &fakeQueue{}, &fakeClock{now: t0}
	tests := []struct {
		name  string
		store ports.UnitOfWork[stores.Tx]
		queue ports.JobQueue
		clock ports.Clock
	}{
		{"store", nil, q, c},
		{"queue", s, nil, c},
		{"clock", s, q, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := relay.New(tt.store, tt.queue, tt.clock, relay.Options{}); err == nil {
				t.Fatalf("New with nil %s: no error", tt.name)
			}
		})
	}
}

func TestRunOnceDeliversInOrder(t *testing.T) {
	t.Parallel()
	s, q := newStore(), &fakeQueue{}
	ids := seed(t, s, 5)
	r := newRelay(t, s, q, &fakeClock{now: t0}, relay.Options{BatchSize: 3})

	for _, want := range []int{3, 2, 0} {
		n, err := r.RunOnce(t.Context())
		if err != nil || n != want {
			t.Fatalf("RunOnce = %d, %v; want %d, nil", n, err, want)
		}
	}
	if got := q.enqueued(); !slices.Equal(got, ids) {
		t.Errorf("enqueued %v, want %v", got, ids)
	}
	if n := pending(t, s); n != 0 {
		t.Errorf("pending = %d, want 0", n)
	}
}

func TestRunOnceStopsAtFirstFailure(t *testing.T) {
	t.Parallel()
	s := newStore()
	ids := seed(t, s, 4)
	down := errors.New("connection refused")
	q := &fakeQueue{fail: func(m outbox.Message) error {
		if m.ID == ids[2] {
			return down
		}
		return nil
	}}
	clock := &fakeClock{now: t0}
	r := newRelay(t, s, q, clock, relay.Options{Interval: time.Second, MaxBackoff: time.Minute})

	n, err := r.RunOnce(t.Context())
	var enq *relay.EnqueueError
	if n != 2 || !errors.As(err, &enq) || enq.ID != ids[2] || !errors.Is(err, down) {
		t.Fatalf("RunOnce = %d, %v; want 2 and the failure of the third message", n, err)
	}
	if got := q.enqueued(); !slices.Equal(got, ids[:2]) {
		t.Errorf("enqueued %v, want the first two %v", got, ids[:2])
	}
	left := undelivered(s, ids)
	if m, ok := left[ids[2]]; !ok || m.Attempts != 1 || m.LastError != down.Error() ||
		due(t, s, ids[2], t0.Add(time.Second-time.Nanosecond)) || !due(t, s, ids[2], t0.Add(time.Second)) {
		t.Errorf("failed message = %+v (undelivered %v); want undelivered, 1 attempt, the error, retry at +1s", m, ok)
	}
	if _, ok := left[ids[3]]; !ok {
		t.Error("the message after the failure was delivered in the same batch")
	}
	if n := pending(t, s); n != 2 {
		t.Errorf("pending = %d, want 2", n)
	}

	q.mu.Lock()
	q.fail = nil
	q.mu.Unlock()
	clock.advance(time.Second)
	if n, err := r.RunOnce(t.Context()); n != 2 || err != nil {
		t.Fatalf("second RunOnce = %d, %v; want 2, nil", n, err)
	}
	if n := pending(t, s); n != 0 {
		t.Errorf("pending = %d, want 0", n)
	}
}

func TestRunOnceRollsBackWhenTheStoreFails(t *testing.T) {
	t.Parallel()
	s, q := newStore(), &fakeQueue{}
	s.failMarkDelivered.Store(true)
	seed(t, s, 2)
	r := newRelay(t, s, q, &fakeClock{now: t0}, relay.Options{})

	if n, err := r.RunOnce(t.Context()); err == nil || n != 0 {
		t.Fatalf("RunOnce = %d, %v; want 0 and an error", n, err)
	}
	if n := pending(t, s); n != 2 {
		t.Errorf("pending = %d, want 2: the messages must be claimed again", n)
	}
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	r := newRelay(t, newStore(), &fakeQueue{}, &fakeClock{}, relay.Options{Interval: time.Second, MaxBackoff: 10 * time.Second})
	tests := []struct {
		attempts int
		want     time.Duration
	}{
		{-1, time.Second},
		{0, time.Second},
		{1, 2 * time.Second},
		{3, 8 * time.Second},
		{4, 10 * time.Second},
		{1000, 10 * time.Second},
	}
	for _, tt := range tests {
		if got := r.Backoff(tt.attempts); got != tt.want {
			t.Errorf("Backoff(%d) = %v, want %v", tt.attempts, got, tt.want)
		}
	}
}

func TestConcurrentRelaysEnqueueOnce(t *testing.T) {
	t.Parallel()
	s, q := newStore(), &fakeQueue{}
	ids := seed(t, s, 50)
	clock := &fakeClock{now: t0}
	var wg sync.WaitGroup
	for range 4 {
		r := newRelay(t, s, q, clock, relay.Options{BatchSize: 7})
		wg.Go(func() {
			for {
				n, err := r.RunOnce(t.Context())
				if err != nil {
					t.Error(err)
					return
				}
				if n == 0 {
					return
				}
			}
		})
	}
	wg.Wait()
	got := q.enqueued()
	if !slices.Equal(got, ids) {
		t.Errorf("enqueued %d messages, want each of %d once in order", len(got), len(ids))
	}
}

func TestRunDrainsBacklogAndWakesOnNotify(t *testing.T) {
	t.Parallel()
	s, q := newStore(), &fakeQueue{}
	seed(t, s, 5)
	// An hour-long interval: anything delivered within the test's seconds
	// came from draining a full batch or from Notify.
	r := newRelay(t, s, q, &fakeClock{now: t0}, relay.Options{BatchSize: 2, Interval: time.Hour})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()

	waitFor(t, func() bool { return len(q.enqueued()) == 5 })
	late := seed(t, s, 1)[0]
	r.Notify()
	waitFor(t, func() bool { return slices.Contains(q.enqueued(), late) })

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
}

func TestNotifyNeverBlocks(t *testing.T) {
	t.Parallel()
	r := newRelay(t, newStore(), &fakeQueue{}, &fakeClock{}, relay.Options{})
	// No Run loop takes the wake-ups: a Notify that waited for one would
	// never return.
	done := make(chan struct{})
	go func() {
		for range 10 {
			r.Notify()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Notify blocked with no relay running")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// recorder is a slog.Handler that keeps every record.
type recorder struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (h *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *recorder) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recs = append(h.recs, r.Clone())
	return nil
}
func (h *recorder) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recorder) WithGroup(string) slog.Handler      { return h }

// at returns the messages logged at level or above.
func (h *recorder) at(level slog.Level) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, r := range h.recs {
		if r.Level >= level {
			out = append(out, r.Message)
		}
	}
	return out
}

// stepper drives Run one round at a time: every wait Run asks for is
// recorded, and a round starts only when the test calls step.
type stepper struct {
	mu    sync.Mutex
	waits []time.Duration
	ticks chan time.Time
}

func (s *stepper) after(d time.Duration) <-chan time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waits = append(s.waits, d)
	return s.ticks
}

func (s *stepper) recorded() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.waits)
}

// step lets Run take one round and waits until it asks for its next wait.
func (s *stepper) step(t *testing.T) {
	t.Helper()
	n := len(s.recorded())
	s.ticks <- t0
	waitFor(t, func() bool { return len(s.recorded()) > n })
}

func TestRunBacksOffAndLogsOncePerOutage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		breakIt   func(*store, *fakeQueue)
		repair    func(*store, *fakeQueue)
		wantStage string
		// wantPending after recovery: a message whose hand-over failed
		// waits for its own retry time (the fake clock stands still).
		wantPending int
	}{
		{"store down",
			func(s *store, _ *fakeQueue) { s.down.Store(true) },
			func(s *store, _ *fakeQueue) { s.down.Store(false) },
			"store", 0},
		{"queue down",
			func(_ *store, q *fakeQueue) {
				q.mu.Lock()
				q.fail = func(outbox.Message) error { return errors.New("dial tcp 127.0.0.1:6379: connection refused") }
				q.mu.Unlock()
			},
			func(_ *store, q *fakeQueue) { q.mu.Lock(); q.fail = nil; q.mu.Unlock() },
			"enqueue", 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, q := newStore(), &fakeQueue{}
			seed(t, s, 20)
			logs := &recorder{}
			r := newRelay(t, s, q, &fakeClock{now: t0}, relay.Options{BatchSize: 100, Interval: time.Second,
				MaxOutageBackoff: 8 * time.Second, Logger: slog.New(logs)})
			st := &stepper{ticks: make(chan time.Time)}
			relay.SetAfter(r, st.after)
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			waitFor(t, func() bool { return len(st.recorded()) == 1 })

			tt.breakIt(s, q)
			for range 6 {
				st.step(t)
				r.Notify() // ignored while down: the next round waits for its backoff
			}
			if got := logs.at(slog.LevelInfo); len(got) != 1 {
				t.Fatalf("six failing rounds logged %q at info or above; want one line", got)
			}
			tt.repair(s, q)
			st.step(t)
			cancel()
			if err := <-done; err != nil {
				t.Fatalf("Run = %v", err)
			}

			want := []time.Duration{0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 8 * time.Second, time.Second}
			// A Notify that came during the outage may start one more round
			// right after the recovery; the waits before it are fixed.
			if got := st.recorded(); len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
				t.Errorf("waits %v, want them to begin %v", got, want)
			}
			msgs := logs.at(slog.LevelInfo)
			if len(msgs) != 2 || !strings.Contains(msgs[0], "backing off") || !strings.Contains(msgs[1], "recovered") {
				t.Errorf("logged %q; want one outage line and one recovery line", msgs)
			}
			logs.mu.Lock()
			var stage string
			logs.recs[0].Attrs(func(a slog.Attr) bool {
				if a.Key == "stage" {
					stage = a.Value.String()
				}
				return true
			})
			logs.mu.Unlock()
			if stage != tt.wantStage {
				t.Errorf("outage logged with stage %q, want %q", stage, tt.wantStage)
			}
			if n := pending(t, s); n != tt.wantPending {
				t.Errorf("pending = %d after recovery, want %d", n, tt.wantPending)
			}
		})
	}
}

func TestOutageBackoff(t *testing.T) {
	t.Parallel()
	r := newRelay(t, newStore(), &fakeQueue{}, &fakeClock{}, relay.Options{Interval: time.Second, MaxOutageBackoff: 5 * time.Second})
	for failures, want := range []time.Duration{time.Second, time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second} {
		if got := r.OutageBackoff(failures); got != want {
			t.Errorf("OutageBackoff(%d) = %v, want %v", failures, got, want)
		}
	}
	if got := r.OutageBackoff(1 << 20); got != 5*time.Second {
		t.Errorf("OutageBackoff(huge) = %v, want the cap", got)
	}
}
