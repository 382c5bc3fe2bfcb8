package bunrepo

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/vendors"
)

// Vendors holds the methods of vendors.VendorRepo whose SQL is the same in
// both stores; each store adds GetByName and Ensure, which find names by
// its own case-folded key.
type Vendors struct{ Base }

// HasProfile is the computed column behind Vendor.HasProfile.
const HasProfile = "EXISTS (SELECT 1 FROM profiles AS p WHERE p.vendor_id = v.id) AS has_profile"

// SelectVendors selects into rows (a pointer to a slice of dbrow.Vendor, or
// of a row extending it) the columns of its model and HasProfile.
func (r Vendors) SelectVendors(rows any) *bun.SelectQuery {
	return r.DB.NewSelect().Model(rows).ColumnExpr("?TableColumns").ColumnExpr(HasProfile)
}

// One returns the entry matching where, or core.ErrNotFound.
func (r Vendors) One(ctx context.Context, what string, where string, arg any) (vendors.Vendor, error) {
	var rows []dbrow.Vendor
	if err := r.SelectVendors(&rows).Where(where, arg).Limit(1).Scan(ctx); err != nil {
		return vendors.Vendor{}, r.Translate(err, "vendor %s", what)
	}
	if len(rows) == 0 {
		return vendors.Vendor{}, NotFound("vendor %s", what)
	}
	return rows[0].Core(), nil
}

// Get returns an entry by id.
func (r Vendors) Get(ctx context.Context, id uuid.UUID) (vendors.Vendor, error) {
	return r.One(ctx, id.String(), "v.id = ?", id)
}

// ListByIDs returns the entries among ids that exist.
func (r Vendors) ListByIDs(ctx context.Context, ids []uuid.UUID) ([]vendors.Vendor, error) {
	if len(ids) == 0 {
		return []vendors.Vendor{}, nil
	}
	var rows []dbrow.Vendor
	if err := r.SelectVendors(&rows).Where("v.id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, r.Translate(err, "list vendors by id")
	}
	return dbrow.Map(rows, dbrow.Vendor.Core), nil
}

// List returns every entry by name.
func (r Vendors) List(ctx context.Context) ([]vendors.Vendor, error) {
	var rows []dbrow.Vendor
	if err := r.SelectVendors(&rows).OrderExpr(r.ByName("v.name") + ", v.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "list vendors")
	}
	return dbrow.Map(rows, dbrow.Vendor.Core), nil
}

// Page returns at most limit entries named after after, by name.
func (r Vendors) Page(ctx context.Context, after vendors.Name, limit int) ([]vendors.Vendor, error) {
	var rows []dbrow.Vendor
	q := r.SelectVendors(&rows).OrderExpr(r.ByName("v.name")).Limit(int64(limit))
	if after != "" {
		q = q.Where(r.ByName("v.name")+" > ?", after.String())
	}
	if err := q.Scan(ctx); err != nil {
		return nil, r.Translate(err, "page of vendors after %q", after)
	}
	return dbrow.Map(rows, dbrow.Vendor.Core), nil
}

// Update stores website, domain and aliases of an existing entry.
func (r Vendors) Update(ctx context.Context, v vendors.Vendor) error {
	row := dbrow.FromVendor(v)
	res, err := r.DB.NewUpdate().Model(&row).Column("website_url", "domain", "aliases").WherePK().Exec(ctx)
	if err != nil {
		return r.Translate(err, "update vendor %s", v.ID)
	}
	return r.MustAffect(res, "update vendor %s", v.ID)
}

// Profiles is vendors.ProfileRepo.
type Profiles struct{ Base }

// Get returns the profile of a vendor.
func (r Profiles) Get(ctx context.Context, vendorID uuid.UUID) (vendors.Profile, error) {
	var row dbrow.Profile
	if err := r.DB.NewSelect().Model(&row).Where("p.vendor_id = ?", vendorID).Scan(ctx); err != nil {
		return vendors.Profile{}, r.Translate(err, "profile of vendor %s", vendorID)
	}
	return row.Core(), nil
}

// GetByID returns a profile by its own id.
func (r Profiles) GetByID(ctx context.Context, id uuid.UUID) (vendors.Profile, error) {
	var row dbrow.Profile
	if err := r.DB.NewSelect().Model(&row).Where("p.id = ?", id).Scan(ctx); err != nil {
		return vendors.Profile{}, r.Translate(err, "profile %s", id)
	}
	return row.Core(), nil
}

