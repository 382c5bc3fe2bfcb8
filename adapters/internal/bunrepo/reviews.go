package bunrepo

import (
	"context"
	"math"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/document"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Assessments is stores.AssessmentRepo.
type Assessments struct{ Base }

// Get returns an assessment of the account.
func (r Assessments) Get(ctx context.Context, accountID, id uuid.UUID) (review.Assessment, error) {
	var row dbrow.Assessment
	if err := r.DB.NewSelect().Model(&row).Where("s.id = ? AND s.account_id = ?", id, accountID).Scan(ctx); err != nil {
		return review.Assessment{}, r.Translate(err, "assessment %s", id)
	}
	return row.Core()
}

// ListByVendors returns a list's assessments of the given vendors.
func (r Assessments) ListByVendors(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]review.Assessment, error) {
	if len(vendorIDs) == 0 {
		return []review.Assessment{}, nil
	}
	var rows []dbrow.Assessment
	err := r.DB.NewSelect().Model(&rows).Where("s.list_id = ?", listID).Where("s.vendor_id IN (?)", bun.List(vendorIDs)).
		OrderExpr(r.ByName("s.vendor_name") + ", s.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "assessments of list %s", listID)
	}
	return dbrow.MapErr(rows, dbrow.Assessment.Core)
}

// Find returns the assessments matching f, newest update first.
func (r Assessments) Find(ctx context.Context, f stores.AssessmentFilter) ([]review.Assessment, error) {
	var rows []dbrow.Assessment
	q := filterAssessments(r.DB.NewSelect().Model(&rows), f)
	if err := q.OrderExpr("s.updated_at DESC, s.id DESC").Scan(ctx); err != nil {
		return nil, r.Translate(err, "find assessments")
	}
	return dbrow.MapErr(rows, dbrow.Assessment.Core)
}

// Timings reads the few columns of the assessments matching f that their
// due dates follow.
func (r Assessments) Timings(ctx context.Context, f stores.AssessmentFilter) ([]review.Timing, error) {
	var rows []dbrow.AssessmentTiming
	if err := filterAssessments(r.DB.NewSelect().Model(&rows), f).Scan(ctx); err != nil {
		return nil, r.Translate(err, "timings of assessments")
	}
	return dbrow.MapErr(rows, dbrow.AssessmentTiming.Core)
}

// filterAssessments narrows a read of assessments (alias s) to f.
func filterAssessments(q *bun.SelectQuery, f stores.AssessmentFilter) *bun.SelectQuery {
	q = q.Where("s.account_id = ?", f.AccountID)
	if f.ListID != nil {
		q = q.Where("s.list_id = ?", *f.ListID)
	}
	if f.VendorID != nil {
		q = q.Where("s.vendor_id = ?", *f.VendorID)
	}
	if f.VendorProfileID != nil {
		q = q.Where("s.vendor_profile_id = ?", *f.VendorProfileID)
	}
	if f.ID != nil {
		q = q.Where("s.id = ?", *f.ID)
	}
	return q
}

// Save upserts every assessment in one statement. An existing one keeps its
// account, list, vendor and creation stamp; a new one colliding with another
// on (list, vendor) fails on the unique index, which Translate makes a conflict.
func (r Assessments) Save(ctx context.Context, as []review.Assessment) error {
	if len(as) == 0 {
		return nil
	}
	// ON CONFLICT DO UPDATE may touch a row once per statement: the last
	// version of an id given wins.
	seen := make(map[uuid.UUID]int, len(as))
	rows := make([]dbrow.Assessment, 0, len(as))
	for _, a := range as {
		row := dbrow.FromAssessment(a)
		if i, ok := seen[a.ID]; ok {
			rows[i] = row
			continue
		}
		seen[a.ID] = len(rows)
		rows = append(rows, row)
	}
	_, err := r.DB.NewInsert().Model(&rows).
		On("CONFLICT (id) DO UPDATE").
		Set("vendor_profile_id = EXCLUDED.vendor_profile_id, vendor_name = EXCLUDED.vendor_name, status = EXCLUDED.status").
		Set("conditional_approval_condition = EXCLUDED.conditional_approval_condition").
		Set("sponsor_business_department = EXCLUDED.sponsor_business_department, sponsor_contact = EXCLUDED.sponsor_contact").
		Set("use_case = EXCLUDED.use_case, data_collected = EXCLUDED.data_collected, compliance_comment = EXCLUDED.compliance_comment").
		Set("compliance_contact = EXCLUDED.compliance_contact, submission_date = EXCLUDED.submission_date, approval_date = EXCLUDED.approval_date").
		Set("tier = EXCLUDED.tier, condition_due_at = EXCLUDED.condition_due_at, last_reviewed_at = EXCLUDED.last_reviewed_at").
		Set("updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by").
		Exec(ctx)
	return r.Translate(err, "save assessments")
}

