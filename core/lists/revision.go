package lists

import (
	"slices"
	"strconv"
)

// Revision names the state of a list's entries: the list's id and the
// count of changes to its entries (vendors on or off it, alerts, product
// rows), which the stores bump in the unit of work of every such change.
// The id is part of it so that a list deleted and created again under the
// same name never repeats a revision. The API answers it as the ETag of a
// list read and takes it back in If-Match.
func (l List) Revision() string {
	return l.ID.String() + "." + strconv.FormatInt(l.Version, 10)
}

// Precondition is the revision a write was made against (If-Match). Its
// zero value asks nothing: every write goes through.
type Precondition struct {
	// Revisions the list may be at; the write is refused at any other.
	Revisions []string
	// Any (If-Match: *) holds for every revision of a list that exists.
	Any bool
}

// Holds reports whether the list is at a revision p accepts.
func (p Precondition) Holds(l List) bool {
	return p.Any || len(p.Revisions) == 0 || slices.Contains(p.Revisions, l.Revision())
}
