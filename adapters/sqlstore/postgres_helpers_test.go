package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/testenv"
	"github.com/vetted-dev/vetted/ports/stores"
)

// env is one test's store, with a whole-second clock and fixture builders.
type env struct {
	t   testing.TB
	s   *sqlstore.Store
	ctx context.Context
	now time.Time
}

func newEnv(t testing.TB) *env {
	t.Helper()
	return &env{t: t, s: pgtest.NewStore(t), ctx: context.Background(), now: testenv.ClockStart(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))}
}

func (e *env) tick() time.Time {
	e.now = e.now.Add(time.Second)
	return e.now
}

func newID() uuid.UUID { return uuid.Must(uuid.NewV7()) }

func (e *env) write(fn func(ctx context.Context, tx stores.Tx) error) {
	e.t.Helper()
	if err := e.s.InTx(e.ctx, fn); err != nil {
		e.t.Fatalf("InTx: %v", err)
	}
}

func (e *env) try(fn func(ctx context.Context, tx stores.Tx) error) error { return e.s.InTx(e.ctx, fn) }

func view[T any](e *env, fn func(ctx context.Context, tx stores.Tx) (T, error)) (T, error) {
	var v T
	err := e.s.View(e.ctx, func(ctx context.Context, tx stores.Tx) error {
		var err error
		v, err = fn(ctx, tx)
		return err
	})
	return v, err
}

func mustView[T any](e *env, fn func(ctx context.Context, tx stores.Tx) (T, error)) T {
	e.t.Helper()
	v, err := view(e, fn)
	if err != nil {
		e.t.Fatalf("View: %v", err)
	}
	return v
}

func (e *env) user(email string) accounts.User {
	e.t.Helper()
	u := accounts.User{ID: newID(), Subject: "sub-" + email, Email: email, Name: email, CreatedAt: e.tick()}
	e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Users().Save(ctx, u) })
	return u
}

func (e *env) org(name string) accounts.Account {
	e.t.Helper()
	a, err := accounts.NewAccount(newID(), name, e.tick())
	if err != nil {
		e.t.Fatal(err)
	}
	e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Create(ctx, a) })
	return a
}

func (e *env) member(a accounts.Account, u accounts.User, role accounts.Role) {
	e.t.Helper()
	m := accounts.Member{AccountID: a.ID, UserID: u.ID, Role: role, CreatedAt: e.tick()}
	e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Members().Put(ctx, []accounts.Member{m}) })
}

func (e *env) newVendor(name, website string) vendors.Vendor {
	e.t.Helper()
	v, err := vendors.New(newID(), name, website, e.tick())
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

// newVendors builds n vendors with distinct names starting with prefix.
func (e *env) newVendors(prefix string, n int) []vendors.Vendor {
	e.t.Helper()
	out := make([]vendors.Vendor, n)
	for i := range out {
		out[i] = e.newVendor(fmt.Sprintf("%s %04d", prefix, i), fmt.Sprintf("https://%s-%d.example.com", prefix, i))
	}
	return out
}

func (e *env) ensure(vs ...vendors.Vendor) []vendors.Vendor {
	e.t.Helper()
	var out []vendors.Vendor
	e.write(func(ctx context.Context, tx stores.Tx) (err error) {
		out, err = tx.Vendors().Ensure(ctx, vs)
		return err
	})
	return out
}

func (e *env) list(accountID uuid.UUID, name string) lists.List {
	e.t.Helper()
	l, err := lists.New(newID(), accountID, name, e.tick())
	if err != nil {
		e.t.Fatal(err)
	}
	e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Create(ctx, l) })
	return l
}

func (e *env) onList(listID uuid.UUID, vs ...vendors.Vendor) {
	e.t.Helper()
	now := e.tick()
	e.write(func(ctx context.Context, tx stores.Tx) error {
		return tx.Lists().AddEntries(ctx, listID, vendorIDs(vs), now)
	})
}

func (e *env) newProduct(listID, vendorID uuid.UUID, name string) lists.Product {
	e.t.Helper()
	p, err := lists.NewProduct(newID(), listID, vendorID, name, e.tick())
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

func (e *env) newAssessment(l lists.List, v vendors.Vendor) assessments.Assessment {
	now := e.tick()
	return assessments.Assessment{ID: newID(), AccountID: l.AccountID, ListID: l.ID, VendorID: v.ID, VendorName: v.Name.String(),
		Fields: assessments.Fields{Status: assessments.NotStarted, DataCollected: []string{}}, CreatedAt: now, UpdatedAt: now,
		CreatedBy: "ann@example.com", UpdatedBy: "ann@example.com"}
}

func vendorIDs(vs []vendors.Vendor) []uuid.UUID {
	ids := make([]uuid.UUID, len(vs))
	for i, v := range vs {
		ids[i] = v.ID
	}
	return ids
}
