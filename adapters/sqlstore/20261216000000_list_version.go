package sqlstore

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// registerListVersion adds lists.version (issue 31): the count of changes
// to a list's entries, which every entry write adds one to in its unit of
// work. It is the list's revision, answered as the ETag of a list read and
// checked against If-Match, so that an edit made on a stale read is refused
// rather than undoing what another person saved meanwhile. And
// list_entries.given_name: the name a vendor was added under when it is not
// the directory's ("Acme Corp" for Acme), shown as the entry's
// display_name; empty when the same. Go, not SQL, so that it is safe to run
// twice: SQLite has no ADD COLUMN IF NOT EXISTS.
func registerListVersion(ms *migrate.Migrations) error {
	return ms.Register(listVersionUp, nil)
}

func listVersionUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := addColumns(ctx, tx, "lists", column{"version", "INTEGER NOT NULL DEFAULT 0"}); err != nil {
			return err
		}
		return addColumns(ctx, tx, "list_entries", column{"given_name", "TEXT NOT NULL DEFAULT ''"})
	})
}

// column is a column a migration adds: its name and its definition.
type column struct{ name, def string }

// addColumns adds the columns table lacks.
func addColumns(ctx context.Context, tx bun.Tx, table string, cs ...column) error {
	for _, c := range cs {
		var n int
		if err := tx.NewRaw("SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", table, c.name).Scan(ctx, &n); err != nil {
			return fmt.Errorf("columns of %s: %w", table, err)
		}
		if n > 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, "ALTER TABLE "+table+" ADD COLUMN "+c.name+" "+c.def); err != nil {
			return fmt.Errorf("add %s.%s: %w", table, c.name, err)
		}
	}
	return nil
}
