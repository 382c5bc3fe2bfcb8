package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/vetted-dev/vetted/ports/porttest"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestConformance runs the store conformance suite, each subtest on a
// database file of its own.
func TestConformance(t *testing.T) {
	porttest.Run(t, func(t *testing.T) stores.Store { return mustOpen(t, filepath.Join(t.TempDir(), "vetted.db")) })
}
