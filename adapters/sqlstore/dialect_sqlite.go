package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"github.com/uptrace/bun/migrate"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/ports/stores"
	"modernc.org/sqlite" // registers the "sqlite" database/sql driver
	sqlite3 "modernc.org/sqlite/lib"
)

// sqliteDialect is SQLite's: see the package doc.
type sqliteDialect struct{}

func (sqliteDialect) name() Dialect { return SQLite }

// OpenSQLite opens the database file at path, creating it if it does not
// exist (its directory must), in WAL mode with foreign keys on. It does not
// migrate; call Migrate for that.
func OpenSQLite(ctx context.Context, path string, opts ...Option) (*Store, error) {
	cfg := config{readConns: 2 * runtime.GOMAXPROCS(0), busyTimeout: 10 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.readConns = max(cfg.readConns, 1)
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	// The writer first: it creates the file and switches it to WAL, which
	// the read-only connections cannot do.
	w, err := sql.Open("sqlite", sqliteDSN(abs, true, cfg.busyTimeout))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	w.SetConnMaxLifetime(0)
	r, err := sql.Open("sqlite", sqliteDSN(abs, false, cfg.busyTimeout))
	if err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	r.SetMaxOpenConns(cfg.readConns)
	r.SetMaxIdleConns(cfg.readConns)
	r.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{d: sqliteDialect{}, db: bun.NewDB(w, newSQLiteBunDialect()), reader: bun.NewDB(r, newSQLiteBunDialect()),
		line: newGate(1), readLine: newGate(cfg.readConns)}
	for _, h := range cfg.hooks {
		s.db, s.reader = s.db.WithQueryHook(h), s.reader.WithQueryHook(h)
	}
	if err := s.db.PingContext(ctx); err != nil {
		_ = s.Close()
		return nil, sqliteTranslate(err, "sqlite: open %s", abs)
	}
	if err := s.Ping(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// sqliteDSN is the driver's name for the file: a file: URI with the pragmas every
// connection runs when it opens.
func sqliteDSN(path string, write bool, busy time.Duration) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busy.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	if write {
		q.Add("_pragma", "journal_mode(WAL)")
		// FULL syncs the log at every commit: a unit of work that returned
		// is on disk even if the machine loses power right after.
		q.Add("_pragma", "synchronous(FULL)")
		q.Set("_txlock", "immediate")
	} else {
		q.Set("_query_only", "1")
		// Half a MiB of page cache per reader, not SQLite's 2 MiB: in WAL
		// mode a reader drops its whole cache whenever any connection has
		// committed since its last read, so with writes going on a large
		// cache is seldom warm, while each of the pool's connections fills
		// its own (64 clients reading a list of 5,000 whole grew the
		// server's RSS by 22-27 MB with 2 MiB, 17 MB with this; the read
		// benchmarks' throughput was the same; bench/read.sh).
		q.Add("_pragma", "cache_size(-512)")
	}
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: q.Encode()}
	return u.String()
}

// ping checks that the file can be read.
func (sqliteDialect) ping(ctx context.Context, s *Store) error {
	var one int
	if err := s.reader.NewRaw("SELECT 1").Scan(ctx, &one); err != nil {
		return sqliteTranslate(err, "sqlite: ping")
	}
	return nil
}

// inTx runs fn in one write transaction (BEGIN IMMEDIATE) on the writer
// connection.
func (sqliteDialect) inTx(ctx context.Context, s *Store, fn func(ctx context.Context, tx stores.Tx) error) error {
	return sqliteRun(ctx, s, s.db, s.line, nil, fn)
}

// view runs fn in a read transaction on the read-only pool: every read in
// it sees the same snapshot, and writes fail.
func (sqliteDialect) view(ctx context.Context, s *Store, fn func(ctx context.Context, tx stores.Tx) error) error {
	return sqliteRun(ctx, s, s.reader, s.readLine, &sql.TxOptions{ReadOnly: true}, fn)
}

func sqliteRun(ctx context.Context, s *Store, db *bun.DB, g gate, opts *sql.TxOptions, fn func(ctx context.Context, tx stores.Tx) error) error {
	// Callers take the pool's connections in the order they came (see
	// gate.go), not in database/sql's random draw.
	if err := g.Enter(ctx); err != nil {
		return err
	}
	defer g.Leave()
	btx, err := db.BeginTx(ctx, opts)
	if err != nil {
		return sqliteTranslate(err, "sqlite: begin")
	}
	committed := false
	defer func() {
		if !committed {
			// Reached on error and on panic, which goes on after this.
			_ = btx.Rollback()
		}
	}()
	t := &tx{b: base{DB: btx, Translate: sqliteTranslate, ByName: sqliteByName, NameKeys: true}, d: s.d, readOnly: opts != nil && opts.ReadOnly}
	if err := fn(ctx, t); err != nil {
		return err
	}
	if err := btx.Commit(); err != nil {
		return sqliteTranslate(err, "sqlite: commit")
	}
	committed = true
	return nil
}

// sqliteTranslate turns a driver error into a core error that says what was
// being done (the driver's text stays in the cause, for logs), as
// pgTranslate does: a unique violation is a
// conflict, a missing referenced row is not found, a failed check or a value
// of the wrong type is invalid. A lock another process held past the busy
// timeout (SQLITE_BUSY, SQLITE_LOCKED) is core.ErrUnavailable, so a client
// is told to try again (503) and never sees "database is locked". Any other
// error is an infrastructure failure and is wrapped as is.
func sqliteTranslate(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	what := fmt.Sprintf(format, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Cause(core.ErrNotFound, err, "%s: not found", what)
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("%s: %w", what, err)
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return core.Cause(core.ErrConflict, err, "%s: already exists", what)
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return core.Cause(core.ErrNotFound, err, "%s: a record it refers to does not exist", what)
	case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL, sqlite3.SQLITE_CONSTRAINT_DATATYPE,
		sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_TOOBIG:
		return core.Cause(core.ErrInvalid, err, "%s: a value was refused by the database", what)
	}
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return core.Unavailable(err, "%s: the database is busy; try again shortly", what)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// sqliteBunDialect is bun's SQLite dialect with one change: times are written as
// fixed-width UTC text to the nanosecond (bun trims trailing zeros and keeps
// microseconds), so that stored times compare as text in time order and
// read back exactly as written.
type sqliteBunDialect struct{ *sqlitedialect.Dialect }

// sqliteTimeFormat is how the store writes times.
const sqliteTimeFormat = "2006-01-02T15:04:05.000000000Z"

func newSQLiteBunDialect() sqliteBunDialect { return sqliteBunDialect{sqlitedialect.New()} }

// AppendTime writes t as sqliteTimeFormat, quoted.
func (sqliteBunDialect) AppendTime(b []byte, t time.Time) []byte {
	b = append(b, '\'')
	b = t.UTC().AppendFormat(b, sqliteTimeFormat)
	return append(b, '\'')
}

// staleLock is how long Migrate waits for another migrator's lock before it
// takes it over. SQLite migrations take milliseconds, so a lock held that
// long was left by a migrator that died.
const staleLock = 10 * time.Second

func (sqliteDialect) newMigrator(s *Store) (*migrate.Migrator, error) {
	return migrator(s.db, migrationFiles, "migrations/sqlite", registerReviewLifecycle, registerDocumentDigest, registerProfileListColumns, registerListVersion, registerRatingCoverage, registerIncidentMerge)
}

// migrate runs each migration in a write transaction of its own. Two
// processes starting on one file at once take turns on bun's migration
// lock row.
func (sqliteDialect) migrate(ctx context.Context, s *Store, m *migrate.Migrator) error {
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("migrate: init: %w", sqliteTranslate(err, "create migration tables"))
	}
	if err := lockMigrations(ctx, m); err != nil {
		return err
	}
	defer func() { _ = m.Unlock(context.WithoutCancel(ctx)) }()
	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// lockMigrations takes bun's migration lock, waiting for a live migrator to finish
// and taking over the lock of a dead one.
func lockMigrations(ctx context.Context, m *migrate.Migrator) error {
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
