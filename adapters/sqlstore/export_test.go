package sqlstore

import (
	"context"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// CountStatements makes s count every statement it sends from now on, so
// tests can check that bulk work takes a constant number of round trips.
// Call it before s is used concurrently.
func CountStatements(s *Store) *atomic.Int64 {
	c := new(atomic.Int64)
	s.db = s.db.WithQueryHook(counter{c})
	return c
}

type counter struct{ n *atomic.Int64 }

func (c counter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	c.n.Add(1)
	return ctx
}

func (counter) AfterQuery(context.Context, *bun.QueryEvent) {}

// RerunMigration runs one embedded migration file of s's dialect again, as a
// second migrator (or one that died before recording it) would; every
// migration is written to be safe to run twice.
func RerunMigration(ctx context.Context, s *Store, name string) error {
	b, err := migrationFiles.ReadFile("migrations/" + string(s.Dialect()) + "/" + name)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, string(b))
	return err
}

// CacheSizes reads PRAGMA cache_size on a connection of the writer and of
// the read pool (SQLite).
func CacheSizes(ctx context.Context, s *Store) (writer, reader int, err error) {
	if err = s.db.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&writer); err != nil {
		return 0, 0, err
	}
	err = s.reader.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&reader)
	return writer, reader, err
}

// The Go migrations of SQLite, to run again as a migrator that died before
// recording them would.

// RerunReviewLifecycle runs the Go migration of the review lifecycle again.
func RerunReviewLifecycle(ctx context.Context, s *Store) error { return reviewLifecycleUp(ctx, s.db) }

// RerunDocumentDigest runs the Go migration that adds documents.sha256 again.
func RerunDocumentDigest(ctx context.Context, s *Store) error { return documentDigestUp(ctx, s.db) }

// RerunProfileListColumns runs the Go migration that adds and fills
// profiles.section_statuses and security_rating again.
func RerunProfileListColumns(ctx context.Context, s *Store) error {
	return profileListColumnsUp(ctx, s.db)
}

// RerunRatingCoverage runs the Go migration that adds
// rating_history.checks_run and checks_total again.
func RerunRatingCoverage(ctx context.Context, s *Store) error { return ratingCoverageUp(ctx, s.db) }

// RerunIncidentMerge runs the Go migration that adds incidents.match and
// sources again.
func RerunIncidentMerge(ctx context.Context, s *Store) error { return incidentMergeUp(ctx, s.db) }
