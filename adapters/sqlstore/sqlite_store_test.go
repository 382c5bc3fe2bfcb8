package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/testenv"
	"github.com/vetted-dev/vetted/ports/stores"
)

func mustOpen(t testing.TB, path string, opts ...sqlstore.Option) *sqlstore.Store {
	t.Helper()
	s, err := sqlstore.OpenSQLite(context.Background(), path, opts...)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return s
}

func write(t testing.TB, s stores.Store, fn func(ctx context.Context, tx stores.Tx) error) {
	t.Helper()
	if err := s.InTx(context.Background(), fn); err != nil {
		t.Fatalf("InTx: %v", err)
	}
}

func org(t testing.TB, name string) accounts.Account {
	t.Helper()
	a, err := accounts.NewAccount(newID(), name, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// rawDB opens the file the way another program would, to look at what the
// store wrote.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// TestTimes checks that times are stored in one fixed-width UTC format, so
// that they sort as text in time order, and read back to the nanosecond.
func TestTimes(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "vetted.db")
	s := mustOpen(t, path)
	paris := time.FixedZone("CET", 3600)
	times := []time.Time{
		time.Date(2026, 3, 1, 13, 0, 0, 0, paris),            // 12:00 UTC, no fraction
		time.Date(2026, 3, 1, 12, 0, 0, 5, time.UTC),         // a few nanoseconds later
		time.Date(2026, 3, 1, 12, 0, 0, 500000000, time.UTC), // half a second later
		time.Date(2026, 3, 1, 12, 0, 1, 0, time.UTC),
	}
	ids := make([]uuid.UUID, len(times))
	for i, at := range times {
		u := accounts.User{ID: newID(), Email: fmt.Sprintf("u%d@example.com", i), CreatedAt: at}
		ids[i] = u.ID
		write(t, s, func(ctx context.Context, tx stores.Tx) error { return tx.Users().Save(ctx, u) })
	}
	for i, id := range ids {
		var got accounts.User
		if err := s.View(context.Background(), func(ctx context.Context, tx stores.Tx) (err error) {
			got, err = tx.Users().Get(ctx, id)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if !got.CreatedAt.Equal(times[i]) || got.CreatedAt.Location() != time.UTC {
			t.Errorf("user %d: created_at %v, want %v in UTC", i, got.CreatedAt, times[i])
		}
	}
	rows, err := rawDB(t, path).Query("SELECT created_at FROM users ORDER BY created_at")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var stored []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		stored = append(stored, s)
	}
	want := []string{"2026-03-01T12:00:00.000000000Z", "2026-03-01T12:00:00.000000005Z",
		"2026-03-01T12:00:00.500000000Z", "2026-03-01T12:00:01.000000000Z"}
	if strings.Join(stored, " ") != strings.Join(want, " ") {
		t.Fatalf("stored times sorted as text:\n got %q\nwant %q", stored, want)
	}
}

// TestReopen checks that what one store committed is there for the next
// one on the same file, and that migrating again changes nothing.
func TestReopen(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "vetted.db")
	a := org(t, "Acme")
	first, err := sqlstore.OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	write(t, first, func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Create(ctx, a) })
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second := mustOpen(t, path)
	if err := second.Migrate(context.Background()); err != nil {
		t.Fatalf("migrate again: %v", err)
	}
	var got accounts.Account
	if err := second.View(context.Background(), func(ctx context.Context, tx stores.Tx) (err error) {
		got, err = tx.Accounts().Get(ctx, a.ID)
		return err
	}); err != nil {
		t.Fatalf("account after reopening: %v", err)
	}
	if got.Name != "Acme" {
		t.Fatalf("name %q", got.Name)
	}
}

// TestBusyIsUnavailable holds the file's write lock from another connection
// (another process, as far as SQLite can tell) past the busy timeout: the
// unit of work fails with core.ErrUnavailable, and the driver's "database is
// locked" is not in the error a client could be shown.
func TestBusyIsUnavailable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "vetted.db")
	s := mustOpen(t, path, sqlstore.WithBusyTimeout(50*time.Millisecond))
	other := rawDB(t, path)
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	err = s.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		return tx.Accounts().Create(ctx, org(t, "Acme"))
	})
	if !errors.Is(err, core.ErrUnavailable) {
		t.Fatalf("got %v, want an error wrapping core.ErrUnavailable", err)
	}
	// What a client is told (the detail) never carries the driver's words;
	// the cause keeps them for the log.
	ce, ok := core.AsError(err)
	if !ok || strings.Contains(ce.Detail, "database is locked") || strings.Contains(ce.Detail, "SQLITE_BUSY") {
		t.Fatalf("the driver's text leaks to the client: %+v", ce)
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	write(t, s, func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Create(ctx, org(t, "Acme")) })
}

