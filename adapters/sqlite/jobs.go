package sqlite

import (
	"context"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

type runRepo struct{ bunrepo.Runs }

// GetForUpdate is Get: the unit of work holds the database's write lock
// since it began (BEGIN IMMEDIATE), so no other one can change the run
// before it ends.
func (r runRepo) GetForUpdate(ctx context.Context, id uuid.UUID) (vendors.Run, error) {
	return r.Get(ctx, id)
}

type outboxRepo struct{ bunrepo.Outbox }

// incidentRepo picks each vendor's newest incident with a correlated
// subquery (SQLite has no DISTINCT ON); it walks incidents_vendor_published_idx.
type incidentRepo struct{ bunrepo.Incidents }

func (r incidentRepo) Latest(ctx context.Context, vendorIDs []uuid.UUID) ([]vendors.Incident, error) {
	if len(vendorIDs) == 0 {
		return []vendors.Incident{}, nil
	}
	var rows []dbrow.Incident
	err := r.DB.NewSelect().Model(&rows).Where("i.vendor_id IN (?)", bun.List(vendorIDs)).
		Where("i.id = (SELECT i2.id FROM incidents AS i2 WHERE i2.vendor_id = i.vendor_id ORDER BY " +
			strings.ReplaceAll(bunrepo.NewestIncident, "i.", "i2.") + " LIMIT 1)").
		Scan(ctx)
	if err != nil {
		return nil, translate(err, "latest incidents of %d vendors", len(vendorIDs))
	}
	return dbrow.Map(rows, dbrow.Incident.Core), nil
}

// Claim takes the oldest due messages without a row lock (SQLite has none,
// and no SKIP LOCKED): relays write in turns on the database's write lock,
// so no other relay sees these messages before this unit of work ends.
func (r outboxRepo) Claim(ctx context.Context, limit int, now time.Time) ([]outbox.Message, error) {
	return r.SelectDue(ctx, limit, now, "")
}