// Delete removes an assessment of the account.
func (r Assessments) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	// Audit events and document records go with it by ON DELETE CASCADE.
	res, err := r.DB.NewDelete().Model((*dbrow.Assessment)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete assessment %s", id)
	}
	return r.MustAffect(res, "delete assessment %s", id)
}

// AppendEvents stores audit events in one statement.
func (r Assessments) AppendEvents(ctx context.Context, es []review.AuditEvent) error {
	if len(es) == 0 {
		return nil
	}
	rows := make([]dbrow.Event, 0, len(es))
	for _, e := range es {
		rows = append(rows, dbrow.FromEvent(e))
	}
	_, err := r.DB.NewInsert().Model(&rows).Exec(ctx)
	return r.Translate(err, "append audit events")
}

// Events returns a page of an assessment's events, newest first, and the total.
func (r Assessments) Events(ctx context.Context, assessmentID uuid.UUID, offset, limit int) ([]review.AuditEvent, int, error) {
	if limit <= 0 {
		// No limit; SQLite takes no OFFSET without a LIMIT.
		limit = math.MaxInt
	}
	var rows []dbrow.Event
	q := r.DB.NewSelect().Model(&rows).Where("ev.assessment_id = ?", assessmentID).
		OrderExpr("ev.created_at DESC, ev.id DESC").Offset(int64(max(offset, 0))).Limit(int64(limit))
	// ScanAndCount runs the page and the count as two statements.
	total, err := q.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, r.Translate(err, "audit events of %s", assessmentID)
	}
	return dbrow.Map(rows, dbrow.Event.Core), int(total), nil
}

// Documents is stores.DocumentRepo.
type Documents struct{ Base }

// Create inserts a record.
func (r Documents) Create(ctx context.Context, d document.Document) error {
	row := dbrow.FromDocument(d)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "create document %s", d.ID)
}

// Get returns a record of the account.
func (r Documents) Get(ctx context.Context, accountID, id uuid.UUID) (document.Document, error) {
	var row dbrow.Document
	if err := r.DB.NewSelect().Model(&row).Where("d.id = ? AND d.account_id = ?", id, accountID).Scan(ctx); err != nil {
		return document.Document{}, r.Translate(err, "document %s", id)
	}
	return row.Core(), nil
}

// ListByAssessment returns the records of an assessment, oldest first.
func (r Documents) ListByAssessment(ctx context.Context, assessmentID uuid.UUID) ([]document.Document, error) {
	var rows []dbrow.Document
	if err := r.DB.NewSelect().Model(&rows).Where("d.assessment_id = ?", assessmentID).OrderExpr("d.created_at, d.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "documents of assessment %s", assessmentID)
	}
	return dbrow.Map(rows, dbrow.Document.Core), nil
}

// ListByAccount returns every record of an account.
func (r Documents) ListByAccount(ctx context.Context, accountID uuid.UUID) ([]document.Document, error) {
	var rows []dbrow.Document
	if err := r.DB.NewSelect().Model(&rows).Where("d.account_id = ?", accountID).OrderExpr("d.created_at, d.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "documents of account %s", accountID)
	}
	return dbrow.Map(rows, dbrow.Document.Core), nil
}

// Update stores status and size of a record.
func (r Documents) Update(ctx context.Context, d document.Document) error {
	row := dbrow.FromDocument(d)
	res, err := r.DB.NewUpdate().Model(&row).Column("status", "size_bytes", "sha256").WherePK().Exec(ctx)
	if err != nil {
		return r.Translate(err, "update document %s", d.ID)
	}
	return r.MustAffect(res, "update document %s", d.ID)
}

// Delete removes a record of the account.
func (r Documents) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	res, err := r.DB.NewDelete().Model((*dbrow.Document)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete document %s", id)
	}
	return r.MustAffect(res, "delete document %s", id)
}
