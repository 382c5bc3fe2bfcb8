package sqlstore_test

import (
	"path/filepath"
	"testing"

	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/ports/porttest"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestConformancePostgres runs the store conformance suite on PostgreSQL,
// each subtest on a fresh database of its own.
func TestConformancePostgres(t *testing.T) {
	porttest.Run(t, func(t *testing.T) stores.Store { return pgtest.NewStore(t) })
}

// TestConformanceSQLite runs the store conformance suite on SQLite, each
// subtest on a database file of its own.
func TestConformanceSQLite(t *testing.T) {
	porttest.Run(t, func(t *testing.T) stores.Store { return mustOpen(t, filepath.Join(t.TempDir(), "vetted.db")) })
}
