// Package pgtest gives tests a PostgreSQL database: the server named by
// VETTED_TEST_DATABASE_URL, or else one started with testcontainers when
// Docker answers. Without either the test is skipped, except under CI=true,
// where it fails: CI must never pass by skipping the database.
//
// NewStore gives every test its own freshly migrated database, dropped when
// the test ends, so tests that use it can run in parallel.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	tcpostgres "github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/vetted-dev/vetted/adapters/internal/dockerprobe"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/internal/testenv"
)

// EnvURL is the variable that names the test server.
const EnvURL = "VETTED_TEST_DATABASE_URL"

// Image is the container image used when no server is configured.
const Image = "postgres:15-alpine"

var (
	containerOnce sync.Once
	containerURL  string
	containerErr  error
)

// URL returns the URL of a PostgreSQL server for tests: VETTED_TEST_DATABASE_URL
// if set, else a container shared by the whole test binary. It skips t when
// neither is available, or fails it under CI=true.
func URL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv(EnvURL); u != "" {
		return u
	}
	if err := dockerprobe.Healthy(); err != nil {
		testenv.Unavailable(t, "PostgreSQL", EnvURL, fmt.Sprintf("Docker does not answer: %v", err))
	}
	containerOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		// The container outlives this test: the whole binary shares it,
		// and testcontainers' reaper removes it when the binary exits.
		c, err := tcpostgres.Run(ctx, Image,
			tcpostgres.WithDatabase("vetted"),
			tcpostgres.WithUsername("postgres"),
			tcpostgres.WithPassword("postgres"),
			tcpostgres.BasicWaitStrategies(),
		)
		if err != nil {
			containerErr = err
			return
		}
		containerURL, containerErr = c.ConnectionString(ctx, "sslmode=disable")
	})
	if containerErr != nil {
		testenv.Unavailable(t, "PostgreSQL", EnvURL, fmt.Sprintf("its container did not start: %v", containerErr))
	}
	return containerURL
}

// NewDatabase creates an empty database with a random name on the test
// server, drops it when t ends, and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	return newDatabase(t, "")
}

// NewStore returns a migrated store on a database of its own, closed and
// dropped when t ends. The database is a copy of a template that was
// migrated once per schema version, which is much faster than migrating
// every test's database.
func NewStore(t testing.TB) *sqlstore.Store {
	t.Helper()
	dbURL := NewMigratedDatabase(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := sqlstore.OpenPostgres(ctx, dbURL, sqlstore.WithMaxOpenConns(8), sqlstore.WithApplicationName("pgtest"))
	if err != nil {
		t.Fatalf("pgtest: open store: %v", err)
	}
	// Registered after the drop, so it runs before it.
	t.Cleanup(func() { _ = s.Close() })
	// A no-op on an up-to-date copy; it keeps NewStore right even if the
	// template were stale.
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("pgtest: migrate: %v", err)
	}
	return s
}

// NewMigratedDatabase creates a database with the embedded schema (a copy
// of the migrated template), drops it when t ends, and returns its URL, for
// tests that connect to it in their own way (through a proxy, say).
func NewMigratedDatabase(t testing.TB) string {
	t.Helper()
	tpl, err := template(URL(t))
	if err != nil {
		t.Fatalf("pgtest: template database: %v", err)
	}
	return newDatabase(t, tpl)
}

func newDatabase(t testing.TB, template string) string {
	t.Helper()
	base := URL(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("pgtest: parse %s: %v", EnvURL, err)
	}
	name := "vetted_t_" + randomHex()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	create := "CREATE DATABASE " + name
	if template != "" {
		create += " TEMPLATE " + template
	}
	for attempt := 1; ; attempt++ {
		err = exec(ctx, base, create)
		// 55006: the template is briefly in use (another test binary
		// building it or connecting to it); try again.
		if err == nil || attempt == 20 || !hasCode(err, "55006") {
			break
		}
		time.Sleep(time.Duration(attempt) * 50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("pgtest: %s: %v", create, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// FORCE ends sessions a test left open (PostgreSQL 13 and later).
		if err := exec(ctx, base, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

var templates sync.Map // server URL -> *templateOnce

type templateOnce struct {
	once sync.Once
	name string
	err  error
}

// template returns the name of a migrated template database for the
// embedded schema on the server at base, building it if no process has yet.
func template(base string) (string, error) {
	v, _ := templates.LoadOrStore(base, new(templateOnce))
	to := v.(*templateOnce)
	to.once.Do(func() { to.name, to.err = buildTemplate(base) })
	return to.name, to.err
}

// templateLockKey serialises template building across test binaries.
const templateLockKey int64 = 0x7667747470 // "vgttp"

func buildTemplate(base string) (string, error) {
	name := "vetted_tpl_" + sqlstore.SchemaVersion(sqlstore.Postgres)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	db := sql.OpenDB(adminConnector(base))
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", templateLockKey); err != nil {
		return "", err
	}
	defer func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", templateLockKey)
	}()
	var exists bool
	if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	// Build under a scratch name and rename when complete, so a crash
	// half-way never leaves a template that looks finished.
	scratch := "vetted_tplb_" + randomHex()
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+scratch); err != nil {
		return "", err
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u.Path = "/" + scratch
	s, err := sqlstore.OpenPostgres(ctx, u.String(), sqlstore.WithMaxOpenConns(2), sqlstore.WithApplicationName("pgtest"))
	if err == nil {
		err = s.Migrate(ctx)
		_ = s.Close()
	}
	if err == nil {
		_, err = conn.ExecContext(ctx, "ALTER DATABASE "+scratch+" RENAME TO "+name)
	}
	if err != nil {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+scratch+" WITH (FORCE)")
		return "", err
	}
	return name, nil
}

func randomHex() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func hasCode(err error, code string) bool {
	var pgErr pgdriver.Error
	return errors.As(err, &pgErr) && pgErr.Field('C') == code
}

// exec runs one statement on the server at dsn on a connection of its own
// (CREATE and DROP DATABASE cannot run inside a transaction).
func exec(ctx context.Context, dsn, query string) error {
	db := sql.OpenDB(adminConnector(dsn))
	defer db.Close()
	_, err := db.ExecContext(ctx, query)
	return err
}

// adminConnector connects for CREATE and DROP DATABASE and the template
// build. Copying a template can outlast the driver's 10-second read timeout
// on a loaded machine (CI shares two cores), so the statement's context
// bounds it instead.
func adminConnector(dsn string) *pgdriver.Connector {
	return pgdriver.NewConnector(pgdriver.WithDSN(dsn), pgdriver.WithApplicationName("pgtest"),
		pgdriver.WithReadTimeout(3*time.Minute), pgdriver.WithWriteTimeout(time.Minute))
}
