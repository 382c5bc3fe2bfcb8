package postgres

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/vendors"
)

// incidentRepo is the shared incident repository with PostgreSQL's own
// Latest.
type incidentRepo struct{ bunrepo.Incidents }

// Latest picks each vendor's newest incident with DISTINCT ON, which keeps
// the first row of each vendor in the given order.
func (r incidentRepo) Latest(ctx context.Context, vendorIDs []uuid.UUID) ([]vendors.Incident, error) {
	if len(vendorIDs) == 0 {
		return []vendors.Incident{}, nil
	}
	var rows []dbrow.Incident
	err := r.DB.NewSelect().Model(&rows).DistinctOn("i.vendor_id").Where("i.vendor_id IN (?)", bun.List(vendorIDs)).
		OrderExpr("i.vendor_id, " + bunrepo.NewestIncident).Scan(ctx)
	if err != nil {
		return nil, translate(err, "latest incidents of %d vendors", len(vendorIDs))
	}
	return dbrow.Map(rows, dbrow.Incident.Core), nil
}
