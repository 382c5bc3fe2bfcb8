package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/ports/porttest"
)

// TestChangeFeedConformance runs the feed suite on two stores on one
// database (two processes); Cut terminates the LISTEN sessions of the
// database on the server, as an administrator or a failover would.
func TestChangeFeedConformance(t *testing.T) {
	porttest.RunChangeFeed(t, func(t *testing.T) porttest.FeedEnv {
		dbURL := pgtest.NewMigratedDatabase(t)
		open := func() *sqlstore.Store {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			s, err := sqlstore.OpenPostgres(ctx, dbURL, sqlstore.WithMaxOpenConns(4), sqlstore.WithApplicationName("pgtest"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			return s
		}
		a, b := open(), open()
		return porttest.FeedEnv{Store: a, A: a.ChangeFeed(), B: b.ChangeFeed(), Cut: func(t *testing.T) {
			n := terminateListeners(t, a)
			if n == 0 {
				t.Fatal("no LISTEN session to terminate")
			}
		}}
	})
}

// terminateListeners ends the sessions of s's database that LISTEN, and
// returns how many it ended.
func terminateListeners(t *testing.T, s *sqlstore.Store) int {
	t.Helper()
	var n int
	err := s.SQLDB().QueryRowContext(t.Context(), `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
