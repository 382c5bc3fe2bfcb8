// Package postgres implements Vetted's store port (stores.Store and every
// repository of stores.Tx) on PostgreSQL with bun. The schema is a set of SQL
// migrations embedded in the binary; invariants the core relies on (unique
// names, one profile per vendor, one assessment per list and vendor, the
// cascades of account and list deletion) are constraints of that schema, and
// driver errors are translated to core errors at this edge. The persistence
// rows (bun models and their converters) are shared with the SQLite store in
// adapters/internal/dbrow; the SQL is this package's own.
//
// Units of work run at READ COMMITTED. Reads (View) run on a pool of their
// own whose sessions are read-only (default_transaction_read_only), with no
// transaction around them: at READ COMMITTED each statement sees its own
// snapshot anyway, so BEGIN and COMMIT only cost two round trips. Where a rule spans rows (the last
// owner of an account), the core serialises on a row lock (Accounts.Lock).
// Serialization failures and deadlocks are retried a few times with jitter.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/gate"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Store is the PostgreSQL implementation of stores.Store. It is safe for
// concurrent use; build one per process with Open and Close it at exit.
type Store struct {
	db          *bun.DB
	reader      *bun.DB   // read-only sessions, for View
	line        gate.Gate // one line for reads and units of work (see View)
	maxConns    int       // of each pool
	maxAttempts int
}

var _ stores.Store = (*Store)(nil)

// Option configures Open.
type Option func(*config)

type config struct {
	maxOpenConns int
	maxAttempts  int
	appName      string
	hooks        []bun.QueryHook
}

// WithMaxOpenConns bounds each connection pool, the one of units of work and
// the one of reads (default 4 x GOMAXPROCS each).
func WithMaxOpenConns(n int) Option { return func(c *config) { c.maxOpenConns = n } }

// WithTxAttempts sets how many times InTx runs a unit of work that failed on
// a serialization failure or deadlock (default 5).
func WithTxAttempts(n int) Option { return func(c *config) { c.maxAttempts = n } }

// WithApplicationName sets application_name, shown in pg_stat_activity.
func WithApplicationName(name string) Option { return func(c *config) { c.appName = name } }

// WithQueryHook adds a bun query hook, e.g. bunotel's, which puts every
// query in an OpenTelemetry span.
func WithQueryHook(h bun.QueryHook) Option { return func(c *config) { c.hooks = append(c.hooks, h) } }

