package sqlstore

import (
	"context"
	"math"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/assessments"
)

// assessmentRepo is assessments.AssessmentRepo.
type assessmentRepo struct{ base }

// Get returns an assessment of the account.
func (r assessmentRepo) Get(ctx context.Context, accountID, id uuid.UUID) (assessments.Assessment, error) {
	var row assessmentRow
	if err := r.DB.NewSelect().Model(&row).Where("s.id = ? AND s.account_id = ?", id, accountID).Scan(ctx); err != nil {
		return assessments.Assessment{}, r.Translate(err, "assessment %s", id)
	}
	return row.Core()
}

// ListByVendors returns a list's assessments of the given vendors.
func (r assessmentRepo) ListByVendors(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]assessments.Assessment, error) {
	if len(vendorIDs) == 0 {
		return []assessments.Assessment{}, nil
	}
	var rows []assessmentRow
	err := r.DB.NewSelect().Model(&rows).Where("s.list_id = ?", listID).Where("s.vendor_id IN (?)", bun.List(vendorIDs)).
		OrderExpr(r.ByName("s.vendor_name") + ", s.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "assessments of list %s", listID)
	}
	return mapRowsErr(rows, assessmentRow.Core)
}

// Find returns the assessments matching f, newest update first.
func (r assessmentRepo) Find(ctx context.Context, f assessments.AssessmentFilter) ([]assessments.Assessment, error) {
	var rows []assessmentRow
	q := filterAssessments(r.DB.NewSelect().Model(&rows), f)
	if err := q.OrderExpr("s.updated_at DESC, s.id DESC").Scan(ctx); err != nil {
		return nil, r.Translate(err, "find assessments")
	}
	return mapRowsErr(rows, assessmentRow.Core)
}

// Timings reads the few columns of the assessments matching f that their
// due dates follow.
func (r assessmentRepo) Timings(ctx context.Context, f assessments.AssessmentFilter) ([]assessments.Timing, error) {
	var rows []assessmentTimingRow
	if err := filterAssessments(r.DB.NewSelect().Model(&rows), f).Scan(ctx); err != nil {
		return nil, r.Translate(err, "timings of assessments")
	}
	return mapRowsErr(rows, assessmentTimingRow.Core)
}

// filterAssessments narrows a read of assessments (alias s) to f.
func filterAssessments(q *bun.SelectQuery, f assessments.AssessmentFilter) *bun.SelectQuery {
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
func (r assessmentRepo) Save(ctx context.Context, as []assessments.Assessment) error {
	if len(as) == 0 {
		return nil
	}
	// ON CONFLICT DO UPDATE may touch a row once per statement: the last
	// version of an id given wins.
	seen := make(map[uuid.UUID]int, len(as))
	rows := make([]assessmentRow, 0, len(as))
	for _, a := range as {
		row := fromAssessment(a)
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
func (r assessmentRepo) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	// Audit events and document records go with it by ON DELETE CASCADE.
	res, err := r.DB.NewDelete().Model((*assessmentRow)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete assessment %s", id)
	}
	return r.MustAffect(res, "delete assessment %s", id)
}

// AppendEvents stores audit events in one statement.
func (r assessmentRepo) AppendEvents(ctx context.Context, es []assessments.AuditEvent) error {
	if len(es) == 0 {
		return nil
	}
	rows := make([]eventRow, 0, len(es))
	for _, e := range es {
		rows = append(rows, fromEvent(e))
	}
	_, err := r.DB.NewInsert().Model(&rows).Exec(ctx)
	return r.Translate(err, "append audit events")
}

// Events returns a page of an assessment's events, newest first, and the total.
func (r assessmentRepo) Events(ctx context.Context, assessmentID uuid.UUID, offset, limit int) ([]assessments.AuditEvent, int, error) {
	if limit <= 0 {
		// No limit; SQLite takes no OFFSET without a LIMIT.
		limit = math.MaxInt
	}
	var rows []eventRow
	q := r.DB.NewSelect().Model(&rows).Where("ev.assessment_id = ?", assessmentID).
		OrderExpr("ev.created_at DESC, ev.id DESC").Offset(int64(max(offset, 0))).Limit(int64(limit))
	// ScanAndCount runs the page and the count as two statements.
	total, err := q.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, r.Translate(err, "audit events of %s", assessmentID)
	}
	return mapRows(rows, eventRow.Core), int(total), nil
}

// documentRepo is assessments.DocumentRepo.
type documentRepo struct{ base }

// Create inserts a record.
func (r documentRepo) Create(ctx context.Context, d assessments.Document) error {
	row := fromDocument(d)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "create document %s", d.ID)
}

// Get returns a record of the account.
func (r documentRepo) Get(ctx context.Context, accountID, id uuid.UUID) (assessments.Document, error) {
	var row documentRow
	if err := r.DB.NewSelect().Model(&row).Where("d.id = ? AND d.account_id = ?", id, accountID).Scan(ctx); err != nil {
		return assessments.Document{}, r.Translate(err, "document %s", id)
	}
	return row.Core(), nil
}

// ListByAssessment returns the records of an assessment, oldest first.
func (r documentRepo) ListByAssessment(ctx context.Context, assessmentID uuid.UUID) ([]assessments.Document, error) {
	var rows []documentRow
	if err := r.DB.NewSelect().Model(&rows).Where("d.assessment_id = ?", assessmentID).OrderExpr("d.created_at, d.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "documents of assessment %s", assessmentID)
	}
	return mapRows(rows, documentRow.Core), nil
}

// ListByAccount returns every record of an account.
func (r documentRepo) ListByAccount(ctx context.Context, accountID uuid.UUID) ([]assessments.Document, error) {
	var rows []documentRow
	if err := r.DB.NewSelect().Model(&rows).Where("d.account_id = ?", accountID).OrderExpr("d.created_at, d.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "documents of account %s", accountID)
	}
	return mapRows(rows, documentRow.Core), nil
}

// Update stores status and size of a record.
func (r documentRepo) Update(ctx context.Context, d assessments.Document) error {
	row := fromDocument(d)
	res, err := r.DB.NewUpdate().Model(&row).Column("status", "size_bytes", "sha256").WherePK().Exec(ctx)
	if err != nil {
		return r.Translate(err, "update document %s", d.ID)
	}
	return r.MustAffect(res, "update document %s", d.ID)
}

// Delete removes a record of the account.
func (r documentRepo) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	res, err := r.DB.NewDelete().Model((*documentRow)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete document %s", id)
	}
	return r.MustAffect(res, "delete document %s", id)
}
