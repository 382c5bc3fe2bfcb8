package jobs_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/jobs"
	"github.com/vetted-dev/vetted/adapters/memory"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/relay"
	"github.com/vetted-dev/vetted/ports"
)

// TestRelayFeedsTheQueue runs the embedded profile's pipeline: outbox in
// the memory store, relay, in-process queue. Relaying twice and handing
// the same message over again still runs each job once.
func TestRelayFeedsTheQueue(t *testing.T) {
	t.Parallel()
	store := memory.New()
	h := &recorder{}
	q := newQueue(t, h, jobs.Options{Workers: 1})
	r, err := relay.New(store, q, ports.SystemClock{}, relay.Options{BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	var ms []outbox.Message
	for i, k := range []outbox.Kind{outbox.KindBackfill, outbox.KindEnrich, outbox.KindAlertMail} {
		ms = append(ms, outbox.New(uuid.Must(uuid.NewV7()), k, map[string]int{"n": i}, time.Now()))
	}
	if err := store.InTx(t.Context(), func(ctx context.Context, tx ports.Tx) error { return tx.Outbox().Add(ctx, ms...) }); err != nil {
		t.Fatal(err)
	}
	for range 3 {
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
	for i := range ms {
		if n := h.count(i); n != 1 {
			t.Errorf("message %d ran %d times, want 1", i, n)
		}
	}
	var n int
	if err := store.View(t.Context(), func(ctx context.Context, tx ports.Tx) (err error) {
		n, err = tx.Outbox().Pending(ctx)
		return err
	}); err != nil || n != 0 {
		t.Errorf("pending = %d, %v; want 0", n, err)
	}
}
