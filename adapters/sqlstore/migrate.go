package sqlstore

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// migrator returns bun's migrator over the forward-only *.up.sql files in
// dir of files. Applied migrations are recorded in vetted_migrations, each
// once it has committed, and bun's lock row lives in vetted_migration_locks;
// how migrators of several processes take turns is each dialect's to say.
//
// register adds Go migrations (for steps SQL cannot write so that they are
// safe to run twice, such as SQLite's ADD COLUMN); each calls
// Migrations.Register from a file named as bun names migrations: bun names
// a migration by its file's timestamp, and that name is what
// vetted_migrations records, so those files keep their names.
func migrator(db *bun.DB, files fs.FS, dir string, register ...func(*migrate.Migrations) error) (*migrate.Migrator, error) {
	sub, err := fs.Sub(files, dir)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	ms := migrate.NewMigrations()
	if err := ms.Discover(sub); err != nil {
		return nil, fmt.Errorf("migrate: discover: %w", err)
	}
	for _, r := range register {
		if err := r(ms); err != nil {
			return nil, fmt.Errorf("migrate: register: %w", err)
		}
	}
	return migrate.NewMigrator(db, ms,
		migrate.WithTableName("vetted_migrations"),
		migrate.WithLocksTableName("vetted_migration_locks"),
		migrate.WithMarkAppliedOnSuccess(true),
	), nil
}

// migrationFiles are the schema migrations of each dialect, forward-only:
// there are no down files, and every statement is written to be safe to
// run twice.
//
//go:embed migrations/postgres/*.up.sql migrations/sqlite/*.up.sql
var migrationFiles embed.FS

// Migrate brings the schema up to date. It is safe to call on every start
// and from several processes at once (on PostgreSQL an advisory lock, on
// SQLite bun's migration lock row make them take turns). Each migration is
// recorded as applied only once it has committed.
func (s *Store) Migrate(ctx context.Context) error {
	m, err := s.d.newMigrator(s)
	if err != nil {
		return err
	}
	return s.d.migrate(ctx, s, m)
}

// SchemaVersion identifies the embedded SQL migrations of d by a short hash
// of their names and contents, so that tools (pgtest's template databases)
// can tell whether a database was built from the same schema.
func SchemaVersion(d Dialect) string {
	dir := "migrations/" + string(d)
	h := sha256.New()
	_ = fs.WalkDir(migrationFiles, dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		b, err := migrationFiles.ReadFile(path)
		if err != nil {
			return err
		}
		// Named as when each dialect had a package and a migrations
		// directory of its own, so that the hash is the same.
		fmt.Fprintf(h, "%s\x00%d\x00", "migrations/"+path[len(dir)+1:], len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// ErrSchemaBehind means the database lacks migrations this binary needs:
// `vetted migrate` (the Kubernetes Job) has not run for this release yet.
var ErrSchemaBehind = errors.New("postgres: schema older than this binary's")

// CheckSchema reports whether every migration embedded in this binary has
// been applied (ErrSchemaBehind, naming the first one missing, when not).
// Migrations the binary does not know are fine: a newer release's Job may
// run while older replicas still serve, and migrations only add. It is
// /readyz's check on PostgreSQL; an SQLite store always migrates at open.
func (s *Store) CheckSchema(ctx context.Context) error {
	m, err := s.d.newMigrator(s)
	if err != nil {
		return err
	}
	all, err := m.MigrationsWithStatus(ctx)
	if err != nil {
		if unavailable(err) {
			return errUnavailable(err)
		}
		// Most often the table is missing: nothing was ever applied.
		return fmt.Errorf("%w: cannot read the applied migrations (%v): run vetted migrate", ErrSchemaBehind, err)
	}
	var missing []string
	for _, mig := range all.Unapplied() {
		missing = append(missing, mig.Name)
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %d of %d migrations not applied, the first %s: run vetted migrate", ErrSchemaBehind, len(missing), len(all), missing[0])
	}
	return nil
}
