package relay_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/relay"
)

// heldQueue is a ports.HeldJobQueue: it holds what it was handed until the
// test ends a job.
type heldQueue struct {
	fakeQueue
	mu    sync.Mutex
	held  []uuid.UUID
	ended []uuid.UUID
}

func (q *heldQueue) Enqueue(ctx context.Context, m outbox.Message) error {
	if err := q.fakeQueue.Enqueue(ctx, m); err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if !slices.Contains(q.held, m.ID) {
		q.held = append(q.held, m.ID)
	}
	return nil
}

// end ends the job of id.
func (q *heldQueue) end(id uuid.UUID) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.held = slices.DeleteFunc(q.held, func(h uuid.UUID) bool { return h == id })
	q.ended = append(q.ended, id)
}

func (q *heldQueue) Ended() []uuid.UUID {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.ended
	q.ended = nil
	return out
}

func (q *heldQueue) Held() []uuid.UUID {
	q.mu.Lock()
	defer q.mu.Unlock()
	return slices.Clone(q.held)
}

// delivered returns the ids that left the outbox, in the order of ids.
func delivered(s *store, ids []uuid.UUID) []uuid.UUID {
	left := undelivered(s, ids)
	var out []uuid.UUID
	for _, id := range ids {
		if _, ok := left[id]; !ok {
			out = append(out, id)
		}
	}
	return out
}

// TestHeldQueueDeliversWhenTheJobEnded: a message handed to a queue that
// holds its jobs in memory stays in the outbox, leased, until its job
// ended; the lease is renewed while the job is held, so no relay hands it
// over again; a process that died leaves it to the next relay once the
// lease ends.
func TestHeldQueueDeliversWhenTheJobEnded(t *testing.T) {
	t.Parallel()
	s, q, c := newStore(), &heldQueue{}, &fakeClock{now: t0}
	ids := seed(t, s, 3)
	const lease = 30 * time.Second
	r := newRelay(t, s, q, c, relay.Options{Lease: lease})
	if n, err := r.RunOnce(t.Context()); err != nil || n != 3 {
		t.Fatalf("RunOnce = %d, %v; want 3 handed over", n, err)
	}
	if got := delivered(s, ids); len(got) != 0 {
		t.Fatalf("delivered %v when handed over, want none before their jobs ended", got)
	}
	q.end(ids[0])
	for range 6 { // three leases long, renewed on the way
		c.advance(lease / 2)
		if n, err := r.RunOnce(t.Context()); err != nil || n != 0 {
			t.Fatalf("RunOnce = %d, %v; want nothing handed over again", n, err)
		}
	}
	if got := delivered(s, ids); !slices.Equal(got, ids[:1]) {
		t.Fatalf("delivered %v, want the ended job %v only", got, ids[:1])
	}
	if n := pending(t, s); n != 2 {
		t.Fatalf("pending = %d, want the 2 held jobs", n)
	}

	// The process dies: a new relay and queue take the held messages
	// once their lease ends, not before.
	q2 := &heldQueue{}
	r2 := newRelay(t, s, q2, c, relay.Options{Lease: lease})
	if n, err := r2.RunOnce(t.Context()); err != nil || n != 0 {
		t.Fatalf("RunOnce while leased = %d, %v; want 0", n, err)
	}
	c.advance(lease)
	if n, err := r2.RunOnce(t.Context()); err != nil || n != 2 {
		t.Fatalf("RunOnce after the lease = %d, %v; want the 2 jobs again", n, err)
	}
	if got := q2.enqueued(); !slices.Equal(got, ids[1:]) {
		t.Fatalf("handed over again %v, want %v", got, ids[1:])
	}
}

// TestSettleReleasesWhatTheQueueDidNotRun: a stopping queue's ended jobs
// are delivered and the others released, so that the next start takes them
// at once.
func TestSettleReleasesWhatTheQueueDidNotRun(t *testing.T) {
	t.Parallel()
	s, q, c := newStore(), &heldQueue{}, &fakeClock{now: t0}
	ids := seed(t, s, 3)
	r := newRelay(t, s, q, c, relay.Options{Lease: time.Hour})
	if _, err := r.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	q.end(ids[1])
	if err := r.Settle(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := delivered(s, ids); !slices.Equal(got, ids[1:2]) {
		t.Fatalf("delivered %v, want %v", got, ids[1:2])
	}
	r2 := newRelay(t, s, &heldQueue{}, c, relay.Options{Lease: time.Hour})
	if n, err := r2.RunOnce(t.Context()); err != nil || n != 2 {
		t.Fatalf("the next start's RunOnce = %d, %v; want the 2 released jobs at once", n, err)
	}
}

// TestHeldQueueKeepsEndedJobsWhenTheStoreFails: jobs reported ended during
// a failed unit of work are delivered by the next one.
func TestHeldQueueKeepsEndedJobsWhenTheStoreFails(t *testing.T) {
	t.Parallel()
	s, q, c := newStore(), &heldQueue{}, &fakeClock{now: t0}
	ids := seed(t, s, 1)
	r := newRelay(t, s, q, c, relay.Options{})
	if _, err := r.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	q.end(ids[0])
	s.down.Store(true)
	if _, err := r.RunOnce(t.Context()); err == nil {
		t.Fatal("RunOnce with the store down: no error")
	}
	s.down.Store(false)
	if _, err := r.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := delivered(s, ids); !slices.Equal(got, ids) {
		t.Fatalf("delivered %v, want %v", got, ids)
	}
}
