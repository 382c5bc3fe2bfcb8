package porttest

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/records"
	"github.com/vetted-dev/vetted/ports/stores"
)

func (f *fixture) saveRecord(r records.Record) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Records().Save(ctx, r) })
}

func (f *fixture) getRecord(accountID, vendorID uuid.UUID) (records.Record, error) {
	return loadErr(f, func(ctx context.Context, tx stores.Tx) (records.Record, error) {
		return tx.Records().Get(ctx, accountID, vendorID)
	})
}

func (f *fixture) notes(accountID, vendorID uuid.UUID) []records.Note {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) ([]records.Note, error) {
		return tx.Records().Notes(ctx, accountID, vendorID)
	})
}

// recordCases check records.RecordRepo.
var recordCases = []testCase{
	{"a record is per account and vendor, read back whole, replaced by Save, and deleted with its account", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme"), f.org("Beta")
		v := f.ensure(f.newVendor("Zeta", "https://zeta.example"))[0]
		_, err := f.getRecord(a.ID, v.ID)
		wantErr(t, "never saved", err, core.ErrNotFound)
		at := f.tick()
		r := records.Record{AccountID: a.ID, VendorID: v.ID, BusinessOwner: "ann@acme.example",
			Contacts:  []records.Contact{{Name: "Sam", Email: "sam@zeta.example", Role: records.RoleSecurity}, {Name: "Lee", Email: "lee@zeta.example", Role: records.RoleLegal}},
			Links:     records.Links{TrustPage: "https://trust.zeta.example", DPA: "https://zeta.example/dpa", Terms: "", SLA: "http://zeta.example/sla"},
			UpdatedAt: &at, UpdatedBy: "ann@acme.example"}
		f.saveRecord(r)
		got, err := f.getRecord(a.ID, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "owner", got.BusinessOwner, "ann@acme.example")
		equal(t, "contacts", len(got.Contacts), 2)
		equal(t, "contact 0", got.Contacts[0], r.Contacts[0])
		equal(t, "contact 1", got.Contacts[1], r.Contacts[1])
		equal(t, "links", got.Links, r.Links)
		equal(t, "updated by", got.UpdatedBy, "ann@acme.example")
		if got.UpdatedAt == nil {
			t.Fatal("updated at lost")
		}
		sameTime(t, "updated at", *got.UpdatedAt, at)
		equal(t, "notes not read by Get", len(got.Notes), 0)
		_, err = f.getRecord(b.ID, v.ID)
		wantErr(t, "another account's record", err, core.ErrNotFound)

		at2 := f.tick()
		f.saveRecord(records.Record{AccountID: a.ID, VendorID: v.ID, UpdatedAt: &at2, UpdatedBy: "bo@acme.example"})
		got, _ = f.getRecord(a.ID, v.ID)
		equal(t, "owner cleared", got.BusinessOwner, "")
		equal(t, "contacts cleared", len(got.Contacts), 0)
		equal(t, "contacts not nil", got.Contacts != nil, true)
		equal(t, "links cleared", got.Links, records.Links{})
		sameTime(t, "updated again", *got.UpdatedAt, at2)

		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, a.ID) })
		_, err = f.getRecord(a.ID, v.ID)
		wantErr(t, "after account delete", err, core.ErrNotFound)
	}},
	{"Save of an unknown account or vendor is not found", func(t *testing.T, f *fixture) {
		a := f.org("Acme")
		v := f.ensure(f.newVendor("Zeta", "https://zeta.example"))[0]
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			return tx.Records().Save(ctx, records.Record{AccountID: a.ID, VendorID: newID()})
		})
		wantErr(t, "unknown vendor", err, core.ErrNotFound)
		err = f.try(func(ctx context.Context, tx stores.Tx) error {
			return tx.Records().Save(ctx, records.Record{AccountID: newID(), VendorID: v.ID})
		})
		wantErr(t, "unknown account", err, core.ErrNotFound)
	}},
	{"notes are appended to a saved record, read oldest first, unique by id, and go with the account", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme"), f.org("Beta")
		v := f.ensure(f.newVendor("Zeta", "https://zeta.example"))[0]
		n1 := records.Note{ID: newID(), AccountID: a.ID, VendorID: v.ID, Author: "ann@acme.example", CreatedAt: f.tick(), Text: "first\nline two"}
		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Records().AddNote(ctx, n1) })
		wantErr(t, "note before the record", err, core.ErrNotFound)
		f.saveRecord(records.Record{AccountID: a.ID, VendorID: v.ID})
		n2 := records.Note{ID: newID(), AccountID: a.ID, VendorID: v.ID, Author: "bo@acme.example", CreatedAt: f.tick(), Text: "second"}
		// n2 is written first: the order is by created_at, not insertion.
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Records().AddNote(ctx, n2) })
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Records().AddNote(ctx, n1) })
		ns := f.notes(a.ID, v.ID)
		equal(t, "count", len(ns), 2)
		equal(t, "first id", ns[0].ID, n1.ID)
		equal(t, "first text", ns[0].Text, "first\nline two")
		equal(t, "first author", ns[0].Author, "ann@acme.example")
		equal(t, "first account", ns[0].AccountID, a.ID)
		equal(t, "first vendor", ns[0].VendorID, v.ID)
		sameTime(t, "first at", ns[0].CreatedAt, n1.CreatedAt)
		equal(t, "second id", ns[1].ID, n2.ID)
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Records().AddNote(ctx, n1) })
		wantErr(t, "same id again", err, core.ErrConflict)
		equal(t, "other account has none", len(f.notes(b.ID, v.ID)), 0)
		equal(t, "none is an empty slice", f.notes(b.ID, v.ID) != nil, true)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, a.ID) })
		equal(t, "after account delete", len(f.notes(a.ID, v.ID)), 0)
	}},
	{"OnAccount is true while the vendor is on any list of the account", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme"), f.org("Beta")
		v := f.ensure(f.newVendor("Zeta", "https://zeta.example"))[0]
		on := func(accountID uuid.UUID) bool {
			return load(f, func(ctx context.Context, tx stores.Tx) (bool, error) {
				return tx.Records().OnAccount(ctx, accountID, v.ID)
			})
		}
		equal(t, "on no list", on(a.ID), false)
		l1, l2 := f.list(a.ID, "One"), f.list(a.ID, "Two")
		f.onList(l1.ID, v)
		f.onList(l2.ID, v)
		equal(t, "on two lists", on(a.ID), true)
		equal(t, "not on the other account's", on(b.ID), false)
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().RemoveEntries(ctx, l1.ID, []uuid.UUID{v.ID})
		})
		equal(t, "still on one list", on(a.ID), true)
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().RemoveEntries(ctx, l2.ID, []uuid.UUID{v.ID})
		})
		equal(t, "on none again", on(a.ID), false)
	}},
}
