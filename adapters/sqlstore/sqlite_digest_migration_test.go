package sqlstore_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/vetted-dev/vetted/adapters/sqlstore"
)

// TestDocumentDigestMigration takes the sha256 column away, as versions
// before 6 had it, and runs the migration twice: it adds the column once and
// is a no-op the second time.
func TestDocumentDigestMigration(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "vetted.db")
	s := mustOpen(t, path)
	raw := rawDB(t, path)
	if _, err := raw.Exec("ALTER TABLE documents DROP COLUMN sha256"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := sqlstore.RerunDocumentDigest(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM pragma_table_info('documents') WHERE name = 'sha256'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("sha256 columns = %d, %v; want 1", n, err)
	}
}
