package vendors

import (
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Ref names a vendor of the directory as a request gave it: by its id, or
// by its canonical name. A reference that reads as a UUID may still be a
// vendor's name (a vendor named like a UUID that is no vendor's id), so it
// carries both readings; ParseRef is the only way to make one.
type Ref struct {
	text string
	id   uuid.UUID // uuid.Nil: the text is not a UUID
	name Name      // "": the text is not a valid name
}

// ParseRef reads a vendor reference: a UUID or a canonical name.
func ParseRef(s string) (Ref, error) {
	r := Ref{text: s}
	id, ierr := uuid.Parse(strings.TrimSpace(s))
	if ierr == nil {
		r.id = id
	}
	n, nerr := ParseName(s)
	if nerr == nil {
		r.name = n
	}
	if ierr != nil && nerr != nil {
		return Ref{}, core.Invalid("VendorRef", "must be a vendor UUID or name")
	}
	return r, nil
}

// RefByID is the reference of a vendor id.
func RefByID(id uuid.UUID) Ref { return Ref{text: id.String(), id: id} }

// String is the reference as given; it keys remembered views and names the
// vendor in messages.
func (r Ref) String() string { return r.text }

// ID is the id the reference reads as, if it reads as one.
func (r Ref) ID() (uuid.UUID, bool) { return r.id, r.id != uuid.Nil }

// Name is the name the reference reads as, if it reads as one.
func (r Ref) Name() (Name, bool) { return r.name, r.name != "" }

// Finds reports whether the reference still finds v as a lookup would: by
// its id, or by its canonical name.
func (r Ref) Finds(v Vendor) bool {
	if r.id != uuid.Nil && r.id == v.ID {
		return true
	}
	return r.name != "" && r.name.Key() == v.Name.Key()
}

// View is a directory entry with its profile (nil for a custom vendor).
type View struct {
	Vendor  Vendor
	Profile *Profile
	// Version names the content of the view for whoever remembers what
	// is derived from it (the API's encoded answer): a cache in front of
	// the store gives every view it reads that differs from the one it
	// held a new number, unique in the process, and keeps the number of
	// one read again unchanged. Zero means unversioned (read straight from
	// the store): nothing may be remembered by it.
	Version uint64
}
