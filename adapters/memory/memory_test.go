package memory_test

import (
	"testing"

	"github.com/vetted-dev/vetted/adapters/memory"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/porttest"
)

func TestConformance(t *testing.T) {
	porttest.Run(t, func(*testing.T) ports.Store { return memory.New() })
}
