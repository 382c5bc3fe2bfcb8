package sqlstore

// The repositories of the incidents area: the incidents' merge keys and
// search (on incidentRepo), the state of each source, the possible matches
// and the directory as the matcher reads it. Written once for both
// dialects.

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/vendors"
)

// WithKeys reads, in one statement, the vendor's incidents that hold one
// of keys (by incident_keys_vendor_key_idx), newest first.
func (r incidentRepo) WithKeys(ctx context.Context, vendorID uuid.UUID, keys []string) ([]vendors.Incident, error) {
	if len(keys) == 0 {
		return []vendors.Incident{}, nil
	}
	var rows []incidentRow
	err := r.SelectIncidents(&rows).
		Where("i.id IN (SELECT k.incident_id FROM incident_keys AS k WHERE k.vendor_id = ? AND k.key IN (?))", vendorID, bun.List(keys)).
		OrderExpr(newestIncident).Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "incidents of vendor %s by %d keys", vendorID, len(keys))
	}
	return mapRows(rows, incidentRow.Core), nil
}

// Update writes what a merge changes of the incident, then replaces its
// keys (under the vendor the stored incident belongs to).
func (r incidentRepo) Update(ctx context.Context, in vendors.Incident) error {
	row := fromIncident(in)
	var vendorID uuid.UUID
	_, err := r.DB.NewUpdate().Model(&row).Column("severity", "affected_service", "potentially_impacted_data", "sources").
		WherePK().Returning("vendor_id").Exec(ctx, &vendorID)
	if err != nil {
		return r.Translate(err, "update incident %s", in.ID)
	}
	if vendorID == uuid.Nil {
		return notFound("incident %s", in.ID)
	}
	if _, err := r.DB.NewDelete().Model((*incidentKeyRow)(nil)).Where("incident_id = ?", in.ID).Exec(ctx); err != nil {
		return r.Translate(err, "update incident %s: keys", in.ID)
	}
	return r.InsertKeys(ctx, incidentKeyRows(in.ID, vendorID, in.Keys), "update incident %s: keys", in.ID)
}

// Search reads, in one statement, the incidents of q's vendors that pass
// its filters, in Recent's order, strictly after q.After.
func (r incidentRepo) Search(ctx context.Context, q vendors.IncidentQuery) ([]vendors.Incident, error) {
	if len(q.VendorIDs) == 0 || q.Limit <= 0 {
		return []vendors.Incident{}, nil
	}
	var rows []incidentRow
	sel := r.SelectIncidents(&rows).Where("i.vendor_id IN (?)", bun.List(q.VendorIDs))
	if len(q.Severities) > 0 {
		sel = sel.Where("i.severity IN (?)", bun.List(q.Severities))
	}
	if len(q.Sources) > 0 {
		keys := make([]string, len(q.Sources))
		for i, s := range q.Sources {
			keys[i] = "source:" + s
		}
		sel = sel.Where("EXISTS (SELECT 1 FROM incident_keys AS k WHERE k.incident_id = i.id AND k.key IN (?))", bun.List(keys))
	}
	if c := q.After; c != nil {
		sel = sel.Where("(i.published_at, i.created_at, i.id) < (?, ?, ?)", c.PublishedAt.UTC(), c.CreatedAt.UTC(), c.ID)
	}
	if err := sel.OrderExpr(newestIncident).Limit(int64(q.Limit)).Scan(ctx); err != nil {
		return nil, r.Translate(err, "search incidents of %d vendors", len(q.VendorIDs))
	}
	return mapRows(rows, incidentRow.Core), nil
}

// sourceStateRepo is incidents.SourceStateRepo.
type sourceStateRepo struct{ base }

func (r sourceStateRepo) Get(ctx context.Context, key string) (incidents.SourceState, error) {
	var row sourceStateRow
	if err := r.DB.NewSelect().Model(&row).Where("src.key = ?", key).Scan(ctx); err != nil {
		return incidents.SourceState{}, r.Translate(err, "source %s", key)
	}
	return row.core(), nil
}

// Save upserts the state by its key.
func (r sourceStateRepo) Save(ctx context.Context, s incidents.SourceState) error {
	row := fromSourceState(s)
	_, err := r.DB.NewInsert().Model(&row).On("CONFLICT (key) DO UPDATE").
		Set("etag = EXCLUDED.etag").Set("last_modified = EXCLUDED.last_modified").Set("polled = EXCLUDED.polled").
		Set("last_polled_at = EXCLUDED.last_polled_at").Set("last_result = EXCLUDED.last_result").
		Set("last_error = EXCLUDED.last_error").Exec(ctx)
	return r.Translate(err, "save source %s", s.Key)
}

// possibleRepo is incidents.PossibleRepo.
type possibleRepo struct{ base }

