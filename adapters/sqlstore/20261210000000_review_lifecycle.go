package sqlstore

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// registerReviewLifecycle adds schema version 5 (issue 22): an assessment's
// tier, the date by which the condition of a conditional approval must be
// met, and when its status last became approved, conditional approval or
// rejected. It is Go, not SQL, because SQLite has no ADD COLUMN IF NOT
// EXISTS: it adds only the columns that are missing, so that it is safe to
// run twice (a process that died between the commit and bun's record).
// bun names the migration after this file.
func registerReviewLifecycle(ms *migrate.Migrations) error {
	return ms.Register(reviewLifecycleUp, nil)
}

func reviewLifecycleUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var have []string
		if err := tx.NewRaw("SELECT name FROM pragma_table_info('assessments')").Scan(ctx, &have); err != nil {
			return fmt.Errorf("columns of assessments: %w", err)
		}
		known := map[string]bool{}
		for _, c := range have {
			known[c] = true
		}
		for _, c := range []struct{ name, def string }{
			{"tier", "TEXT NOT NULL DEFAULT ''"},
			{"condition_due_at", "TEXT"},
			{"last_reviewed_at", "TEXT"},
		} {
			if known[c.name] {
				continue
			}
			if _, err := tx.ExecContext(ctx, "ALTER TABLE assessments ADD COLUMN "+c.name+" "+c.def); err != nil {
				return fmt.Errorf("add assessments.%s: %w", c.name, err)
			}
		}
		// Decided before this version: the last save is the best record there is.
		_, err := tx.ExecContext(ctx, `UPDATE assessments SET last_reviewed_at = updated_at
 WHERE last_reviewed_at IS NULL AND status IN ('approved', 'conditional approval', 'rejected')`)
		return err
	})
}
