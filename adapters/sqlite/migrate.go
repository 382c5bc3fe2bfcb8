package sqlite

import (
	"context"
	"embed"
	"fmt"
	"time"

	"github.com/uptrace/bun/migrate"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
)

// migrationFiles are the schema migrations, forward-only: there are no down
// files, and every statement is written to be safe to run twice.
//
//go:embed migrations/*.up.sql
var migrationFiles embed.FS

// staleLock is how long Migrate waits for another migrator's lock before it
// takes it over. SQLite migrations take milliseconds, so a lock held that
// long was left by a migrator that died.
const staleLock = 10 * time.Second

// Migrate brings the schema up to date. It is safe to call on every start.
// Each migration runs in a write transaction of its own and is recorded as
// applied once it has committed. Two processes starting on one file at once
// take turns on bun's migration lock row.
func (s *Store) Migrate(ctx context.Context) error {
	m, err := bunrepo.Migrator(s.writer, migrationFiles, "migrations", registerReviewLifecycle, registerDocumentDigest, registerProfileListColumns, registerListVersion, registerRatingCoverage)
	if err != nil {
		return err
	}
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("migrate: init: %w", translate(err, "create migration tables"))
	}
	if err := lock(ctx, m); err != nil {
		return err
	}
	defer func() { _ = m.Unlock(context.WithoutCancel(ctx)) }()
	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// lock takes bun's migration lock, waiting for a live migrator to finish
// and taking over the lock of a dead one.
func lock(ctx context.Context, m *migrate.Migrator) error {
	deadline := time.Now().Add(staleLock)
	for m.Lock(ctx) != nil {
		if time.Now().After(deadline) {
			if err := m.Unlock(ctx); err != nil {
				return fmt.Errorf("migrate: take over a stale lock: %w", err)
			}
			deadline = time.Now().Add(staleLock)
			continue
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("migrate: wait for the migration lock: %w", ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}
