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
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcpostgres "github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/vetted-dev/vetted/adapters/postgres"
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
	if err := dockerHealthy(); err != nil {
		unavailable(t, "%s is unset and Docker does not answer: %v", EnvURL, err)
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
		unavailable(t, "start PostgreSQL container: %v", containerErr)
	}
	return containerURL
}

// unavailable skips t, or fails it under CI=true.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true: "+format, args...)
	}
	t.Skipf(format, args...)
}

// dockerHealthy asks Docker the same question as
// testcontainers.SkipIfProviderIsNotHealthy, but answers with an error so
// that CI=true can fail instead of skip (and so it works for benchmarks).
func dockerHealthy() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("docker provider panicked: %v", r)
		}
	}()
	p, err := testcontainers.ProviderDocker.GetProvider()
	if err != nil {
		return err
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return p.Health(ctx)
}

// NewDatabase creates an empty database with a random name on the test
// server, drops it when t ends, and returns its URL.
func NewDatabase(t testing.TB) string {
	t.Helper()
	base := URL(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("pgtest: parse %s: %v", EnvURL, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "vetted_t_" + hex.EncodeToString(b[:])

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := exec(ctx, base, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
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

// NewStore returns a migrated store on a database of its own, closed and
// dropped when t ends.
func NewStore(t testing.TB) *postgres.Store {
	t.Helper()
	dbURL := NewDatabase(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := postgres.Open(ctx, dbURL, postgres.WithMaxOpenConns(8), postgres.WithApplicationName("pgtest"))
	if err != nil {
		t.Fatalf("pgtest: open store: %v", err)
	}
	// Registered after the drop, so it runs before it.
	t.Cleanup(func() { _ = s.Close() })
	if err := s.Migrate(ctx); err != nil {
		t.Fatalf("pgtest: migrate: %v", err)
	}
	return s
}

// exec runs one statement on the server at dsn on a connection of its own
// (CREATE and DROP DATABASE cannot run inside a transaction).
func exec(ctx context.Context, dsn, query string) error {
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn), pgdriver.WithApplicationName("pgtest")))
	defer db.Close()
	_, err := db.ExecContext(ctx, query)
	return err
}
