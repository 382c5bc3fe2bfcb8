package porttest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/contracts"
	"github.com/vetted-dev/vetted/ports/stores"
)

func civilDay(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func (f *fixture) contract(accountID, vendorID uuid.UUID, end string) contracts.Contract {
	f.t.Helper()
	at := f.tick()
	c := contracts.Contract{ID: newID(), AccountID: accountID, CreatedAt: at, UpdatedAt: at, Terms: contracts.Terms{
		VendorID: vendorID, Reference: "MSA-" + end, Start: civilDay("2026-01-01"), End: civilDay(end), AutoRenew: true,
		NoticePeriodDays: 30, AnnualValue: "12345678901234.1234", Currency: "EUR", GoverningLaw: "DE", DPASigned: true,
		Services:                 []contracts.ServiceEntry{{Name: "Hosting", Type: "hosting"}, {Name: "Mail", Type: "communication"}},
		SupportsCriticalFunction: true, LEI: "5493001KJTIIGC8Y1R12"}}
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Contracts().Create(ctx, c) })
	return c
}

func contractIDs(cs []contracts.Contract) []uuid.UUID {
	return idsOf(cs, func(c contracts.Contract) uuid.UUID { return c.ID })
}

// sameContract compares every stored field of a contract.
func sameContract(t *testing.T, got, want contracts.Contract) {
	t.Helper()
	equal(t, "id", got.ID, want.ID)
	equal(t, "account", got.AccountID, want.AccountID)
	equal(t, "vendor", got.VendorID, want.VendorID)
	equal(t, "reference", got.Reference, want.Reference)
	sameTime(t, "start", got.Start, want.Start)
	sameTime(t, "end", got.End, want.End)
	equal(t, "start is UTC midnight", got.Start.Location(), time.UTC)
	equal(t, "auto renew", got.AutoRenew, want.AutoRenew)
	equal(t, "notice", got.NoticePeriodDays, want.NoticePeriodDays)
	equal(t, "annual value", got.AnnualValue, want.AnnualValue)
	equal(t, "currency", got.Currency, want.Currency)
	equal(t, "governing law", got.GoverningLaw, want.GoverningLaw)
	equal(t, "dpa", got.DPASigned, want.DPASigned)
	equal(t, "critical", got.SupportsCriticalFunction, want.SupportsCriticalFunction)
	equal(t, "lei", got.LEI, want.LEI)
	if !slices.Equal(got.Services, want.Services) {
		t.Errorf("services %v, want %v", got.Services, want.Services)
	}
	sameTime(t, "created", got.CreatedAt, want.CreatedAt)
	sameTime(t, "updated", got.UpdatedAt, want.UpdatedAt)
}

// contractCases check contracts.ContractRepo.
var contractCases = []testCase{
	{"contracts are per account, read back whole, listed by end date, filtered by vendor, and deleted with their account", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme"), f.org("Beta")
		v1, v2 := newID(), newID()
		late := f.contract(a.ID, v1, "2027-06-30")
		early := f.contract(a.ID, v2, "2026-12-31")
		other := f.contract(b.ID, v1, "2026-12-31")
		got := load(f, func(ctx context.Context, tx stores.Tx) (contracts.Contract, error) {
			return tx.Contracts().Get(ctx, a.ID, late.ID)
		})
		sameContract(t, got, late)
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (contracts.Contract, error) {
			return tx.Contracts().Get(ctx, b.ID, late.ID)
		})
		wantErr(t, "another account's contract", err, core.ErrNotFound)
		list := load(f, func(ctx context.Context, tx stores.Tx) ([]contracts.Contract, error) {
			return tx.Contracts().List(ctx, a.ID, uuid.Nil)
		})
		sameIDs(t, "list by end date", contractIDs(list), []uuid.UUID{early.ID, late.ID})
		list = load(f, func(ctx context.Context, tx stores.Tx) ([]contracts.Contract, error) {
			return tx.Contracts().List(ctx, a.ID, v1)
		})
		sameIDs(t, "one vendor", contractIDs(list), []uuid.UUID{late.ID})
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Contracts().Create(ctx, late) })
		wantErr(t, "create twice", err, core.ErrConflict)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, a.ID) })
		list = load(f, func(ctx context.Context, tx stores.Tx) ([]contracts.Contract, error) {
			return tx.Contracts().List(ctx, a.ID, uuid.Nil)
		})
		equal(t, "after account delete", len(list), 0)
		list = load(f, func(ctx context.Context, tx stores.Tx) ([]contracts.Contract, error) {
			return tx.Contracts().List(ctx, b.ID, uuid.Nil)
		})
		sameIDs(t, "other account kept", contractIDs(list), []uuid.UUID{other.ID})
	}},
	{"Update replaces the terms and keeps the creation time; Update and Delete of another account's contract are not found", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme"), f.org("Beta")
		c := f.contract(a.ID, newID(), "2026-12-31")
		next := c
		next.Terms = contracts.Terms{VendorID: newID(), Start: civilDay("2024-02-29"), End: civilDay("2025-02-27"), Services: []contracts.ServiceEntry{}}
		next.CreatedAt, next.UpdatedAt = f.tick(), f.tick()
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Contracts().Update(ctx, next) })
		got := load(f, func(ctx context.Context, tx stores.Tx) (contracts.Contract, error) {
			return tx.Contracts().Get(ctx, a.ID, c.ID)
		})
		want := next
		want.CreatedAt = c.CreatedAt
		sameContract(t, got, want)
		stranger := next
		stranger.AccountID = b.ID
		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Contracts().Update(ctx, stranger) })
		wantErr(t, "update from another account", err, core.ErrNotFound)
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Contracts().Delete(ctx, b.ID, c.ID) })
		wantErr(t, "delete from another account", err, core.ErrNotFound)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Contracts().Delete(ctx, a.ID, c.ID) })
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Contracts().Delete(ctx, a.ID, c.ID) })
		wantErr(t, "delete twice", err, core.ErrNotFound)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (contracts.Contract, error) {
			return tx.Contracts().Get(ctx, a.ID, c.ID)
		})
		wantErr(t, "gone", err, core.ErrNotFound)
	}},
}
