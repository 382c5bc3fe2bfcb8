package sqlstore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vetted-dev/vetted/adapters/sqlstore"
)

// TestReviewLifecycleMigrationRunsTwice: the migration that adds the
// review columns is safe to run again on a schema that has them (SQLite has
// no ADD COLUMN IF NOT EXISTS, so it looks before it adds).
func TestReviewLifecycleMigrationRunsTwice(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "vetted.db")
	s := mustOpen(t, path)
	ctx := context.Background()
	for range 2 {
		if err := sqlstore.RerunReviewLifecycle(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := rawDB(t, path).QueryRow("SELECT count(*) FROM pragma_table_info('assessments') WHERE name IN ('tier', 'condition_due_at', 'last_reviewed_at')").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Fatalf("%d of the 3 review columns", n)
	}
}
