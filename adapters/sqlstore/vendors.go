package sqlstore

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/vendors"
)

// vendorRepo holds the methods of vendors.VendorRepo whose SQL is the same in
// both dialects; each adds GetByName and Ensure, which find names by
// its own case-folded key.
type vendorRepo struct{ base }

// hasProfile is the computed column behind Vendor.HasProfile.
const hasProfile = "EXISTS (SELECT 1 FROM profiles AS p WHERE p.vendor_id = v.id) AS has_profile"

// SelectVendors selects into rows (a pointer to a slice of Vendor, or
// of a row extending it) the columns of its model and HasProfile.
func (r vendorRepo) SelectVendors(rows any) *bun.SelectQuery {
	return r.DB.NewSelect().Model(rows).ColumnExpr("?TableColumns").ColumnExpr(hasProfile)
}

// One returns the entry matching where, or core.ErrNotFound.
func (r vendorRepo) One(ctx context.Context, what string, where string, arg any) (vendors.Vendor, error) {
	var rows []vendorRow
	if err := r.SelectVendors(&rows).Where(where, arg).Limit(1).Scan(ctx); err != nil {
		return vendors.Vendor{}, r.Translate(err, "vendor %s", what)
	}
	if len(rows) == 0 {
		return vendors.Vendor{}, notFound("vendor %s", what)
	}
	return rows[0].Core(), nil
}

// Get returns an entry by id.
func (r vendorRepo) Get(ctx context.Context, id uuid.UUID) (vendors.Vendor, error) {
	return r.One(ctx, id.String(), "v.id = ?", id)
}

// ListByIDs returns the entries among ids that exist.
func (r vendorRepo) ListByIDs(ctx context.Context, ids []uuid.UUID) ([]vendors.Vendor, error) {
	if len(ids) == 0 {
		return []vendors.Vendor{}, nil
	}
	var rows []vendorRow
	if err := r.SelectVendors(&rows).Where("v.id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, r.Translate(err, "list vendors by id")
	}
	return mapRows(rows, vendorRow.Core), nil
}

// List returns every entry by name.
func (r vendorRepo) List(ctx context.Context) ([]vendors.Vendor, error) {
	var rows []vendorRow
	if err := r.SelectVendors(&rows).OrderExpr(r.ByName("v.name") + ", v.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "list vendors")
	}
	return mapRows(rows, vendorRow.Core), nil
}

// Page returns at most limit entries named after after, by name.
func (r vendorRepo) Page(ctx context.Context, after vendors.Name, limit int) ([]vendors.Vendor, error) {
	var rows []vendorRow
	q := r.SelectVendors(&rows).OrderExpr(r.ByName("v.name")).Limit(int64(limit))
	if after != "" {
		q = q.Where(r.ByName("v.name")+" > ?", after.String())
	}
	if err := q.Scan(ctx); err != nil {
		return nil, r.Translate(err, "page of vendors after %q", after)
	}
	return mapRows(rows, vendorRow.Core), nil
}

// Update stores website, domain and aliases of an existing entry.
func (r vendorRepo) Update(ctx context.Context, v vendors.Vendor) error {
	row := fromVendor(v)
	res, err := r.DB.NewUpdate().Model(&row).Column("website_url", "domain", "aliases").WherePK().Exec(ctx)
	if err != nil {
		return r.Translate(err, "update vendor %s", v.ID)
	}
	return r.MustAffect(res, "update vendor %s", v.ID)
}

// profileRepo is vendors.ProfileRepo.
type profileRepo struct{ base }

// Get returns the profile of a vendor.
func (r profileRepo) Get(ctx context.Context, vendorID uuid.UUID) (vendors.Profile, error) {
	var row profileRow
	if err := r.DB.NewSelect().Model(&row).Where("p.vendor_id = ?", vendorID).Scan(ctx); err != nil {
		return vendors.Profile{}, r.Translate(err, "profile of vendor %s", vendorID)
	}
	return row.Core(), nil
}

// GetByID returns a profile by its own id.
func (r profileRepo) GetByID(ctx context.Context, id uuid.UUID) (vendors.Profile, error) {
	var row profileRow
	if err := r.DB.NewSelect().Model(&row).Where("p.id = ?", id).Scan(ctx); err != nil {
		return vendors.Profile{}, r.Translate(err, "profile %s", id)
	}
	return row.Core(), nil
}

