package api

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/records"
)

// VendorRecordJSON is what an account holds on one vendor, shared by all
// its lists.
type VendorRecordJSON struct {
	AccountID     string        `json:"account_id" format:"uuid"`
	VendorID      string        `json:"vendor_id" format:"uuid"`
	BusinessOwner *string       `json:"business_owner" doc:"The member who owns the relationship, by e-mail; null when none"`
	Contacts      []ContactJSON `json:"contacts" doc:"Whom to call at the vendor"`
	Links         LinksJSON     `json:"links"`
	Notes         []NoteJSON    `json:"notes" doc:"Read-only here, oldest first: add one with POST /vendor-records/notes"`
	UpdatedAt     *time.Time    `json:"updated_at" doc:"null for a record never edited"`
	UpdatedBy     string        `json:"updated_by" doc:"E-mail of who changed the record last; empty for a record never edited"`
}

// ContactJSON is a contact at the vendor.
type ContactJSON struct {
	Name  string `json:"name"`
	Email string `json:"email" format:"email"`
	Role  string `json:"role" enum:"security,privacy,account,legal"`
}

// LinksJSON are the links to the vendor's documents: http(s) URLs, or
// empty.
type LinksJSON struct {
	TrustPage string `json:"trust_page"`
	DPA       string `json:"dpa" doc:"Data processing agreement"`
	Terms     string `json:"terms"`
	SLA       string `json:"sla" doc:"Service level agreement"`
}

// NoteJSON is a note of a record.
type NoteJSON struct {
	ID        string    `json:"id" format:"uuid"`
	Author    string    `json:"author" doc:"E-mail of the member who wrote it"`
	CreatedAt time.Time `json:"created_at"`
	Text      string    `json:"text"`
}

func noteJSON(n records.Note) NoteJSON {
	return NoteJSON{ID: n.ID.String(), Author: n.Author, CreatedAt: n.CreatedAt, Text: n.Text}
}

func vendorRecordJSON(r records.Record) VendorRecordJSON {
	out := VendorRecordJSON{AccountID: r.AccountID.String(), VendorID: r.VendorID.String(), Contacts: make([]ContactJSON, 0, len(r.Contacts)),
		Links: LinksJSON(r.Links), Notes: make([]NoteJSON, 0, len(r.Notes)), UpdatedAt: r.UpdatedAt, UpdatedBy: r.UpdatedBy}
	if r.BusinessOwner != "" {
		owner := r.BusinessOwner
		out.BusinessOwner = &owner
	}
	for _, c := range r.Contacts {
		out.Contacts = append(out.Contacts, ContactJSON(c))
	}
	for _, n := range r.Notes {
		out.Notes = append(out.Notes, noteJSON(n))
	}
	return out
}

// VendorRecordParams name a vendor's record in an account.
type VendorRecordParams struct {
	AccountParam
	VendorID string `query:"vendor-id" required:"true" doc:"The vendor's id; the vendor must be on a list of the account" format:"uuid"`
}

func (p VendorRecordParams) refs() (accounts.AccountRef, uuid.UUID, error) {
	acc, err := p.accountRef()
	if err != nil {
		return acc, uuid.Nil, err
	}
	id, err := accounts.ParseID("vendor-id", p.VendorID)
	return acc, id, err
}

type vendorRecordIn struct{ VendorRecordParams }

type vendorRecordPatchIn struct {
	VendorRecordParams
	Body map[string]json.RawMessage `doc:"JSON merge patch (RFC 7396) over business_owner, contacts and links; the read-only fields may be sent back as GET answered them"`
}

type vendorRecordOut struct{ Body VendorRecordJSON }

type vendorNoteIn struct {
	VendorRecordParams
	Body struct {
		Text string `json:"text" doc:"Plain text; an @email mention of a member of the account mails them"`
	}
}

type vendorNoteOut struct{ Body NoteJSON }

// recordsHandler answers the Vendor records operations with the records
// area of the core.
type recordsHandler struct{ *Server }

// getRecord answers get-vendor-record.
func (h recordsHandler) getRecord(ctx context.Context, in *vendorRecordIn) (*vendorRecordOut, error) {
	acc, vendorID, err := in.refs()
	if err != nil {
		return nil, err
	}
	r, err := h.records.Get(ctx, actor(ctx), acc, vendorID)
	if err != nil {
		return nil, err
	}
	return &vendorRecordOut{Body: vendorRecordJSON(r)}, nil
}

// patchRecord answers patch-vendor-record.
func (h recordsHandler) patchRecord(ctx context.Context, in *vendorRecordPatchIn) (*vendorRecordOut, error) {
	acc, vendorID, err := in.refs()
	if err != nil {
		return nil, err
	}
	r, err := h.records.Patch(ctx, actor(ctx), acc, vendorID, in.Body)
	if err != nil {
		return nil, err
	}
	return &vendorRecordOut{Body: vendorRecordJSON(r)}, nil
}

// addNote answers add-vendor-record-note.
func (h recordsHandler) addNote(ctx context.Context, in *vendorNoteIn) (*vendorNoteOut, error) {
	acc, vendorID, err := in.refs()
	if err != nil {
		return nil, err
	}
	n, err := h.records.AddNote(ctx, actor(ctx), acc, vendorID, in.Body.Text)
	if err != nil {
		return nil, err
	}
	return &vendorNoteOut{Body: noteJSON(n)}, nil
}
