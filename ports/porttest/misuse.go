package porttest

import (
	"context"
	"errors"
	"testing"

	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/ports/stores"
)

// refusedWrite checks that a misused unit of work failed and that the
// account it tried to create is not there.
func refusedWrite(t *testing.T, f *fixture, a accounts.Account, err error) {
	t.Helper()
	if err == nil {
		t.Fatal("got no error")
	}
	_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.Account, error) { return tx.Accounts().Get(ctx, a.ID) })
	if err == nil || errors.Is(err, context.Canceled) {
		t.Fatalf("the refused write left the account behind (err %v)", err)
	}
}

var misuseCases = []testCase{
	{"a write in View is refused", func(t *testing.T, f *fixture) {
		a := f.newOrg("Acme")
		err := f.s.View(f.ctx, func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Create(ctx, a) })
		refusedWrite(t, f, a, err)
	}},
	{"a unit of work used after it ended is refused", func(t *testing.T, f *fixture) {
		a := f.newOrg("Acme")
		var escaped stores.Tx
		f.write(func(_ context.Context, tx stores.Tx) error { escaped = tx; return nil })
		refusedWrite(t, f, a, escaped.Accounts().Create(f.ctx, a))
	}},
	{"a cancelled context runs nothing", func(t *testing.T, f *fixture) {
		a := f.newOrg("Acme")
		cancelled, cancel := context.WithCancel(f.ctx)
		cancel()
		err := f.s.InTx(cancelled, func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Create(ctx, a) })
		refusedWrite(t, f, a, err)
	}},
}
