package memstore

import (
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/records"
)

type recordsRepo struct{ *tx }

func cloneRecord(r records.Record) records.Record {
	r.Contacts = slices.Clone(r.Contacts)
	r.Notes = nil
	if r.UpdatedAt != nil {
		at := r.UpdatedAt.UTC()
		r.UpdatedAt = &at
	}
	return r
}

func (r recordsRepo) Get(_ context.Context, accountID, vendorID uuid.UUID) (records.Record, error) {
	if err := r.readable(); err != nil {
		return records.Record{}, err
	}
	rec, ok := r.d.vendorRecords[pair{accountID, vendorID}]
	if !ok {
		return records.Record{}, notFound("vendor record", vendorID)
	}
	return records.FromStore(cloneRecord(rec)), nil
}

func (r recordsRepo) Save(_ context.Context, rec records.Record) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.accounts, rec.AccountID, "account"); err != nil {
			return err
		}
		if err := requireRow(r.d.vendors, rec.VendorID, "vendor"); err != nil {
			return err
		}
		put(r.tx, r.d.vendorRecords, pair{rec.AccountID, rec.VendorID}, cloneRecord(rec))
		return nil
	})
}

func (r recordsRepo) Notes(_ context.Context, accountID, vendorID uuid.UUID) ([]records.Note, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := slices.Clone(r.d.recordNotes[pair{accountID, vendorID}])
	if out == nil {
		out = []records.Note{}
	}
	slices.SortStableFunc(out, func(a, b records.Note) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return slices.Compare(a.ID[:], b.ID[:])
	})
	return out, nil
}

func (r recordsRepo) AddNote(_ context.Context, n records.Note) error {
	return r.atomic(func() error {
		k := pair{n.AccountID, n.VendorID}
		if _, ok := r.d.vendorRecords[k]; !ok {
			return notFound("vendor record", n.VendorID)
		}
		for _, ns := range r.d.recordNotes {
			for _, old := range ns {
				if old.ID == n.ID {
					return conflict("note %s exists", n.ID)
				}
			}
		}
		n.CreatedAt = n.CreatedAt.UTC()
		put(r.tx, r.d.recordNotes, k, append(slices.Clone(r.d.recordNotes[k]), n))
		return nil
	})
}

func (r recordsRepo) OnAccount(_ context.Context, accountID, vendorID uuid.UUID) (bool, error) {
	if err := r.readable(); err != nil {
		return false, err
	}
	for _, listID := range r.d.entriesByVendor.of(vendorID) {
		if r.d.lists[listID].AccountID == accountID {
			return true, nil
		}
	}
	return false, nil
}

// deleteRecords removes the records of an account with their notes.
func (t *tx) deleteRecords(accountID uuid.UUID) {
	for k := range t.d.vendorRecords {
		if k.a == accountID {
			del(t, t.d.vendorRecords, k)
			del(t, t.d.recordNotes, k)
		}
	}
}