// Save inserts or updates the profile of p.VendorID.
func (r Profiles) Save(ctx context.Context, p vendors.Profile) error {
	row := dbrow.FromProfile(p)
	// The profile keeps the id it was first stored with.
	_, err := r.DB.NewInsert().Model(&row).
		On("CONFLICT (vendor_id) DO UPDATE").
		Set("company = EXCLUDED.company, security = EXCLUDED.security, privacy = EXCLUDED.privacy").
		Set("maturity = EXCLUDED.maturity, scores = EXCLUDED.scores, enrichment = EXCLUDED.enrichment").
		Set("latest_grc = EXCLUDED.latest_grc, website = EXCLUDED.website, updated_at = EXCLUDED.updated_at").
		Exec(ctx)
	return r.Translate(err, "save profile of vendor %s", p.VendorID)
}

// Delete removes the profile and the vendor's security instances.
func (r Profiles) Delete(ctx context.Context, vendorID uuid.UUID) error {
	res, err := r.DB.NewDelete().Model((*dbrow.Profile)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete profile of vendor %s", vendorID)
	}
	if err := r.MustAffect(res, "delete profile of vendor %s", vendorID); err != nil {
		return err
	}
	if _, err = r.DB.NewDelete().Model((*dbrow.Instance)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx); err != nil {
		return r.Translate(err, "delete security instances of vendor %s", vendorID)
	}
	if _, err = r.DB.NewDelete().Model((*dbrow.GRC)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx); err != nil {
		return r.Translate(err, "delete GRC assessments of vendor %s", vendorID)
	}
	_, err = r.DB.NewDelete().Model((*dbrow.Rating)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx)
	return r.Translate(err, "delete rating history of vendor %s", vendorID)
}

// ListByVendors returns the profiles of the vendors among vendorIDs that
// have one, in one statement.
func (r Profiles) ListByVendors(ctx context.Context, vendorIDs []uuid.UUID) ([]vendors.Profile, error) {
	if len(vendorIDs) == 0 {
		return []vendors.Profile{}, nil
	}
	var rows []dbrow.Profile
	if err := r.DB.NewSelect().Model(&rows).Where("p.vendor_id IN (?)", bun.List(vendorIDs)).Scan(ctx); err != nil {
		return nil, r.Translate(err, "profiles of %d vendors", len(vendorIDs))
	}
	return dbrow.Map(rows, dbrow.Profile.Core), nil
}

// AddGRCAssessment appends an assessment to the vendor's GRC history.
func (r Profiles) AddGRCAssessment(ctx context.Context, vendorID uuid.UUID, a vendors.GRCAssessment) error {
	row := dbrow.FromGRC(vendorID, a)
	_, err := r.DB.NewInsert().Model(&row).ExcludeColumn("id").Exec(ctx)
	return r.Translate(err, "add GRC assessment of vendor %s", vendorID)
}

// GRCAssessments returns the vendor's GRC history, newest first, the later
// added first among equal times.
func (r Profiles) GRCAssessments(ctx context.Context, vendorID uuid.UUID) ([]vendors.GRCAssessment, error) {
	var rows []dbrow.GRC
	err := r.DB.NewSelect().Model(&rows).Where("g.vendor_id = ?", vendorID).OrderExpr("g.assessed_at DESC, g.id DESC").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "GRC assessments of vendor %s", vendorID)
	}
	return dbrow.Map(rows, dbrow.GRC.Core), nil
}

// AddRating appends a scan's record to the vendor's rating history.
func (r Profiles) AddRating(ctx context.Context, rec vendors.RatingRecord) error {
	row := dbrow.FromRating(rec)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "add rating of vendor %s", rec.VendorID)
}

// Ratings returns a page of the vendor's rating history, newest first.
func (r Profiles) Ratings(ctx context.Context, vendorID uuid.UUID, after *vendors.RatingCursor, limit int) ([]vendors.RatingRecord, error) {
	if limit <= 0 {
		return []vendors.RatingRecord{}, nil
	}
	var rows []dbrow.Rating
	q := r.DB.NewSelect().Model(&rows).Where("rh.vendor_id = ?", vendorID)
	if after != nil {
		q = q.Where("(rh.scanned_at < ? OR (rh.scanned_at = ? AND rh.id < ?))", after.At, after.At, after.ID)
	}
	if err := q.OrderExpr("rh.scanned_at DESC, rh.id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, r.Translate(err, "rating history of vendor %s", vendorID)
	}
	return dbrow.Map(rows, dbrow.Rating.Core), nil
}

// GetRating returns one record of a rating history.
func (r Profiles) GetRating(ctx context.Context, id uuid.UUID) (vendors.RatingRecord, error) {
	var row dbrow.Rating
	if err := r.DB.NewSelect().Model(&row).Where("rh.id = ?", id).Scan(ctx); err != nil {
		return vendors.RatingRecord{}, r.Translate(err, "rating record %s", id)
	}
	return row.Core(), nil
}

