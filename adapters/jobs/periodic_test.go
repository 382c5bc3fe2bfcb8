package jobs_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/jobs"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// TestPeriodic: the job runs at once (a period of an hour has not passed),
// then once per tick, each as a new message, and Periodic returns when its
// context ends.
func TestPeriodic(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		every time.Duration
		runs  int32
	}{{time.Hour, 1}, {time.Millisecond, 3}} {
		var runs atomic.Int32
		q, err := jobs.New(handlerFunc(func(_ context.Context, kind outbox.Kind, payload any) error {
			if kind != outbox.KindReviewReminders || payload != (struct{}{}) {
				t.Errorf("ran %s %#v", kind, payload)
			}
			runs.Add(1)
			return nil
		}), jobs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { jobs.Periodic(ctx, q, outbox.KindReviewReminders, tc.every, nil); close(done) }()
		deadline := time.Now().Add(30 * time.Second) // a bound on a stuck test, not an assertion of speed
		for runs.Load() < tc.runs {
			if time.Now().After(deadline) {
				t.Fatalf("every %v: %d runs, want %d", tc.every, runs.Load(), tc.runs)
			}
			time.Sleep(time.Millisecond)
		}
		cancel()
		<-done
		_ = q.Close(context.Background())
	}
}
