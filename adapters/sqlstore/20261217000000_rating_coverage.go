package sqlstore

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// registerRatingCoverage adds rating_history.checks_run and checks_total
// (issue 31): how many of a scan's checks ran, of how many, so that the
// console shows each scan's grade with it and withholds a grade made from
// too few. Null for the scans recorded before: their coverage is unknown.
// Go, not SQL, so that it is safe to run twice (as registerListVersion).
func registerRatingCoverage(ms *migrate.Migrations) error {
	return ms.Register(ratingCoverageUp, nil)
}

func ratingCoverageUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return addColumns(ctx, tx, "rating_history", column{"checks_run", "INTEGER"}, column{"checks_total", "INTEGER"})
	})
}
