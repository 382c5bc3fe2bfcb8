package vendors

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// Tx is what the vendors area (the global directory) reads and writes in
// one unit of work: its entries, their profiles, incidents and runs, and
// the outbox. It reads nothing of any account.
type Tx interface {
	Vendors() VendorRepo
	Profiles() ProfileRepo
	Incidents() IncidentRepo
	Runs() RunRepo
	outbox.Tx
}

// VendorRepo stores the global vendor directory. Names are unique by Key().
// HasProfile is computed by the store from the profile table.
type VendorRepo interface {
	// Get returns an entry by id, or core.ErrNotFound.
	Get(ctx context.Context, id uuid.UUID) (Vendor, error)
	// GetByName returns an entry by canonical name, case-insensitively, or core.ErrNotFound.
	GetByName(ctx context.Context, name Name) (Vendor, error)
	// ListByIDs returns the entries among ids that exist (any order).
	ListByIDs(ctx context.Context, ids []uuid.UUID) ([]Vendor, error)
	// List returns every entry ordered by name.
	List(ctx context.Context) ([]Vendor, error)
	// Page returns at most limit entries whose names sort after the name
	// after ("" for the first page), ordered by name in byte order (names
	// are unique, so a name is a cursor that no insert can disturb).
	Page(ctx context.Context, after Name, limit int) ([]Vendor, error)
	// Ensure inserts the entries whose names are not in the directory yet and
	// returns the stored entry for every input, in input order. An existing
	// entry keeps its id; if it has no website and the input has one, the
	// website and domain are filled in. One set-based call, not one per row.
	Ensure(ctx context.Context, vs []Vendor) ([]Vendor, error)
	// Update stores website, domain and aliases of an existing entry.
	Update(ctx context.Context, v Vendor) error
}

// ProfileRepo stores vendor profiles (1:1 with a directory entry) and the
// vendor's security instances.
type ProfileRepo interface {
	// Get returns the profile of a vendor, or core.ErrNotFound.
	Get(ctx context.Context, vendorID uuid.UUID) (Profile, error)
	// GetByID returns a profile by its own id (vendor_profile_id), or core.ErrNotFound.
	GetByID(ctx context.Context, id uuid.UUID) (Profile, error)
	// ListByVendors returns the profiles of the vendors among vendorIDs that
	// have one (any order). One call, not one per vendor.
	ListByVendors(ctx context.Context, vendorIDs []uuid.UUID) ([]Profile, error)
	// Save inserts or updates the profile of p.VendorID.
	Save(ctx context.Context, p Profile) error
	// Delete removes the profile, the vendor's security instances and its
	// GRC assessment history; the directory entry and list memberships stay.
	// core.ErrNotFound if none.
	Delete(ctx context.Context, vendorID uuid.UUID) error
	// Instances returns the vendor's security instances, most severe first.
	Instances(ctx context.Context, vendorID uuid.UUID) ([]SecurityInstance, error)
	// ReplaceInstances replaces all security instances of a vendor.
	ReplaceInstances(ctx context.Context, vendorID uuid.UUID, is []SecurityInstance) error
	// AddGRCAssessment appends an assessment to the vendor's GRC history
	// (the profile's LatestGRC is saved with the profile);
	// core.ErrNotFound if the vendor does not exist.
	AddGRCAssessment(ctx context.Context, vendorID uuid.UUID, a GRCAssessment) error
	// GRCAssessments returns the vendor's GRC history, newest AssessedAt
	// first, the later added first among equal times; empty, not an error,
	// when there is none.
	GRCAssessments(ctx context.Context, vendorID uuid.UUID) ([]GRCAssessment, error)
	// AddRating appends a scan's record to the vendor's rating history;
	// core.ErrNotFound if the vendor does not exist.
	AddRating(ctx context.Context, r RatingRecord) error
	// Ratings returns up to limit records of the vendor's rating history,
	// newest ScannedAt first (then highest id), after the cursor when it
	// is not nil; empty, not an error, when there are none.
	Ratings(ctx context.Context, vendorID uuid.UUID, after *RatingCursor, limit int) ([]RatingRecord, error)
	// GetRating returns one record by id, or core.ErrNotFound.
	GetRating(ctx context.Context, id uuid.UUID) (RatingRecord, error)
	// RatingEvents returns up to limit records of the vendors among
	// vendorIDs that carry a change (RatingRecord.IsEvent), newest first.
	RatingEvents(ctx context.Context, vendorIDs []uuid.UUID, limit int) ([]RatingRecord, error)
}

// IncidentRepo stores incidents, unique per (vendor, source, external id).
type IncidentRepo interface {
	// Create inserts one incident; core.ErrConflict if it exists.
	Create(ctx context.Context, in Incident) error
	// Merge inserts the incidents that do not exist yet and returns those it inserted.
	Merge(ctx context.Context, ins []Incident) ([]Incident, error)
	// Get returns an incident, or core.ErrNotFound.
	Get(ctx context.Context, id uuid.UUID) (Incident, error)
	// ListByVendor returns a vendor's incidents, newest first.
	ListByVendor(ctx context.Context, vendorID uuid.UUID) ([]Incident, error)
	// Recent returns the newest incidents of the given vendors, at most
	// limit, newest first (by published_at, then created_at, then id).
	Recent(ctx context.Context, vendorIDs []uuid.UUID, limit int) ([]Incident, error)
	// Latest returns, for each of the given vendors that has incidents, its
	// newest one (newest as Recent orders them); the result is in no order.
	Latest(ctx context.Context, vendorIDs []uuid.UUID) ([]Incident, error)
	// WithKeys returns the vendor's incidents that hold at least one of
	// keys among their Keys (any order); empty when keys is.
	WithKeys(ctx context.Context, vendorID uuid.UUID, keys []string) ([]Incident, error)
	// Update stores what a merge changes of an existing incident: its
	// severity, affected service, impacted data, sources and keys;
	// core.ErrNotFound if it does not exist.
	Update(ctx context.Context, in Incident) error
	// Search returns the incidents of the vendors among q.VendorIDs that
	// pass q's filters, newest first as Recent orders them, after q.After
	// when it is set, at most q.Limit.
	Search(ctx context.Context, q IncidentQuery) ([]Incident, error)
}

// IncidentQuery selects incidents for IncidentRepo.Search. Empty Sources
// or Severities do not filter; a source filters by the source: key of the
// incident's Keys (any item merged into it), so an incident of status-page
// or manual source, which has none, passes no source filter.
type IncidentQuery struct {
	VendorIDs  []uuid.UUID
	Sources    []string
	Severities []string
	After      *IncidentCursor
	Limit      int
}

// IncidentCursor is the position of an incident in Recent's order.
type IncidentCursor struct {
	PublishedAt time.Time
	CreatedAt   time.Time
	ID          uuid.UUID
}

// RunRepo stores enrichment and backfill runs with their jobs.
type RunRepo interface {
	// Create inserts a run.
	Create(ctx context.Context, r Run) error
	// Get returns a run, or core.ErrNotFound.
	Get(ctx context.Context, id uuid.UUID) (Run, error)
	// GetForUpdate returns a run locked for the rest of the unit of work.
	GetForUpdate(ctx context.Context, id uuid.UUID) (Run, error)
	// Save stores a run's jobs and updated_at.
	Save(ctx context.Context, r Run) error
}
