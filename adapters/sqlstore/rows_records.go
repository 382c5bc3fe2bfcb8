package sqlstore

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/records"
)

// recordRow is a row of vendor_records; contacts and links are kept in the
// fixed-key JSON below, so that renaming a core field changes no stored row.
type recordRow struct {
	bun.BaseModel `bun:"table:vendor_records,alias:vr"`

	AccountID     uuid.UUID       `bun:"account_id,pk"`
	VendorID      uuid.UUID       `bun:"vendor_id,pk"`
	BusinessOwner string          `bun:"business_owner"`
	Contacts      []storedContact `bun:"contacts,type:jsonb"`
	Links         storedLinks     `bun:"links,type:jsonb"`
	UpdatedAt     *time.Time      `bun:"updated_at"`
	UpdatedBy     string          `bun:"updated_by"`
}

// storedContact is the stored form of a contact.
type storedContact struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

// storedLinks is the stored form of a record's links.
type storedLinks struct {
	TrustPage string `json:"trust_page"`
	DPA       string `json:"dpa"`
	Terms     string `json:"terms"`
	SLA       string `json:"sla"`
}

func fromRecord(r records.Record) recordRow {
	cs := make([]storedContact, len(r.Contacts))
	for i, c := range r.Contacts {
		cs[i] = storedContact(c)
	}
	return recordRow{AccountID: r.AccountID, VendorID: r.VendorID, BusinessOwner: r.BusinessOwner, Contacts: cs,
		Links: storedLinks(r.Links), UpdatedAt: utcPtr(r.UpdatedAt), UpdatedBy: r.UpdatedBy}
}

// Core rebuilds the record (without its notes) as stored.
func (r recordRow) Core() records.Record {
	cs := make([]records.Contact, len(r.Contacts))
	for i, c := range r.Contacts {
		cs[i] = records.Contact(c)
	}
	return records.FromStore(records.Record{AccountID: r.AccountID, VendorID: r.VendorID, BusinessOwner: r.BusinessOwner, Contacts: cs,
		Links: records.Links(r.Links), UpdatedAt: utcPtr(r.UpdatedAt), UpdatedBy: r.UpdatedBy})
}

// noteRow is a row of vendor_record_notes.
type noteRow struct {
	bun.BaseModel `bun:"table:vendor_record_notes,alias:vn"`

	ID        uuid.UUID `bun:"id,pk"`
	AccountID uuid.UUID `bun:"account_id"`
	VendorID  uuid.UUID `bun:"vendor_id"`
	Author    string    `bun:"author"`
	CreatedAt time.Time `bun:"created_at"`
	Text      string    `bun:"text"`
}

func fromNote(n records.Note) noteRow {
	return noteRow{ID: n.ID, AccountID: n.AccountID, VendorID: n.VendorID, Author: n.Author, CreatedAt: n.CreatedAt.UTC(), Text: n.Text}
}

// Core rebuilds the note.
func (r noteRow) Core() records.Note {
	return records.Note{ID: r.ID, AccountID: r.AccountID, VendorID: r.VendorID, Author: r.Author, CreatedAt: utc(r.CreatedAt), Text: r.Text}
}
