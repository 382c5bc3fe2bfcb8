package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/vendor"
)

// grcRow is one assessment of a vendor's GRC history. The assessment is
// kept whole as JSON, as profiles.latest_grc is; assessed_at is copied out
// for ordering. The identity column orders assessments of equal time.
type grcRow struct {
	bun.BaseModel `bun:"table:grc_assessments,alias:g"`

	ID         int64                `bun:"id,pk,autoincrement"`
	VendorID   uuid.UUID            `bun:"vendor_id"`
	Assessment vendor.GRCAssessment `bun:"assessment,type:jsonb"`
	AssessedAt time.Time            `bun:"assessed_at"`
}

func (r profileRepo) AddGRCAssessment(ctx context.Context, vendorID uuid.UUID, a vendor.GRCAssessment) error {
	row := grcRow{VendorID: vendorID, Assessment: a, AssessedAt: a.AssessedAt}
	_, err := r.db.NewInsert().Model(&row).ExcludeColumn("id").Exec(ctx)
	return translate(err, "add GRC assessment of vendor %s", vendorID)
}

func (r profileRepo) GRCAssessments(ctx context.Context, vendorID uuid.UUID) ([]vendor.GRCAssessment, error) {
	var rows []grcRow
	err := r.db.NewSelect().Model(&rows).Where("g.vendor_id = ?", vendorID).OrderExpr("g.assessed_at DESC, g.id DESC").Scan(ctx)
	if err != nil {
		return nil, translate(err, "GRC assessments of vendor %s", vendorID)
	}
	return mapRows(rows, func(r grcRow) vendor.GRCAssessment { return r.Assessment }), nil
}
