package records

import (
	"time"

	"github.com/google/uuid"
)

// Record is what an account holds on one vendor. A vendor whose record was
// never written has the empty record (Empty): no owner, no contacts, empty
// links, no notes, no UpdatedAt.
type Record struct {
	AccountID     uuid.UUID
	VendorID      uuid.UUID
	BusinessOwner string // a member's e-mail, lower-cased; "" for none
	Contacts      []Contact
	Links         Links
	// Notes are read from their own rows, oldest first; Save ignores them.
	Notes     []Note
	UpdatedAt *time.Time
	UpdatedBy string
}

// Empty is the record of a vendor never edited in an account.
func Empty(accountID, vendorID uuid.UUID) Record {
	return Record{AccountID: accountID, VendorID: vendorID, Contacts: []Contact{}, Notes: []Note{}}
}

// FromStore rebuilds a stored record as it is, never refusing it: a row
// written under older rules still reads.
func FromStore(r Record) Record {
	if r.Contacts == nil {
		r.Contacts = []Contact{}
	}
	if r.Notes == nil {
		r.Notes = []Note{}
	}
	return r
}

// touch records who changed the record and when.
func (r *Record) touch(by string, now time.Time) {
	r.UpdatedAt, r.UpdatedBy = &now, by
}
