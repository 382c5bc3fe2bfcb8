// Package sqlite implements Vetted's store port (stores.Store and every
// repository of stores.Tx) on one SQLite file, through bun's sqlitedialect
// and the pure-Go driver modernc.org/sqlite (no cgo). It is the embedded
// default: a laptop keeps its accounts, lists, reviews and outbox across
// restarts without a database server.
//
// SQLite allows one writer at a time, so the store holds exactly one writer
// connection and every InTx runs on it in a transaction begun with BEGIN
// IMMEDIATE. Units of work of this process take turns waiting for that
// connection rather than failing, a unit that reads before it writes never
// has to upgrade its lock (the upgrade is what answers SQLITE_BUSY), and
// another process writing the same file is waited for up to the busy
// timeout; a lock still held after that is core.ErrUnavailable, never the
// driver's "database is locked". View runs on a separate pool of read-only
// connections: in WAL mode readers see one consistent snapshot and neither
// block the writer nor wait for it.
//
// Because writers are serialised, the row locks other stores take
// (Accounts.Lock, Runs.GetForUpdate, the outbox's SKIP LOCKED) need no SQL
// here. The schema is embedded migrations; names unique case-insensitively
// carry a key column computed in Go, and times are stored as fixed-width UTC
// text (see the migration's header).
package sqlite

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
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/gate"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Store is the SQLite implementation of stores.Store. It is safe for
// concurrent use; build one per database file and process with Open and
// Close it at exit.
type Store struct {
	writer *bun.DB // one connection: SQLite has one writer at a time
	reader *bun.DB // read-only connections for View
	gates  map[*bun.DB]gate.Gate
}

var _ stores.Store = (*Store)(nil)

// Option configures Open.
type Option func(*config)

type config struct {
	readConns   int
	busyTimeout time.Duration
}

// WithReadConns bounds the read-only pool behind View (default 2 x GOMAXPROCS).
func WithReadConns(n int) Option { return func(c *config) { c.readConns = n } }

// WithBusyTimeout sets how long a statement waits for a lock another
// process holds on the file before giving up (default 10s).
func WithBusyTimeout(d time.Duration) Option { return func(c *config) { c.busyTimeout = d } }

// Open opens the database file at path, creating it if it does not exist
// (its directory must), in WAL mode with foreign keys on. It does not
// migrate; call Migrate for that.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
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
	w, err := sql.Open("sqlite", dsn(abs, true, cfg.busyTimeout))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxIdleTime(0)
	w.SetConnMaxLifetime(0)
	r, err := sql.Open("sqlite", dsn(abs, false, cfg.busyTimeout))
	if err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", abs, err)
	}
	r.SetMaxOpenConns(cfg.readConns)
	r.SetMaxIdleConns(cfg.readConns)
	r.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{writer: bun.NewDB(w, newDialect()), reader: bun.NewDB(r, newDialect()),
		gates: map[*bun.DB]gate.Gate{}}
	s.gates[s.writer], s.gates[s.reader] = gate.New(1), gate.New(cfg.readConns)
	if err := s.writer.PingContext(ctx); err != nil {
		_ = s.Close()
		return nil, translate(err, "sqlite: open %s", abs)
	}
	if err := s.Ping(ctx); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// dsn is the driver's name for the file: a file: URI with the pragmas every
// connection runs when it opens.
func dsn(path string, write bool, busy time.Duration) string {
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

// Close closes both pools; the last connection to close checkpoints the log
// into the database file.
func (s *Store) Close() error {
	return errors.Join(s.reader.Close(), s.writer.Close())
}

// SQLDBs returns the connection pools, writer first, for pool metrics.
func (s *Store) SQLDBs() (writer, reader *sql.DB) { return s.writer.DB, s.reader.DB }

// Ping checks that the file can be read.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.reader.NewRaw("SELECT 1").Scan(ctx, &one); err != nil {
		return translate(err, "sqlite: ping")
	}
	return nil
}

// InTx runs fn in one write transaction (BEGIN IMMEDIATE) on the writer
// connection, waiting for it while another unit of work of this process
// holds it, and commits when fn returns nil. fn runs once: with writers
// serialised there are no serialization failures to retry.
func (s *Store) InTx(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) error {
	return s.run(ctx, s.writer, nil, fn)
}

