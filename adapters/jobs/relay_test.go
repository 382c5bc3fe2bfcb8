package jobs_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/jobs"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/relay"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestRelayFeedsTheQueue runs the embedded profile's pipeline: outbox in
// the memory store, relay, in-process queue. Relaying twice and handing
// the same message over again still runs each job once.
func TestRelayFeedsTheQueue(t *testing.T) {
	t.Parallel()
	store := memstore.New()
	var (
		mu   sync.Mutex
		runs = map[outbox.Kind]int{}
	)
	h := handlerFunc(func(_ context.Context, kind outbox.Kind, payload any) error {
		// the store hands each payload back typed, as it was given
		if _, ok := payload.(outbox.BlobDelete); kind == outbox.KindBlobDelete && !ok {
			t.Errorf("payload %#v", payload)
		}
		mu.Lock()
		defer mu.Unlock()
		runs[kind]++
		return nil
	})
	q := newQueue(t, h, jobs.Options{Workers: 1})
	r, err := relay.New(store, q, ports.SystemClock{}, relay.Options{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	id := uuid.Must(uuid.NewV7())
	ms := []outbox.Message{
		outbox.New(uuid.Must(uuid.NewV7()), outbox.KindBackfill, outbox.Backfill{RunID: id}, time.Now()),
		outbox.New(uuid.Must(uuid.NewV7()), outbox.KindBlobDelete, outbox.BlobDelete{Keys: []string{"k"}}, time.Now()),
		outbox.New(uuid.Must(uuid.NewV7()), outbox.KindAlertMail, outbox.AlertMail{IncidentID: id, SubscriberID: id}, time.Now()),
	}
	if err := store.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error { return tx.Outbox().Add(ctx, ms...) }); err != nil {
		t.Fatal(err)
	}
	if _, err := r.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	wait(t, q)
	if n := pendingIn(t, store); n != 3 {
		t.Errorf("pending = %d after two jobs ran, want 3 until the relay hears they ended", n)
	}
	for range 2 {
		if _, err := r.RunOnce(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range ms { // a relay that crashed before its commit would do this
		if err := q.Enqueue(t.Context(), m); err != nil {
			t.Fatal(err)
		}
	}
	wait(t, q)
	if _, err := r.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	for _, m := range ms {
		if n := runs[m.Kind]; n != 1 {
			t.Errorf("message %s ran %d times, want 1", m.Kind, n)
		}
	}
	mu.Unlock()
	if n := pendingIn(t, store); n != 0 {
		t.Errorf("pending = %d; want 0", n)
	}
}

func pendingIn(t *testing.T, store stores.Store) int {
	t.Helper()
	var n int
	if err := store.View(t.Context(), func(ctx context.Context, tx stores.Tx) (err error) {
		n, err = tx.Outbox().Pending(ctx)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return n
}
