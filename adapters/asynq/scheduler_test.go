package asynqadapter_test

import (
	"log/slog"
	"testing"
	"time"

	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
)

// TestSchedulerStopsWithoutAnError: a scheduler started and shut down
// cleanly logs no error (asynq's complaint that it may not close the
// shared Redis client, which the worker closes, is kept at debug).
func TestSchedulerStopsWithoutAnError(t *testing.T) {
	t.Parallel()
	rdb, err := asynqadapter.NewClient(asynqtest.URL(t, 13))
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	var logs lockedBuffer
	s, err := asynqadapter.NewScheduler(rdb, asynqadapter.SchedulerConfig{PollIncidentsEvery: time.Hour,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	s.Shutdown()
	if errs := logs.Lines("level=ERROR"); len(errs) != 0 {
		t.Fatalf("a clean stop logged errors: %q", errs)
	}
	if len(logs.Lines("Scheduler stopped")) != 1 {
		t.Fatalf("the scheduler did not stop:\n%s", logs.String())
	}
	if err := rdb.Ping(t.Context()).Err(); err != nil {
		t.Fatalf("the worker's client after the scheduler stopped: %v", err)
	}
}
