package lists

import (
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// MasterList is the default list every account and personal space has.
const MasterList = "master-list"

// MaxNameLen bounds list and product names.
const MaxNameLen = 200

// ParseName validates a list or product name.
func ParseName(field, raw string) (string, error) {
	s, err := core.PlainText(field, raw, MaxNameLen)
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", core.Invalid(field, "must not be empty")
	}
	return s, nil
}

// List is a named set of vendors owned by one account.
type List struct {
	ID          uuid.UUID
	AccountID   uuid.UUID
	Name        string
	VendorCount int
	CreatedAt   time.Time
	// Version counts the changes to the list's entries (see Revision).
	Version int64
}

// New validates and builds a list.
func New(id, accountID uuid.UUID, name string, now time.Time) (List, error) {
	n, err := ParseName("List.Name", name)
	if err != nil {
		return List{}, err
	}
	return List{ID: id, AccountID: accountID, Name: n, CreatedAt: now.UTC()}, nil
}

// ListFromStore rebuilds a list a store read, with the vendor count it
// computed. Its name is not validated again (it was when the list was made,
// and a row written under older rules must still read), but its time is
// normalised to UTC as New's is.
func ListFromStore(id, accountID uuid.UUID, name string, vendorCount int, version int64, createdAt time.Time) List {
	return List{ID: id, AccountID: accountID, Name: name, VendorCount: vendorCount, CreatedAt: createdAt.UTC(), Version: version}
}

// Entry is a vendor on a list, as read back.
type Entry struct {
	ListID     uuid.UUID
	VendorID   uuid.UUID
	VendorName string
	// DisplayName is the name the vendor was added to the list under
	// ("Acme Corp"), or VendorName, the directory's canonical name ("Acme"),
	// when it was added under that or by a path that names none.
	DisplayName      string
	WebsiteURL       string
	IsCustom         bool
	EnrichmentStatus string
	AlertsEnabled    bool
	// Rating is the vendor's security rating, nil while it has none: a
	// list read shows it beside each vendor without reading the profiles.
	Rating   *int
	Products []Product
	AddedAt  time.Time
}

// Product is a product row of a vendor on a list.
type Product struct {
	ID        uuid.UUID
	ListID    uuid.UUID
	VendorID  uuid.UUID
	Name      string
	CreatedAt time.Time
}

// NewProduct validates and builds a product row.
func NewProduct(id, listID, vendorID uuid.UUID, name string, now time.Time) (Product, error) {
	n, err := ParseName("Product.Name", name)
	if err != nil {
		return Product{}, err
	}
	return Product{ID: id, ListID: listID, VendorID: vendorID, Name: n, CreatedAt: now.UTC()}, nil
}

// ProductFromStore rebuilds a product row a store read. Its name is not
// validated again (see ListFromStore); its time is normalised to UTC as
// NewProduct's is.
func ProductFromStore(id, listID, vendorID uuid.UUID, name string, createdAt time.Time) Product {
	return Product{ID: id, ListID: listID, VendorID: vendorID, Name: name, CreatedAt: createdAt.UTC()}
}

// Diff splits a desired set of vendor ids against the current one.
func Diff(current, desired []uuid.UUID) (added, removed []uuid.UUID, unchanged int) {
	cur := make(map[uuid.UUID]bool, len(current))
	for _, id := range current {
		cur[id] = true
	}
	want := make(map[uuid.UUID]bool, len(desired))
	for _, id := range desired {
		if want[id] {
			continue
		}
		want[id] = true
		if cur[id] {
			unchanged++
		} else {
			added = append(added, id)
		}
	}
	for _, id := range current {
		if !want[id] {
			removed = append(removed, id)
		}
	}
	return added, removed, unchanged
}

// QuotaReport is the org_enrichment summary of a save.
type QuotaReport struct {
	Queued       int
	AlreadyKnown int
	Limit        int
	Used         int
	Errors       []QuotaError

	// QueuedVendors are the names of the vendors queued, in order (a
	// client replays the batches of a dry run with them: csvimport).
	QueuedVendors []string
}

// Remaining is the quota left.
func (q QuotaReport) Remaining() int {
	if q.Used >= q.Limit {
		return 0
	}
	return q.Limit - q.Used
}

// QuotaError reports a vendor that was saved but not queued.
type QuotaError struct {
	VendorName string
	Code       string
	Message    string
}
