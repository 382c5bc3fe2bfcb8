package postgres_test

import (
	"testing"

	"github.com/vetted-dev/vetted/adapters/postgres/pgtest"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/porttest"
)

// TestConformance runs the store conformance suite, each subtest on a fresh
// database of its own.
func TestConformance(t *testing.T) {
	porttest.Run(t, func(t *testing.T) ports.Store { return pgtest.NewStore(t) })
}
