package sqlstore_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestRatingCoverageMigrationSQLite: a scan recorded before the coverage was kept
// (the columns are taken away here) reads with its coverage unknown (nil),
// not as 0 checks, once the migration has run, twice over.
func TestRatingCoverageMigrationSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vetted.db")
	s := mustOpen(t, path)
	now := time.Now().UTC()
	v, err := vendors.New(uuid.New(), "Slack", "https://slack.com", now)
	if err != nil {
		t.Fatal(err)
	}
	rating, run, total := 85, 20, 26
	before := vendors.RatingRecord{ID: uuid.New(), ScannedAt: now, Rating: &rating, Grade: "B", ChecksRun: &run, ChecksTotal: &total}
	if err := s.InTx(ctx, func(ctx context.Context, tx stores.Tx) error {
		vs, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{v})
		if err != nil {
			return err
		}
		before.VendorID = vs[0].ID
		return tx.Profiles().AddRating(ctx, before)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := rawDB(t, path).Exec("ALTER TABLE rating_history DROP COLUMN checks_run; ALTER TABLE rating_history DROP COLUMN checks_total"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := sqlstore.RerunRatingCoverage(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var got vendors.RatingRecord
	if err := s.View(ctx, func(ctx context.Context, tx stores.Tx) (err error) {
		got, err = tx.Profiles().GetRating(ctx, before.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got.ChecksRun != nil || got.ChecksTotal != nil || got.Grade != "B" {
		t.Fatalf("a scan from before: coverage %v of %v, grade %q, want unknown", got.ChecksRun, got.ChecksTotal, got.Grade)
	}
}