// Open connects to the database at url (postgres://user:pass@host:port/db?sslmode=disable)
// and checks that it answers. It does not migrate; call Migrate for that.
func Open(ctx context.Context, url string, opts ...Option) (*Store, error) {
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
	db := newDB(connector, cfg)
	// The read pool's sessions refuse writes, so a View cannot write by
	// mistake, and its reads need no transaction.
	params := maps.Clone(connector.Config().ConnParams)
	if params == nil {
		params = map[string]any{}
	}
	params["default_transaction_read_only"] = "on"
	reader := newDB(pgdriver.NewConnector(pgdriver.WithDSN(url), pgdriver.WithApplicationName(cfg.appName),
		pgdriver.WithConnParams(params)), cfg)
	s := &Store{db: db, reader: reader, maxConns: cfg.maxOpenConns, maxAttempts: cfg.maxAttempts,
		line: gate.New(cfg.maxOpenConns)}
	if err := s.Ping(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

func newDB(connector *pgdriver.Connector, cfg config) *bun.DB {
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

// SQLDB is the connection pool, for its statistics (the go_sql_* metrics).
func (s *Store) SQLDB() *sql.DB { return s.db.DB }

// Close closes the connection pool.
func (s *Store) Close() error { return errors.Join(s.db.Close(), s.reader.Close()) }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		if unavailable(err) {
			return errUnavailable(err)
		}
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// InTx runs fn in one read-write transaction and commits it when fn returns
// nil. A serialization failure or deadlock, in fn or at commit, runs fn again
// in a fresh transaction, up to the configured number of attempts.
func (s *Store) InTx(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) error {
	return s.run(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted}, fn)
}

// View runs fn's reads on the read-only pool, each statement on its own
// snapshot as at READ COMMITTED, with no transaction around them; a write
// fails. Nothing is retried: reads meet no serialization failure.
//
// A read takes one connection of the pool for all its statements, and waits
// its turn for it (see package gate): under load, a read of five statements
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
func (s *Store) View(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) error {
	if t, ok := ctx.Value(viewKey{s}).(*tx); ok {
		return fn(ctx, t) // a View in a View reads on the connection it has
	}
	inLine := ctx.Value(txKey{s}) != nil // a View in a unit of work has its place
	view := func() error {
		if !inLine {
			if err := s.line.Enter(ctx); err != nil {
				return err
			}
			defer s.line.Leave()
		}
		conn, err := s.reader.Conn(ctx)
		if err != nil {
			return translate(err, "postgres: read")
		}
		defer conn.Close()
		t := &tx{b: bunrepo.Base{DB: conn, Translate: translate, ByName: byName}, readOnly: true}
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

func (s *Store) run(ctx context.Context, opts *sql.TxOptions, fn func(ctx context.Context, tx stores.Tx) error) error {
	var err error
	for attempt := 1; ; attempt++ {
		inLine := ctx.Value(txKey{s}) != nil
		if !inLine {
			if err = s.line.Enter(ctx); err != nil {
				return err
			}
		}
		err = s.db.RunInTx(ctx, opts, func(ctx context.Context, btx bun.Tx) error {
			b := bunrepo.Base{DB: btx, Translate: translate, ByName: byName}
			return fn(context.WithValue(ctx, txKey{s}, true), &tx{b: b, readOnly: opts.ReadOnly})
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

// tx is one unit of work; every repository shares its bun.Tx. In a
// read-only one (View) row locks are neither possible nor needed, since
// nothing can be written: Lock and GetForUpdate just read.
type tx struct {
	b        bunrepo.Base
	readOnly bool
}

var _ stores.Tx = (*tx)(nil)

func (t *tx) Users() accounts.UserRepo { return bunrepo.Users{Base: t.b} }
func (t *tx) Accounts() accounts.AccountRepo {
	return accountRepo{bunrepo.Accounts{Base: t.b}, t.readOnly}
}
func (t *tx) Members() accounts.MemberRepo       { return bunrepo.Members{Base: t.b} }
func (t *tx) Vendors() vendors.VendorRepo        { return vendorRepo{bunrepo.Vendors{Base: t.b}} }
func (t *tx) Profiles() vendors.ProfileRepo      { return bunrepo.Profiles{Base: t.b} }
func (t *tx) Lists() stores.ListRepo             { return listRepo{bunrepo.Lists{Base: t.b, Lock: "UPDATE"}} }
func (t *tx) Quota() stores.QuotaRepo            { return bunrepo.Quota{Base: t.b} }
func (t *tx) Assessments() stores.AssessmentRepo { return bunrepo.Assessments{Base: t.b} }
func (t *tx) Documents() stores.DocumentRepo     { return bunrepo.Documents{Base: t.b} }
func (t *tx) Subscribers() stores.SubscriberRepo {
	return bunrepo.Subscribers{Base: t.b, EmailKey: lowerKey}
}
func (t *tx) Incidents() vendors.IncidentRepo { return incidentRepo{bunrepo.Incidents{Base: t.b}} }
func (t *tx) Deliveries() mailonce.Repo       { return bunrepo.Deliveries{Base: t.b} }
func (t *tx) Runs() vendors.RunRepo           { return runRepo{bunrepo.Runs{Base: t.b}, t.readOnly} }
func (t *tx) Outbox() outbox.Repo             { return outboxRepo{bunrepo.Outbox{Base: t.b}} }
