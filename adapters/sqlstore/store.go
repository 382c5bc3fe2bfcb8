// Package sqlstore implements Vetted's store port (stores.Store and every
// repository of stores.Tx) on PostgreSQL and on SQLite, through bun. The
// repositories and the persistence rows (bun models and their converters)
// are written once; what differs between the two databases lives in the
// dialect files: dialect_postgres.go and dialect_sqlite.go (connections,
// units of work and their retries, the translation of driver errors, the
// migrations' locking), repos_postgres.go and repos_sqlite.go (the SQL that
// differs: upserts, row locks, names unique case-insensitively), and
// changes_postgres.go (LISTEN/NOTIFY). The schema of each is a set of
// migrations embedded in the binary (migrations/postgres, migrations/sqlite
// and SQLite's Go migrations, the files named 2026..._*.go); invariants the
// core relies on (unique names, one profile per vendor, one assessment per
// list and vendor, the cascades of account and list deletion) are
// constraints of that schema, and driver errors are translated to core
// errors at this edge.
//
// OpenPostgres connects to a PostgreSQL server. Units of work run at READ
// COMMITTED. Reads (View) run on a pool of their own whose sessions are
// read-only (default_transaction_read_only), with no transaction around
// them: at READ COMMITTED each statement sees its own snapshot anyway, so
// BEGIN and COMMIT only cost two round trips. Where a rule spans rows (the
// last owner of an account), the core serialises on a row lock
// (Accounts.Lock). Serialization failures and deadlocks are retried a few
// times with jitter.
//
// OpenSQLite opens one SQLite file, through bun's sqlitedialect and the
// pure-Go driver modernc.org/sqlite (no cgo). It is the embedded default: a
// laptop keeps its accounts, lists, reviews and outbox across restarts
// without a database server. SQLite allows one writer at a time, so the
// store holds exactly one writer connection and every InTx runs on it in a
// transaction begun with BEGIN IMMEDIATE. Units of work of this process
// take turns waiting for that connection rather than failing, a unit that
// reads before it writes never has to upgrade its lock (the upgrade is what
// answers SQLITE_BUSY), and another process writing the same file is
// waited for up to the busy timeout; a lock still held after that is
// core.ErrUnavailable, never the driver's "database is locked". View runs
// on a separate pool of read-only connections: in WAL mode readers see one
// consistent snapshot and neither block the writer nor wait for it.
// Because writers are serialised, the row locks PostgreSQL takes
// (Accounts.Lock, Runs.GetForUpdate, the outbox's SKIP LOCKED) need no SQL
// there. Names unique case-insensitively carry a key column computed in Go,
// and times are stored as fixed-width UTC text (see the first migration's
// header).
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/attestations"
	"github.com/vetted-dev/vetted/core/contracts"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/records"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Dialect names the database of a store.
type Dialect string

// The dialects.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// Store is the SQL implementation of stores.Store. It is safe for concurrent
// use; build one per process (and, on SQLite, per database file) with
// OpenPostgres or OpenSQLite and Close it at exit.
type Store struct {
	d      dialect
	db     *bun.DB // units of work (SQLite: its one writer connection)
	reader *bun.DB // read-only sessions, for View
	// line is the line to db's connections (see gate.go):
	// on PostgreSQL one line for reads and units of work (see View), so
	// readLine is line; on SQLite the writer's, and readLine the reader's.
	line, readLine gate
	maxConns       int // PostgreSQL: of each pool
	maxAttempts    int // PostgreSQL: of a unit of work (see WithTxAttempts)
}

var _ stores.Store = (*Store)(nil)

// dialect is what differs between the databases: a store's units of work,
// its migrations and the repositories whose SQL is its own.
type dialect interface {
	name() Dialect
	ping(ctx context.Context, s *Store) error
	inTx(ctx context.Context, s *Store, fn func(ctx context.Context, tx stores.Tx) error) error
	view(ctx context.Context, s *Store, fn func(ctx context.Context, tx stores.Tx) error) error
	newMigrator(s *Store) (*migrate.Migrator, error)
	migrate(ctx context.Context, s *Store, m *migrate.Migrator) error

	// emailKey is the expression of the unique index on e-mails.
	emailKey(column string) string
	accounts(t *tx) accounts.AccountRepo
	vendors(t *tx) vendors.VendorRepo
	lists(t *tx) lists.ListRepo
	incidents(t *tx) vendors.IncidentRepo
	runs(t *tx) vendors.RunRepo
	outbox(t *tx) outbox.Repo
}

// Option configures OpenPostgres and OpenSQLite; each says which dialect
// it is for, and the other ignores it.
type Option func(*config)

type config struct {
	maxOpenConns int // PostgreSQL
	maxAttempts  int // PostgreSQL
	appName      string
	readConns    int           // SQLite
	busyTimeout  time.Duration // SQLite
	hooks        []bun.QueryHook
}

// WithMaxOpenConns bounds each PostgreSQL connection pool, the one of units
// of work and the one of reads (default 4 x GOMAXPROCS each).
func WithMaxOpenConns(n int) Option { return func(c *config) { c.maxOpenConns = n } }

// WithTxAttempts sets how many times InTx runs a unit of work that failed on
// a serialization failure or deadlock (PostgreSQL; default 5).
func WithTxAttempts(n int) Option { return func(c *config) { c.maxAttempts = n } }

