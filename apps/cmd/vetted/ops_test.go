package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
)

// mapLookup reads the environment from m only.
func mapLookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// TestMigrateWarnsOfNothing: `vetted migrate` on PostgreSQL with neither
// a dev secret nor a signing key (which serve would warn about) applies the
// migrations and warns of nothing: it verifies no token and signs no link.
func TestMigrateWarnsOfNothing(t *testing.T) {
	var stderr syncBuffer
	env := env{stdout: &syncBuffer{}, stderr: &stderr, lookup: mapLookup(map[string]string{"VETTED_DATABASE_URL": pgtest.NewDatabase(t)})}
	if err := run(t.Context(), []string{"migrate"}, env); err != nil {
		t.Fatalf("migrate: %v\n%s", err, stderr.String())
	}
	if len(stderr.Lines("migrations applied")) != 1 {
		t.Fatalf("no migrations applied:\n%s", stderr.String())
	}
	if w := stderr.Lines("level=WARN"); len(w) != 0 {
		t.Errorf("migrate warned: %q", w)
	}
}

// TestWorkerStopsCleanly: `vetted worker` (SQLite and Redis), started and
// stopped with no dev secret set, warns of no dev token (it verifies none)
// and logs no error on its clean stop.
func TestWorkerStopsCleanly(t *testing.T) {
	var stderr syncBuffer
	env := env{stdout: &syncBuffer{}, stderr: &stderr, lookup: mapLookup(map[string]string{
		"VETTED_REDIS_URL": asynqtest.URL(t, 12), "VETTED_DATA_DIR": t.TempDir()})}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"worker"}, env) }()
	waitFor(t, "the worker started", time.Minute, func() bool { return len(stderr.Lines("worker started")) > 0 })
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("worker: %v\n%s", err, stderr.String())
	}
	if len(stderr.Lines("worker stopped")) != 1 {
		t.Fatalf("the worker did not stop:\n%s", stderr.String())
	}
	for _, level := range []string{"level=ERROR", "level=WARN"} {
		if l := stderr.Lines(level); len(l) != 0 {
			t.Errorf("a clean start and stop logged %s:\n%s", level, strings.Join(l, "\n"))
		}
	}
}
