package apitest

import (
	"testing"

	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/ports/stores"
)

func init() {
	postgresOpener = func(t testing.TB) stores.Store { return pgtest.NewStore(t) }
}
