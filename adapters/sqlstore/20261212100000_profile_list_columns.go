package sqlstore

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// registerProfileListColumns adds the plain columns a list read takes from
// each vendor's profile (issue 24): the status of each enrichment section
// (a JSON array of strings) and the security rating, written with every
// save so that a list of 500 parses no JSON object per entry, and fills
// them for the profiles saved before. Go, not SQL, so that it is safe to
// run twice: SQLite has no ADD COLUMN IF NOT EXISTS.
func registerProfileListColumns(ms *migrate.Migrations) error {
	return ms.Register(profileListColumnsUp, nil)
}

func profileListColumnsUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := addColumns(ctx, tx, "profiles", column{"section_statuses", "TEXT NOT NULL DEFAULT '[]'"}, column{"security_rating", "INTEGER"}); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE profiles SET
	section_statuses = coalesce((SELECT json_group_array(json_extract(s.value, '$.status'))
		FROM (SELECT value FROM json_each(profiles.enrichment) ORDER BY key) AS s), '[]'),
	security_rating = json_extract(scores, '$.security_rating')`)
		if err != nil {
			return fmt.Errorf("fill profiles.section_statuses and security_rating: %w", err)
		}
		return nil
	})
}
