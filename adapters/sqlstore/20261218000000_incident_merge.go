package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// registerIncidentMerge adds incidents.match and incidents.sources: the
// evidence that tied an item of a platform-wide source to the vendor (null
// when none) and every item merged into the incident (an empty array for
// the incidents written before, which read as the one item of their
// source, url and published_at). Go, not SQL, so that it is safe to run
// twice (as registerListVersion); the tables of the incidents area follow
// in 20261218000100_incident_store.tx.up.sql.
func registerIncidentMerge(ms *migrate.Migrations) error {
	return ms.Register(incidentMergeUp, nil)
}

func incidentMergeUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return addColumns(ctx, tx, "incidents", column{"match", "TEXT"}, column{"sources", "TEXT NOT NULL DEFAULT '[]'"})
	})
}
