package apitest

import (
	"testing"

	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/ports"
)

func init() {
	postgresOpener = func(t testing.TB) ports.Store { return pgtest.NewStore(t) }
}
