package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/uptrace/bun/migrate"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/ports/stores"
)

// postgresDialect is PostgreSQL's: see the package doc.
type postgresDialect struct{}

func (postgresDialect) name() Dialect { return Postgres }

// OpenPostgres connects to the database at url (postgres://user:pass@host:port/db?sslmode=disable)
// and checks that it answers. It does not migrate; call Migrate for that.
func OpenPostgres(ctx context.Context, url string, opts ...Option) (*Store, error) {
	cfg := config{maxOpenConns: 4 * runtime.GOMAXPROCS(0), maxAttempts: 5, appName: "vetted"}
	for _, o := range opts {
		o(&cfg)
	}
	// Migrate holds one connection for its advisory lock and needs another.
	cfg.maxOpenConns = max(cfg.maxOpenConns, 2)
	if cfg.maxAttempts < 1 {
		cfg.maxAttempts = 1
	}
	connector := pgdriver.NewConnector(pgdriver.WithDSN(url), pgdriver.WithApplicationName(cfg.appName))
	db := newPostgresDB(connector, cfg)
	// The read pool's sessions refuse writes, so a View cannot write by
	// mistake, and its reads need no transaction.
	params := maps.Clone(connector.Config().ConnParams)
	if params == nil {
		params = map[string]any{}
	}
	params["default_transaction_read_only"] = "on"
	reader := newPostgresDB(pgdriver.NewConnector(pgdriver.WithDSN(url), pgdriver.WithApplicationName(cfg.appName),
		pgdriver.WithConnParams(params)), cfg)
	line := newGate(cfg.maxOpenConns)
	s := &Store{d: postgresDialect{}, db: db, reader: reader, maxConns: cfg.maxOpenConns, maxAttempts: cfg.maxAttempts,
		line: line, readLine: line}
	if err := s.Ping(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func newPostgresDB(connector *pgdriver.Connector, cfg config) *bun.DB {
	sqldb := sql.OpenDB(connector)
	sqldb.SetMaxOpenConns(cfg.maxOpenConns)
	sqldb.SetMaxIdleConns(cfg.maxOpenConns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	db := bun.NewDB(sqldb, pgdialect.New())
	for _, h := range cfg.hooks {
		db = db.WithQueryHook(h)
	}
	return db
}

// ping checks that the database answers.
func (postgresDialect) ping(ctx context.Context, s *Store) error {
	if err := s.db.PingContext(ctx); err != nil {
		if unavailable(err) {
			return errUnavailable(err)
		}
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// inTx runs fn at READ COMMITTED.
func (postgresDialect) inTx(ctx context.Context, s *Store, fn func(ctx context.Context, tx stores.Tx) error) error {
	return pgRun(ctx, s, &sql.TxOptions{Isolation: sql.LevelReadCommitted}, fn)
}

// view runs fn's reads on the read-only pool, each statement on its own
// snapshot as at READ COMMITTED, with no transaction around them; a write
// fails. Nothing is retried: reads meet no serialization failure.
//
// A read takes one connection of the pool for all its statements, and waits
// its turn for it (see gate.go): under load, a read of five statements
// that took a connection five times waited in the pool's random draw five
// times, and reads had a tail ten times the writes'. Reads and units of
// work wait in one line, in the order they came, for as many places as a
// pool has connections: with a line each, the reads (most of the traffic)
// queued behind one another while the writes passed, so a read waited ten
// times as long as a write; in one line they wait alike, and the database
// works on no more statements at once than it has use for.
//
// A read that loses its connection runs once more: its pool's idle
// connections went through the same outage (a restart, a cut), so they are
// closed first and the second run dials afresh. Reads are safe to repeat.
func (d postgresDialect) view(ctx context.Context, s *Store, fn func(ctx context.Context, tx stores.Tx) error) error {
	if t, ok := ctx.Value(viewKey{s}).(*tx); ok {
		return fn(ctx, t) // a View in a View reads on the connection it has
	}
	inLine := ctx.Value(txKey{s}) != nil // a View in a unit of work has its place
	view := func() error {
		if !inLine {
			if err := s.readLine.Enter(ctx); err != nil {
				return err
			}
			defer s.readLine.Leave()
		}
		conn, err := s.reader.Conn(ctx)
		if err != nil {
			return pgTranslate(err, "postgres: read")
		}
		defer conn.Close()
		t := &tx{b: base{DB: conn, Translate: pgTranslate, ByName: pgByName}, d: d, readOnly: true}
		return fn(context.WithValue(ctx, viewKey{s}, t), t)
	}
	err := view()
	if err != nil && (unavailable(err) || errors.Is(err, core.ErrUnavailable)) && ctx.Err() == nil {
		s.reader.SetMaxIdleConns(0) // closes the idle ones
		s.reader.SetMaxIdleConns(s.maxConns)
		err = view()
	}
	if err != nil && unavailable(err) && !errors.Is(err, core.ErrUnavailable) {
		return errUnavailable(err)
	}
	return err
}

// viewKey marks a context inside a View of the store: a View called there
// (a use case reading through another) shares the connection, rather than
// waiting for a second one that every other read may be holding.
type viewKey struct{ s *Store }

// txKey marks a context inside a unit of work of the store: a View called
// there does not queue again for the place the unit of work holds.
type txKey struct{ s *Store }

func pgRun(ctx context.Context, s *Store, opts *sql.TxOptions, fn func(ctx context.Context, tx stores.Tx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		inLine := ctx.Value(txKey{s}) != nil
		if !inLine {
			if err = s.line.Enter(ctx); err != nil {
				return err
			}
		}
		err = s.db.RunInTx(ctx, opts, func(ctx context.Context, btx bun.Tx) error {
			b := base{DB: btx, Translate: pgTranslate, ByName: pgByName}
			return fn(context.WithValue(ctx, txKey{s}, true), &tx{b: b, d: s.d, readOnly: opts.ReadOnly})
		})
		if !inLine {
			s.line.Leave()
		}
		if err == nil || attempt >= s.maxAttempts || !retryable(err) {
			break
		}
		// Exponential backoff with full jitter: 5, 10, 20 ... ms at most.
		d := time.Duration(rand.Int64N(int64(5*time.Millisecond) << (attempt - 1)))
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(d):
		}
	}
	if err != nil && unavailable(err) && !errors.Is(err, core.ErrUnavailable) {
		// Beginning or committing the transaction lost the server.
		return errUnavailable(err)
	}
	return err
}

// retryable reports whether err is a serialization failure or a deadlock,
// after which the whole unit of work may simply run again.
func retryable(err error) bool {
	var pgErr pgdriver.Error
	if !errors.As(err, &pgErr) {
		return false
	}
	switch pgErr.Field('C') {
	case "40001", "40P01":
		return true
	}
	return false
}

// pgTranslate turns a driver error into a core error that says what was being
// done. Constraint violations never leave the package as driver errors: a
// unique violation is a conflict, a missing referenced row is not found, a
// failed check or a malformed value is invalid, and a lost or refused
// connection is unavailable. Serialization failures and deadlocks keep the
// driver error so that InTx can recognise and retry them; any other error
// is an infrastructure failure and is wrapped as is. The driver's own text
// (constraint names, SQL) stays in the cause, for logs only.
func pgTranslate(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	what := fmt.Sprintf(format, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Cause(core.ErrNotFound, err, "%s: not found", what)
	}
	if unavailable(err) {
		return errUnavailable(err)
	}
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		switch pgErr.Field('C') {
		case "23505": // unique_violation
			return core.Cause(core.ErrConflict, err, "%s: already exists", what)
		case "23503": // foreign_key_violation
			return core.Cause(core.ErrNotFound, err, "%s: a record it refers to does not exist", what)
		case "23514", "23502", "22P02", "22001", "22007", "22008", "22003": // check, not null, bad text, too long, bad time, range
			return core.Cause(core.ErrInvalid, err, "%s: a value was refused by the database", what)
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// errUnavailable is the error of a database that cannot be reached.
func errUnavailable(err error) error {
	return core.Unavailable(err, "the database is unavailable; try again shortly")
}

// unavailable reports whether err means the server could not be reached or
// the connection was lost: the request may succeed later, so it is a 503,
// not a 500.
func unavailable(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && !errors.Is(err, context.Canceled) {
		return true
	}
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		code := pgErr.Field('C')
		// 08: connection exception; 57P01-03: shutting down or starting
		// up; 53300: too many connections.
		return strings.HasPrefix(code, "08") || code == "57P01" || code == "57P02" || code == "57P03" || code == "53300"
	}
	return false
}

// migrateLockKey names the advisory lock that serialises Migrate across
// processes (an arbitrary constant: "vetted" in ASCII).
const migrateLockKey int64 = 0x766574746564

func (postgresDialect) newMigrator(s *Store) (*migrate.Migrator, error) {
	return migrator(s.db, migrationFiles, "migrations/postgres")
}

// migrate is safe from several processes at once: a session-level advisory
// lock makes a second migrator wait for the first instead of failing, and
// bun's migration lock row guards against migrators that do not take it.
func (postgresDialect) migrate(ctx context.Context, s *Store, m *migrate.Migrator) error {
	// The advisory lock belongs to one session, so hold one connection for
	// the whole run; the migrator itself uses other connections of the pool.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", migrateLockKey); err != nil {
		return fmt.Errorf("migrate: take advisory lock: %w", err)
	}
	defer func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", migrateLockKey)
	}()

	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("migrate: init: %w", err)
	}
	if err := m.Lock(ctx); err != nil {
		// Holding the advisory lock, no live migrator of ours can hold
		// bun's lock: the row was left by one that died. Take it over.
		if uerr := m.Unlock(ctx); uerr != nil {
			return errors.Join(err, uerr)
		}
		if err := m.Lock(ctx); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	defer func() { _ = m.Unlock(context.WithoutCancel(ctx)) }()

	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