// Save inserts or updates the profile of p.VendorID.
func (r profileRepo) Save(ctx context.Context, p vendors.Profile) error {
	row := fromProfile(p)
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
func (r profileRepo) Delete(ctx context.Context, vendorID uuid.UUID) error {
	res, err := r.DB.NewDelete().Model((*profileRow)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete profile of vendor %s", vendorID)
	}
	if err := r.MustAffect(res, "delete profile of vendor %s", vendorID); err != nil {
		return err
	}
	if _, err = r.DB.NewDelete().Model((*instanceRow)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx); err != nil {
		return r.Translate(err, "delete security instances of vendor %s", vendorID)
	}
	if _, err = r.DB.NewDelete().Model((*grcRow)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx); err != nil {
		return r.Translate(err, "delete GRC assessments of vendor %s", vendorID)
	}
	_, err = r.DB.NewDelete().Model((*ratingRow)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx)
	return r.Translate(err, "delete rating history of vendor %s", vendorID)
}

// ListByVendors returns the profiles of the vendors among vendorIDs that
// have one, in one statement.
func (r profileRepo) ListByVendors(ctx context.Context, vendorIDs []uuid.UUID) ([]vendors.Profile, error) {
	if len(vendorIDs) == 0 {
		return []vendors.Profile{}, nil
	}
	var rows []profileRow
	if err := r.DB.NewSelect().Model(&rows).Where("p.vendor_id IN (?)", bun.List(vendorIDs)).Scan(ctx); err != nil {
		return nil, r.Translate(err, "profiles of %d vendors", len(vendorIDs))
	}
	return mapRows(rows, profileRow.Core), nil
}

// AddGRCAssessment appends an assessment to the vendor's GRC history.
func (r profileRepo) AddGRCAssessment(ctx context.Context, vendorID uuid.UUID, a vendors.GRCAssessment) error {
	row := fromGRCRow(vendorID, a)
	_, err := r.DB.NewInsert().Model(&row).ExcludeColumn("id").Exec(ctx)
	return r.Translate(err, "add GRC assessment of vendor %s", vendorID)
}

// GRCAssessments returns the vendor's GRC history, newest first, the later
// added first among equal times.
func (r profileRepo) GRCAssessments(ctx context.Context, vendorID uuid.UUID) ([]vendors.GRCAssessment, error) {
	var rows []grcRow
	err := r.DB.NewSelect().Model(&rows).Where("g.vendor_id = ?", vendorID).OrderExpr("g.assessed_at DESC, g.id DESC").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "GRC assessments of vendor %s", vendorID)
	}
	return mapRows(rows, grcRow.Core), nil
}

// AddRating appends a scan's record to the vendor's rating history.
func (r profileRepo) AddRating(ctx context.Context, rec vendors.RatingRecord) error {
	row := fromRating(rec)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "add rating of vendor %s", rec.VendorID)
}

// Ratings returns a page of the vendor's rating history, newest first.
func (r profileRepo) Ratings(ctx context.Context, vendorID uuid.UUID, after *vendors.RatingCursor, limit int) ([]vendors.RatingRecord, error) {
	if limit <= 0 {
		return []vendors.RatingRecord{}, nil
	}
	var rows []ratingRow
	q := r.DB.NewSelect().Model(&rows).Where("rh.vendor_id = ?", vendorID)
	if after != nil {
		q = q.Where("(rh.scanned_at < ? OR (rh.scanned_at = ? AND rh.id < ?))", after.At, after.At, after.ID)
	}
	if err := q.OrderExpr("rh.scanned_at DESC, rh.id DESC").Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, r.Translate(err, "rating history of vendor %s", vendorID)
	}
	return mapRows(rows, ratingRow.Core), nil
}

// GetRating returns one record of a rating history.
func (r profileRepo) GetRating(ctx context.Context, id uuid.UUID) (vendors.RatingRecord, error) {
	var row ratingRow
	if err := r.DB.NewSelect().Model(&row).Where("rh.id = ?", id).Scan(ctx); err != nil {
		return vendors.RatingRecord{}, r.Translate(err, "rating record %s", id)
	}
	return row.Core(), nil
}

// RatingEvents returns the newest records with a change of the vendors.
func (r profileRepo) RatingEvents(ctx context.Context, vendorIDs []uuid.UUID, limit int) ([]vendors.RatingRecord, error) {
	if len(vendorIDs) == 0 || limit <= 0 {
		return []vendors.RatingRecord{}, nil
	}
	var rows []ratingRow
	err := r.DB.NewSelect().Model(&rows).Where("rh.vendor_id IN (?)", bun.List(vendorIDs)).Where("rh.is_event = ?", true).
		OrderExpr("rh.scanned_at DESC, rh.id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "rating events of %d vendors", len(vendorIDs))
	}
	return mapRows(rows, ratingRow.Core), nil
}

// severityRank orders instances most severe first.
const severityRank = `CASE si.severity WHEN 'critical' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2
	WHEN 'low' THEN 3 WHEN 'info' THEN 4 WHEN 'positive' THEN 5 ELSE 6 END`

