package postgres

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/document"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/ports"
)

type assessmentRepo struct{ db bun.IDB }

func (r assessmentRepo) Get(ctx context.Context, accountID, id uuid.UUID) (review.Assessment, error) {
	var row dbrow.Assessment
	if err := r.db.NewSelect().Model(&row).Where("s.id = ? AND s.account_id = ?", id, accountID).Scan(ctx); err != nil {
		return review.Assessment{}, translate(err, "assessment %s", id)
	}
	return row.Core()
}

func (r assessmentRepo) ListByVendors(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]review.Assessment, error) {
	if len(vendorIDs) == 0 {
		return []review.Assessment{}, nil
	}
	var rows []dbrow.Assessment
	err := r.db.NewSelect().Model(&rows).Where("s.list_id = ?", listID).Where("s.vendor_id IN (?)", bun.In(vendorIDs)).
		OrderExpr("s.vendor_name" + collateC + ", s.id").Scan(ctx)
	if err != nil {
		return nil, translate(err, "assessments of list %s", listID)
	}
	return dbrow.Assessments(rows)
}

func (r assessmentRepo) Find(ctx context.Context, f ports.AssessmentFilter) ([]review.Assessment, error) {
	var rows []dbrow.Assessment
	q := r.db.NewSelect().Model(&rows).Where("s.account_id = ?", f.AccountID)
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
	if err := q.OrderExpr("s.updated_at DESC, s.id DESC").Scan(ctx); err != nil {
		return nil, translate(err, "find assessments")
	}
	return dbrow.Assessments(rows)
}

// Save upserts every assessment in one statement. An existing one keeps its
// account, list, vendor and creation stamp; a new one colliding with another
// on (list, vendor) fails on the unique index, which translate makes a conflict.
func (r assessmentRepo) Save(ctx context.Context, as []review.Assessment) error {
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
	_, err := r.db.NewInsert().Model(&rows).
		On("CONFLICT (id) DO UPDATE").
		Set("vendor_profile_id = EXCLUDED.vendor_profile_id, vendor_name = EXCLUDED.vendor_name, status = EXCLUDED.status").
		Set("conditional_approval_condition = EXCLUDED.conditional_approval_condition").
		Set("sponsor_business_department = EXCLUDED.sponsor_business_department, sponsor_contact = EXCLUDED.sponsor_contact").
		Set("use_case = EXCLUDED.use_case, data_collected = EXCLUDED.data_collected, compliance_comment = EXCLUDED.compliance_comment").
		Set("updated_at = EXCLUDED.updated_at, updated_by = EXCLUDED.updated_by").
		Exec(ctx)
	return translate(err, "save assessments")
}

func (r assessmentRepo) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	// Audit events and document records go with it by ON DELETE CASCADE.
	res, err := r.db.NewDelete().Model((*dbrow.Assessment)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return translate(err, "delete assessment %s", id)
	}
	return mustAffect(res, "delete assessment %s", id)
}

func (r assessmentRepo) AppendEvents(ctx context.Context, es []review.AuditEvent) error {
	if len(es) == 0 {
		return nil
	}
	rows := make([]dbrow.Event, 0, len(es))
	for _, e := range es {
		rows = append(rows, dbrow.FromEvent(e))
	}
	_, err := r.db.NewInsert().Model(&rows).Exec(ctx)
	return translate(err, "append audit events")
}

func (r assessmentRepo) Events(ctx context.Context, assessmentID uuid.UUID, offset, limit int) ([]review.AuditEvent, int, error) {
	var rows []dbrow.Event
	q := r.db.NewSelect().Model(&rows).Where("ev.assessment_id = ?", assessmentID).
		OrderExpr("ev.created_at DESC, ev.id DESC").Offset(int64(max(offset, 0)))
	if limit > 0 {
		q = q.Limit(int64(limit))
	}
	// ScanAndCount runs the page and the count as two statements.
	total, err := q.ScanAndCount(ctx)
	if err != nil {
		return nil, 0, translate(err, "audit events of %s", assessmentID)
	}
	out := make([]review.AuditEvent, 0, len(rows))
	for _, row := range rows {
		out = append(out, row.Core())
	}
	return out, int(total), nil
}

type documentRepo struct{ db bun.IDB }

func (r documentRepo) Create(ctx context.Context, d document.Document) error {
	row := dbrow.FromDocument(d)
	_, err := r.db.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create document %s", d.ID)
}

func (r documentRepo) Get(ctx context.Context, accountID, id uuid.UUID) (document.Document, error) {
	var row dbrow.Document
	if err := r.db.NewSelect().Model(&row).Where("d.id = ? AND d.account_id = ?", id, accountID).Scan(ctx); err != nil {
		return document.Document{}, translate(err, "document %s", id)
	}
	return row.Core(), nil
}

func (r documentRepo) ListByAssessment(ctx context.Context, assessmentID uuid.UUID) ([]document.Document, error) {
	var rows []dbrow.Document
	if err := r.db.NewSelect().Model(&rows).Where("d.assessment_id = ?", assessmentID).OrderExpr("d.created_at, d.id").Scan(ctx); err != nil {
		return nil, translate(err, "documents of assessment %s", assessmentID)
	}
	return dbrow.Map(rows, dbrow.Document.Core), nil
}

func (r documentRepo) ListByAccount(ctx context.Context, accountID uuid.UUID) ([]document.Document, error) {
	var rows []dbrow.Document
	if err := r.db.NewSelect().Model(&rows).Where("d.account_id = ?", accountID).OrderExpr("d.created_at, d.id").Scan(ctx); err != nil {
		return nil, translate(err, "documents of account %s", accountID)
	}
	return dbrow.Map(rows, dbrow.Document.Core), nil
}

func (r documentRepo) Update(ctx context.Context, d document.Document) error {
	row := dbrow.FromDocument(d)
	res, err := r.db.NewUpdate().Model(&row).Column("status", "size_bytes").WherePK().Exec(ctx)
	if err != nil {
		return translate(err, "update document %s", d.ID)
	}
	return mustAffect(res, "update document %s", d.ID)
}

func (r documentRepo) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	res, err := r.db.NewDelete().Model((*dbrow.Document)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return translate(err, "delete document %s", id)
	}
	return mustAffect(res, "delete document %s", id)
}