// RatingEvents returns the newest records with a change of the vendors.
func (r Profiles) RatingEvents(ctx context.Context, vendorIDs []uuid.UUID, limit int) ([]vendors.RatingRecord, error) {
	if len(vendorIDs) == 0 || limit <= 0 {
		return []vendors.RatingRecord{}, nil
	}
	var rows []dbrow.Rating
	err := r.DB.NewSelect().Model(&rows).Where("rh.vendor_id IN (?)", bun.List(vendorIDs)).Where("rh.is_event = ?", true).
		OrderExpr("rh.scanned_at DESC, rh.id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "rating events of %d vendors", len(vendorIDs))
	}
	return dbrow.Map(rows, dbrow.Rating.Core), nil
}

// severityRank orders instances most severe first.
const severityRank = `CASE si.severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2
	WHEN 'low' THEN 3 WHEN 'info' THEN 4 WHEN 'positive' THEN 5 ELSE 6 END`

// Instances returns the vendor's security instances, most severe first.
func (r Profiles) Instances(ctx context.Context, vendorID uuid.UUID) ([]vendors.SecurityInstance, error) {
	var rows []dbrow.Instance
	err := r.DB.NewSelect().Model(&rows).Where("si.vendor_id = ?", vendorID).
		OrderExpr(severityRank).OrderExpr(r.ByName("si.category") + ", " + r.ByName("si.code") + ", si.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "security instances of vendor %s", vendorID)
	}
	return dbrow.Map(rows, dbrow.Instance.Core), nil
}

// ReplaceInstances replaces all security instances of a vendor.
func (r Profiles) ReplaceInstances(ctx context.Context, vendorID uuid.UUID, is []vendors.SecurityInstance) error {
	if _, err := r.DB.NewDelete().Model((*dbrow.Instance)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx); err != nil {
		return r.Translate(err, "replace security instances of vendor %s", vendorID)
	}
	if len(is) == 0 {
		return nil
	}
	rows := make([]dbrow.Instance, 0, len(is))
	for _, i := range is {
		rows = append(rows, dbrow.FromInstance(vendorID, i))
	}
	_, err := r.DB.NewInsert().Model(&rows).Exec(ctx)
	return r.Translate(err, "replace security instances of vendor %s", vendorID)
}

// Incidents is vendors.IncidentRepo.
type Incidents struct{ Base }

// Create inserts one incident.
func (r Incidents) Create(ctx context.Context, in vendors.Incident) error {
	row := dbrow.FromIncident(in)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "create incident %s", in.ID)
}

// Merge inserts in one statement and answers the inserted incidents in
// input order.
func (r Incidents) Merge(ctx context.Context, ins []vendors.Incident) ([]vendors.Incident, error) {
	if len(ins) == 0 {
		return []vendors.Incident{}, nil
	}
	rows := make([]dbrow.Incident, 0, len(ins))
	for _, in := range ins {
		rows = append(rows, dbrow.FromIncident(in))
	}
	var inserted []uuid.UUID
	_, err := r.DB.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("id").Exec(ctx, &inserted)
	if err != nil {
		return nil, r.Translate(err, "merge incidents")
	}
	got := make(map[uuid.UUID]bool, len(inserted))
	for _, id := range inserted {
		got[id] = true
	}
	out := make([]vendors.Incident, 0, len(inserted))
	for _, row := range rows {
		if got[row.ID] {
			delete(got, row.ID) // a repeated id was inserted once
			out = append(out, row.Core())
		}
	}
	return out, nil
}

// Get returns an incident.
func (r Incidents) Get(ctx context.Context, id uuid.UUID) (vendors.Incident, error) {
	var row dbrow.Incident
	if err := r.DB.NewSelect().Model(&row).Where("i.id = ?", id).Scan(ctx); err != nil {
		return vendors.Incident{}, r.Translate(err, "incident %s", id)
	}
	return row.Core(), nil
}

// ListByVendor returns a vendor's incidents, newest first.
func (r Incidents) ListByVendor(ctx context.Context, vendorID uuid.UUID) ([]vendors.Incident, error) {
	var rows []dbrow.Incident
	err := r.DB.NewSelect().Model(&rows).Where("i.vendor_id = ?", vendorID).OrderExpr(NewestIncident).Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "incidents of vendor %s", vendorID)
	}
	return dbrow.Map(rows, dbrow.Incident.Core), nil
}

// NewestIncident orders incidents newest first.
const NewestIncident = "i.published_at DESC, i.created_at DESC, i.id DESC"

// Recent returns the newest incidents of the given vendors, at most limit.
func (r Incidents) Recent(ctx context.Context, vendorIDs []uuid.UUID, limit int) ([]vendors.Incident, error) {
	if len(vendorIDs) == 0 || limit <= 0 {
		return []vendors.Incident{}, nil
	}
	var rows []dbrow.Incident
	err := r.DB.NewSelect().Model(&rows).Where("i.vendor_id IN (?)", bun.List(vendorIDs)).
		OrderExpr(NewestIncident).Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "recent incidents of %d vendors", len(vendorIDs))
	}
	return dbrow.Map(rows, dbrow.Incident.Core), nil
}