// TestTwoStoresOnOneFile runs read-then-write units of work from two stores
// on one file at once, as two processes would. Each begins with BEGIN
// IMMEDIATE and waits for the other within the busy timeout; with deferred
// transactions the upgrade from reading to writing fails with SQLITE_BUSY.
func TestTwoStoresOnOneFile(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "vetted.db")
	sts := []*sqlstore.Store{mustOpen(t, path), mustOpen(t, path)}
	now := time.Now().UTC()
	r := vendors.Run{ID: newID(), Kind: vendors.RunEnrich, Sections: []string{}, Jobs: []vendors.RunJob{}, CreatedAt: now, UpdatedAt: now}
	write(t, sts[0], func(ctx context.Context, tx stores.Tx) error { return tx.Runs().Create(ctx, r) })
	const perStore = 10
	var wg sync.WaitGroup
	errs := make(chan error, 2*perStore)
	for _, s := range sts {
		for i := range perStore {
			wg.Go(func() {
				errs <- s.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
					cur, err := tx.Runs().GetForUpdate(ctx, r.ID)
					if err != nil {
						return err
					}
					cur.Jobs = append(cur.Jobs, vendors.RunJob{ID: newID(), VendorID: newID(), VendorName: fmt.Sprint("Vendor ", i), Status: vendors.RunQueued})
					return tx.Runs().Save(ctx, cur)
				})
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var got vendors.Run
	if err := sts[1].View(context.Background(), func(ctx context.Context, tx stores.Tx) (err error) {
		got, err = tx.Runs().Get(ctx, r.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(got.Jobs) != 2*perStore {
		t.Fatalf("%d jobs, want %d: an update was lost", len(got.Jobs), 2*perStore)
	}
}

// TestConstraintsSQLite checks that the schema refuses what the ports promise to
// refuse, as core errors and never as driver errors, where the conformance
// suite does not already.
func TestConstraintsSQLite(t *testing.T) {
	t.Parallel()
	s := mustOpen(t, filepath.Join(t.TempDir(), "vetted.db"))
	a := org(t, "Acme")
	write(t, s, func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Create(ctx, a) })
	now := time.Now()
	tests := []struct {
		name string
		op   func(ctx context.Context, tx stores.Tx) error
		want error
	}{
		{"member of a missing account", func(ctx context.Context, tx stores.Tx) error {
			u := accounts.User{ID: newID(), Email: "ann@example.com", CreatedAt: now}
			if err := tx.Users().Save(ctx, u); err != nil {
				return err
			}
			return tx.Members().Put(ctx, []accounts.Member{{AccountID: newID(), UserID: u.ID, Role: accounts.RoleOwner, CreatedAt: now}})
		}, core.ErrNotFound},
		{"profile of a missing vendor", func(ctx context.Context, tx stores.Tx) error {
			return tx.Profiles().Save(ctx, vendors.NewProfile(newID(), newID(), now))
		}, core.ErrNotFound},
		{"audit event of a missing assessment", func(ctx context.Context, tx stores.Tx) error {
			return tx.Assessments().AppendEvents(ctx, []assessments.AuditEvent{{ID: newID(), AssessmentID: newID(), AccountID: a.ID, CreatedAt: now}})
		}, core.ErrNotFound},
		{"document with a status outside the schema", func(ctx context.Context, tx stores.Tx) error {
			d, err := assessments.NewDocument(newID(), a.ID, newID(), "a.pdf", "application/pdf", "ann", now)
			if err != nil {
				return err
			}
			d.Status = "lost"
			return tx.Documents().Create(ctx, d)
		}, core.ErrInvalid},
		{"member with a role outside the schema", func(ctx context.Context, tx stores.Tx) error {
			return tx.Members().Put(ctx, []accounts.Member{{AccountID: a.ID, UserID: newID(), Role: accounts.Role(42), CreatedAt: now}})
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := s.InTx(context.Background(), tc.op)
			if tc.want == nil {
				if err == nil {
					t.Fatal("got no error")
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want an error wrapping %q", err, tc.want)
			}
		})
	}
}

// TestDeliveryLeaseMigrationSQLite puts the deliveries table back as version 1
// had it, with a key claimed then, and runs the lease migration twice: the
// old key counts as sent (its job finished long ago), and keys claimed
// afterwards start unsent, so they are busy within the lease, not sent.
func TestDeliveryLeaseMigrationSQLite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "vetted.db")
	s := mustOpen(t, path)
	raw := rawDB(t, path)
	for _, q := range []string{
		"DROP TABLE deliveries",
		"CREATE TABLE deliveries (key TEXT NOT NULL PRIMARY KEY, claimed_at TEXT NOT NULL) STRICT",
		"INSERT INTO deliveries (key, claimed_at) VALUES ('member:old', '2026-01-01T00:00:00.000000000Z')",
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	ctx := context.Background()
	for range 2 {
		if err := sqlstore.RerunMigration(ctx, s, "20261201000000_delivery_lease.tx.up.sql"); err != nil {
			t.Fatal(err)
		}
	}
	now := testenv.ClockStart(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	claim := func(key string) (d mailonce.Delivery) {
		now = now.Add(time.Second)
		write(t, s, func(ctx context.Context, tx stores.Tx) (err error) {
			d, err = tx.Deliveries().Claim(ctx, key, now, time.Minute)
			return err
		})
		return d
	}
	if got := claim("member:old"); got.State != mailonce.DeliverySent {
		t.Fatalf("a key claimed before the migration is %v, want sent", got.State)
	}
	claim("member:new")
	if got := claim("member:new"); got.State != mailonce.DeliveryBusy {
		t.Fatalf("a key claimed after the migration is %v a second later, want busy", got.State)
	}
}

// TestReadersKeepASmallPageCache: every connection of the read pool keeps
// half a MiB of page cache (a WAL reader drops its cache after any commit,
// and each connection fills its own); the writer keeps SQLite's default.
func TestReadersKeepASmallPageCache(t *testing.T) {
	t.Parallel()
	s := mustOpen(t, filepath.Join(t.TempDir(), "vetted.db"))
	w, r, err := sqlstore.CacheSizes(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if r != -512 || w != -2000 {
		t.Fatalf("cache_size: reader %d, writer %d; want -512 (KiB) and SQLite's default -2000", r, w)
	}
}
