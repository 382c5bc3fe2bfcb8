package sqlstore_test

import (
	"path/filepath"
	"testing"

	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/ports/porttest"
	"github.com/vetted-dev/vetted/ports/stores"
)

// BenchmarkBulkPostgres runs the stores' bulk benchmarks (porttest.Bench) on
// PostgreSQL. Target: each op under 250 ms (see the closing notes).
//
//	go test -run '^$' -bench BulkPostgres -benchtime 20x ./sqlstore/
func BenchmarkBulkPostgres(b *testing.B) {
	porttest.Bench(b, func(tb testing.TB) stores.Store { return pgtest.NewStore(tb) })
}

// BenchmarkBulkSQLite runs the same benchmarks on an SQLite file, to compare
// with PostgreSQL's.
//
//	go test -run '^$' -bench BulkSQLite -benchtime 20x ./sqlstore/
func BenchmarkBulkSQLite(b *testing.B) {
	porttest.Bench(b, func(tb testing.TB) stores.Store { return mustOpen(tb, filepath.Join(tb.TempDir(), "vetted.db")) })
}
