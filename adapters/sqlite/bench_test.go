package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/vetted-dev/vetted/ports/porttest"
	"github.com/vetted-dev/vetted/ports/stores"
)

// BenchmarkBulk runs the stores' bulk benchmarks (porttest.Bench) on an
// SQLite file, to compare with PostgreSQL's.
//
//	go test -run '^$' -bench . -benchtime 20x ./sqlite/
func BenchmarkBulk(b *testing.B) {
	porttest.Bench(b, func(tb testing.TB) stores.Store { return mustOpen(tb, filepath.Join(tb.TempDir(), "vetted.db")) })
}