// View runs fn in a read transaction on the read-only pool: every read in
// it sees the same snapshot, and writes fail.
func (s *Store) View(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) error {
	return s.run(ctx, s.reader, &sql.TxOptions{ReadOnly: true}, fn)
}

func (s *Store) run(ctx context.Context, db *bun.DB, opts *sql.TxOptions, fn func(ctx context.Context, tx stores.Tx) error) error {
	// Callers take the pool's connections in the order they came (see
	// package gate), not in database/sql's random draw.
	g := s.gates[db]
	if err := g.Enter(ctx); err != nil {
		return err
	}
	defer g.Leave()
	btx, err := db.BeginTx(ctx, opts)
	if err != nil {
		return translate(err, "sqlite: begin")
	}
	committed := false
	defer func() {
		if !committed {
			// Reached on error and on panic, which goes on after this.
			_ = btx.Rollback()
		}
	}()
	if err := fn(ctx, &tx{b: bunrepo.Base{DB: btx, Translate: translate, ByName: byName}}); err != nil {
		return err
	}
	if err := btx.Commit(); err != nil {
		return translate(err, "sqlite: commit")
	}
	committed = true
	return nil
}

// tx is one unit of work; every repository shares its bun.Tx.
type tx struct{ b bunrepo.Base }

var _ stores.Tx = (*tx)(nil)

// byName sorts a text column by name: SQLite's default collation, BINARY,
// compares bytes, which is the byte order Vetted sorts names in.
func byName(column string) string { return column }

// emailKey is the column itself: e-mails are stored lower-case, folded in Go.
func emailKey(column string) string { return column }

func (t *tx) Users() accounts.UserRepo           { return bunrepo.Users{Base: t.b} }
func (t *tx) Accounts() accounts.AccountRepo     { return accountRepo{bunrepo.Accounts{Base: t.b}} }
func (t *tx) Members() accounts.MemberRepo       { return bunrepo.Members{Base: t.b} }
func (t *tx) Vendors() vendors.VendorRepo        { return vendorRepo{bunrepo.Vendors{Base: t.b}} }
func (t *tx) Profiles() vendors.ProfileRepo      { return bunrepo.Profiles{Base: t.b} }
func (t *tx) Lists() stores.ListRepo             { return listRepo{bunrepo.Lists{Base: t.b}} }
func (t *tx) Quota() stores.QuotaRepo            { return bunrepo.Quota{Base: t.b} }
func (t *tx) Assessments() stores.AssessmentRepo { return bunrepo.Assessments{Base: t.b} }
func (t *tx) Documents() stores.DocumentRepo     { return bunrepo.Documents{Base: t.b} }
func (t *tx) Subscribers() stores.SubscriberRepo {
	return bunrepo.Subscribers{Base: t.b, EmailKey: emailKey}
}
func (t *tx) Incidents() vendors.IncidentRepo { return incidentRepo{bunrepo.Incidents{Base: t.b}} }
func (t *tx) Deliveries() mailonce.Repo       { return bunrepo.Deliveries{Base: t.b} }
func (t *tx) Runs() vendors.RunRepo           { return runRepo{bunrepo.Runs{Base: t.b}} }
func (t *tx) Outbox() outbox.Repo             { return outboxRepo{bunrepo.Outbox{Base: t.b}} }

// dialect is bun's SQLite dialect with one change: times are written as
// fixed-width UTC text to the nanosecond (bun trims trailing zeros and keeps
// microseconds), so that stored times compare as text in time order and
// read back exactly as written.
type dialect struct{ *sqlitedialect.Dialect }

// TimeFormat is how the store writes times.
const TimeFormat = "2006-01-02T15:04:05.000000000Z"

func newDialect() dialect { return dialect{sqlitedialect.New()} }

// AppendTime writes t as TimeFormat, quoted.
func (dialect) AppendTime(b []byte, t time.Time) []byte {
	b = append(b, '\'')
	b = t.UTC().AppendFormat(b, TimeFormat)
	return append(b, '\'')
}
