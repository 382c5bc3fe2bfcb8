package postgres_test

import (
	"testing"

	"github.com/vetted-dev/vetted/adapters/postgres/pgtest"
	"github.com/vetted-dev/vetted/ports/porttest"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestConformance runs the store conformance suite, each subtest on a fresh
// database of its own.
func TestConformance(t *testing.T) {
	porttest.Run(t, func(t *testing.T) stores.Store { return pgtest.NewStore(t) })
}
