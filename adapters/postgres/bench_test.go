package postgres_test

import (
	"testing"

	"github.com/vetted-dev/vetted/adapters/postgres/pgtest"
	"github.com/vetted-dev/vetted/ports/porttest"
	"github.com/vetted-dev/vetted/ports/stores"
)

// BenchmarkBulk runs the stores' bulk benchmarks (porttest.Bench) on
// PostgreSQL. Target: each op under 250 ms (see the closing notes).
//
//	go test -run '^$' -bench . -benchtime 20x ./postgres/
func BenchmarkBulk(b *testing.B) {
	porttest.Bench(b, func(tb testing.TB) stores.Store { return pgtest.NewStore(tb) })
}