// WithApplicationName sets application_name, shown in pg_stat_activity
// (PostgreSQL).
func WithApplicationName(name string) Option { return func(c *config) { c.appName = name } }

// WithQueryHook adds a bun query hook, e.g. bunotel's, which puts every
// query in an OpenTelemetry span.
func WithQueryHook(h bun.QueryHook) Option { return func(c *config) { c.hooks = append(c.hooks, h) } }

// WithReadConns bounds the read-only pool behind View on SQLite (default
// 2 x GOMAXPROCS).
func WithReadConns(n int) Option { return func(c *config) { c.readConns = n } }

// WithBusyTimeout sets how long an SQLite statement waits for a lock
// another process holds on the file before giving up (default 10s).
func WithBusyTimeout(d time.Duration) Option { return func(c *config) { c.busyTimeout = d } }

// Dialect is the store's database.
func (s *Store) Dialect() Dialect { return s.d.name() }

// SQLDB is the pool of units of work (on SQLite its one writer
// connection), for its statistics (the go_sql_* metrics).
func (s *Store) SQLDB() *sql.DB { return s.db.DB }

// SQLDBs returns the connection pools, writer first, for pool metrics.
func (s *Store) SQLDBs() (writer, reader *sql.DB) { return s.db.DB, s.reader.DB }

// Close closes both pools; on SQLite the last connection to close (the
// writer's) checkpoints the log into the database file.
func (s *Store) Close() error { return errors.Join(s.reader.Close(), s.db.Close()) }

// Ping checks that the database answers (SQLite: that the file can be read).
func (s *Store) Ping(ctx context.Context) error { return s.d.ping(ctx, s) }

// InTx runs fn in one read-write transaction and commits it when fn
// returns nil. On PostgreSQL a serialization failure or deadlock, in fn or
// at commit, runs fn again in a fresh transaction, up to the configured
// number of attempts. On SQLite the transaction (BEGIN IMMEDIATE) runs on
// the writer connection, waiting for it while another unit of work of this
// process holds it, and fn runs once: with writers serialised there are no
// serialization failures to retry.
func (s *Store) InTx(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) error {
	return s.d.inTx(ctx, s, fn)
}

// View runs fn's reads on the read-only pool; a write fails. See the
// dialect's view (dialect_postgres.go, dialect_sqlite.go) for how.
func (s *Store) View(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) error {
	return s.d.view(ctx, s, fn)
}

// tx is one unit of work; every repository shares its bun.Tx (or, in a
// PostgreSQL View, its connection). In a read-only one (View) row locks are
// neither possible nor needed, since nothing can be written: Lock and
// GetForUpdate just read.
type tx struct {
	b        base
	d        dialect
	readOnly bool
}

var _ stores.Tx = (*tx)(nil)

func (t *tx) Users() accounts.UserRepo                { return userRepo{base: t.b} }
func (t *tx) Accounts() accounts.AccountRepo          { return t.d.accounts(t) }
func (t *tx) Members() accounts.MemberRepo            { return memberRepo{base: t.b} }
func (t *tx) Vendors() vendors.VendorRepo             { return t.d.vendors(t) }
func (t *tx) Profiles() vendors.ProfileRepo           { return profileRepo{base: t.b} }
func (t *tx) Lists() lists.ListRepo                   { return t.d.lists(t) }
func (t *tx) Quota() lists.QuotaRepo                  { return quotaRepo{base: t.b} }
func (t *tx) Assessments() assessments.AssessmentRepo { return assessmentRepo{base: t.b} }
func (t *tx) Documents() assessments.DocumentRepo     { return documentRepo{base: t.b} }
func (t *tx) Subscribers() alerts.SubscriberRepo {
	return subscriberRepo{base: t.b, EmailKey: t.d.emailKey}
}
func (t *tx) Incidents() vendors.IncidentRepo              { return t.d.incidents(t) }
func (t *tx) Deliveries() mailonce.Repo                    { return deliveryRepo{base: t.b} }
func (t *tx) Runs() vendors.RunRepo                        { return t.d.runs(t) }
func (t *tx) Outbox() outbox.Repo                          { return t.d.outbox(t) }
func (t *tx) Reminders() assessments.ReminderRepo          { return reminderRepo{base: t.b} }
func (t *tx) ReviewPolicies() assessments.ReviewPolicyRepo { return reviewPolicyRepo{base: t.b} }
func (t *tx) CalendarKeys() assessments.CalendarKeyRepo    { return calendarKeyRepo{base: t.b} }
func (t *tx) Webhooks() webhooks.WebhookRepo               { return webhookRepo{base: t.b} }
func (t *tx) Contracts() contracts.ContractRepo            { return contractRepo{base: t.b} }
func (t *tx) Sources() incidents.SourceStateRepo           { return sourceStateRepo{base: t.b} }
func (t *tx) Possible() incidents.PossibleRepo             { return possibleRepo{base: t.b} }
func (t *tx) Candidates() incidents.CandidateRepo          { return candidateRepo{base: t.b} }
func (t *tx) Records() records.RecordRepo                  { return recordRepo{base: t.b} }

// Attestations is the attestations area's repository.
func (t *tx) Attestations() attestations.AttestationRepo { return attestationRepo{base: t.b} }
