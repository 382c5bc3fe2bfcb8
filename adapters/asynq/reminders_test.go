package asynqadapter_test

import (
	"context"
	"testing"
	"time"

	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// TestSchedulerEnqueuesReviewReminders: the review reminders job is
// scheduled beside incident polling, on its own period.
func TestSchedulerEnqueuesReviewReminders(t *testing.T) {
	// Not parallel: the two scheduler tests share Redis database 10, and
	// each asserts what the other's scheduler enqueues does not run.
	e := newEnv(t, 10, asynqadapter.QueueConfig{})
	h := newFakeHandler(nil)
	e.startServer(t, h, fastServer())
	s, err := asynqadapter.NewScheduler(e.rdb, asynqadapter.SchedulerConfig{ReviewRemindersEvery: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if s.Entries() != 1 {
		t.Fatalf("Entries = %d, want 1", s.Entries())
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	asynqtest.Eventually(t, "review reminders ran", func() bool {
		calls, _ := h.counts(string(outbox.KindReviewReminders))
		return calls >= 1
	})
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run = %v", err)
	}
	if calls, _ := h.counts(string(outbox.KindPollIncidents)); calls != 0 {
		t.Errorf("disabled incident polling ran %d times", calls)
	}
}