// Instances returns the vendor's security instances, most severe first.
func (r profileRepo) Instances(ctx context.Context, vendorID uuid.UUID) ([]vendors.SecurityInstance, error) {
	var rows []instanceRow
	err := r.DB.NewSelect().Model(&rows).Where("si.vendor_id = ?", vendorID).
		OrderExpr(severityRank).OrderExpr(r.ByName("si.category") + ", " + r.ByName("si.code") + ", si.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "security instances of vendor %s", vendorID)
	}
	return mapRows(rows, instanceRow.Core), nil
}

// ReplaceInstances replaces all security instances of a vendor.
func (r profileRepo) ReplaceInstances(ctx context.Context, vendorID uuid.UUID, is []vendors.SecurityInstance) error {
	if _, err := r.DB.NewDelete().Model((*instanceRow)(nil)).Where("vendor_id = ?", vendorID).Exec(ctx); err != nil {
		return r.Translate(err, "replace security instances of vendor %s", vendorID)
	}
	if len(is) == 0 {
		return nil
	}
	rows := make([]instanceRow, 0, len(is))
	for _, i := range is {
		rows = append(rows, fromInstance(vendorID, i))
	}
	_, err := r.DB.NewInsert().Model(&rows).Exec(ctx)
	return r.Translate(err, "replace security instances of vendor %s", vendorID)
}

// incidentRepo is vendors.IncidentRepo. The keys of an incident live in
// incident_keys; Keys is the dialect's column expression that reads them
// back, in order, as a JSON array (keys).
type incidentRepo struct {
	base
	Keys string
}

// SelectIncidents selects incidents into rows, with their keys.
func (r incidentRepo) SelectIncidents(rows any) *bun.SelectQuery {
	return r.DB.NewSelect().Model(rows).ColumnExpr("?TableColumns").ColumnExpr(r.Keys)
}

// InsertKeys inserts the keys of incidents.
func (r incidentRepo) InsertKeys(ctx context.Context, rows []incidentKeyRow, format string, args ...any) error {
	if len(rows) == 0 {
		return nil
	}
	_, err := r.DB.NewInsert().Model(&rows).Exec(ctx)
	return r.Translate(err, format, args...)
}

// Create inserts one incident and its keys.
func (r incidentRepo) Create(ctx context.Context, in vendors.Incident) error {
	row := fromIncident(in)
	if _, err := r.DB.NewInsert().Model(&row).Exec(ctx); err != nil {
		return r.Translate(err, "create incident %s", in.ID)
	}
	return r.InsertKeys(ctx, incidentKeyRows(in.ID, in.VendorID, in.Keys), "create incident %s: keys", in.ID)
}

// Merge inserts in one statement, then the keys of the inserted ones in
// another, and answers the inserted incidents in input order.
func (r incidentRepo) Merge(ctx context.Context, ins []vendors.Incident) ([]vendors.Incident, error) {
	if len(ins) == 0 {
		return []vendors.Incident{}, nil
	}
	rows := make([]incidentRow, 0, len(ins))
	for _, in := range ins {
		rows = append(rows, fromIncident(in))
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
	var keys []incidentKeyRow
	for _, row := range rows {
		if got[row.ID] {
			delete(got, row.ID) // a repeated id was inserted once
			out = append(out, row.Core())
			keys = append(keys, incidentKeyRows(row.ID, row.VendorID, row.Keys)...)
		}
	}
	if err := r.InsertKeys(ctx, keys, "merge incidents: keys"); err != nil {
		return nil, err
	}
	return out, nil
}

// Get returns an incident.
func (r incidentRepo) Get(ctx context.Context, id uuid.UUID) (vendors.Incident, error) {
	var row incidentRow
	if err := r.SelectIncidents(&row).Where("i.id = ?", id).Scan(ctx); err != nil {
		return vendors.Incident{}, r.Translate(err, "incident %s", id)
	}
	return row.Core(), nil
}

// ListByVendor returns a vendor's incidents, newest first.
func (r incidentRepo) ListByVendor(ctx context.Context, vendorID uuid.UUID) ([]vendors.Incident, error) {
	var rows []incidentRow
	err := r.SelectIncidents(&rows).Where("i.vendor_id = ?", vendorID).OrderExpr(newestIncident).Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "incidents of vendor %s", vendorID)
	}
	return mapRows(rows, incidentRow.Core), nil
}

// newestIncident orders incidents newest first.
const newestIncident = "i.published_at DESC, i.created_at DESC, i.id DESC"

// Recent returns the newest incidents of the given vendors, at most limit.
func (r incidentRepo) Recent(ctx context.Context, vendorIDs []uuid.UUID, limit int) ([]vendors.Incident, error) {
	if len(vendorIDs) == 0 || limit <= 0 {
		return []vendors.Incident{}, nil
	}
	var rows []incidentRow
	err := r.SelectIncidents(&rows).Where("i.vendor_id IN (?)", bun.List(vendorIDs)).
		OrderExpr(newestIncident).Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "recent incidents of %d vendors", len(vendorIDs))
	}
	return mapRows(rows, incidentRow.Core), nil
}