// Add inserts unless the key is taken (ON CONFLICT DO NOTHING); the row
// count says which.
func (r possibleRepo) Add(ctx context.Context, p incidents.PossibleMatch) (bool, error) {
	row := fromPossible(p)
	res, err := r.DB.NewInsert().Model(&row).On("CONFLICT (key) DO NOTHING").Exec(ctx)
	if err != nil {
		return false, r.Translate(err, "add possible match %s", p.ID)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, r.Translate(err, "add possible match %s", p.ID)
	}
	return n > 0, nil
}

func (r possibleRepo) Get(ctx context.Context, id uuid.UUID) (incidents.PossibleMatch, error) {
	var row possibleRow
	if err := r.DB.NewSelect().Model(&row).Where("pm.id = ?", id).Scan(ctx); err != nil {
		return incidents.PossibleMatch{}, r.Translate(err, "possible match %s", id)
	}
	return row.core(), nil
}

// List walks possible_matches_status_idx.
func (r possibleRepo) List(ctx context.Context, status string, limit int) ([]incidents.PossibleMatch, error) {
	if limit <= 0 {
		return []incidents.PossibleMatch{}, nil
	}
	var rows []possibleRow
	err := r.DB.NewSelect().Model(&rows).Where("pm.status = ?", status).
		OrderExpr("pm.created_at DESC, pm.id DESC").Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "%s possible matches", status)
	}
	return mapRows(rows, possibleRow.core), nil
}

// Save writes the decision.
func (r possibleRepo) Save(ctx context.Context, p incidents.PossibleMatch) error {
	row := fromPossible(p)
	res, err := r.DB.NewUpdate().Model(&row).Column("status", "decided_at", "decided_by", "incident_id").WherePK().Exec(ctx)
	if err != nil {
		return r.Translate(err, "save possible match %s", p.ID)
	}
	return r.MustAffect(res, "possible match %s", p.ID)
}

// candidateRepo is incidents.CandidateRepo.
type candidateRepo struct{ base }

// All reads the directory in one statement: each entry with its profile's
// company aliases, legal name and primary product (JSON operators that
// PostgreSQL and SQLite spell alike; null without a profile).
func (r candidateRepo) All(ctx context.Context) ([]incidents.Candidate, error) {
	var rows []candidateRow
	err := r.DB.NewRaw(`SELECT v.id, v.name, v.aliases, v.domain, p.company -> 'alias' AS profile_aliases,
		coalesce(p.company ->> 'legal_name', '') AS legal_name, coalesce(p.company ->> 'primary_product', '') AS primary_product
		FROM vendors AS v LEFT JOIN profiles AS p ON p.vendor_id = v.id
		ORDER BY `+r.ByName("v.name")+`, v.id`).Scan(ctx, &rows)
	if err != nil {
		return nil, r.Translate(err, "incident candidates")
	}
	return mapRows(rows, candidateRow.core), nil
}

// carrierRow is a list carrying a vendor.
type carrierRow struct {
	AccountID uuid.UUID `bun:"account_id"`
	ListID    uuid.UUID `bun:"list_id"`
	ListName  string    `bun:"list_name"`
}

// productNameRow is a product a list records for a vendor.
type productNameRow struct {
	ListID uuid.UUID `bun:"list_id"`
	Name   string    `bun:"name"`
}

// Carrying reads the lists carrying the vendor, then the products they
// record for it: two statements, alike in both dialects.
func (r candidateRepo) Carrying(ctx context.Context, vendorID uuid.UUID) ([]incidents.Carrier, error) {
	var lists []carrierRow
	if err := r.DB.NewRaw(`SELECT l.account_id, l.id AS list_id, l.name AS list_name
		FROM list_entries AS e JOIN lists AS l ON l.id = e.list_id
		WHERE e.vendor_id = ? ORDER BY l.account_id, `+r.ByName("l.name")+`, l.id`, vendorID).Scan(ctx, &lists); err != nil {
		return nil, r.Translate(err, "lists carrying vendor %s", vendorID)
	}
	out := make([]incidents.Carrier, len(lists))
	at := make(map[uuid.UUID]int, len(lists))
	for i, l := range lists {
		out[i] = incidents.Carrier{AccountID: l.AccountID, ListID: l.ListID, ListName: l.ListName, Products: []string{}}
		at[l.ListID] = i
	}
	if len(lists) == 0 {
		return out, nil
	}
	var products []productNameRow
	if err := r.DB.NewRaw(`SELECT list_id, name FROM products WHERE vendor_id = ? ORDER BY name, id`, vendorID).Scan(ctx, &products); err != nil {
		return nil, r.Translate(err, "products of vendor %s", vendorID)
	}
	for _, p := range products {
		if i, ok := at[p.ListID]; ok {
			out[i].Products = append(out[i].Products, p.Name)
		}
	}
	return out, nil
}
