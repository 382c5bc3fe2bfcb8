package sqlstore_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestProfileListColumnsMigrationSQLite: a profile saved before the list columns
// existed (they are taken away here) reads on its list with its section
// state and rating once the migration has run, twice over.
func TestProfileListColumnsMigrationSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vetted.db")
	s := mustOpen(t, path)
	now := time.Now().UTC()
	acc := org(t, "Acme")
	l, err := lists.New(uuid.New(), acc.ID, lists.MasterList, now)
	if err != nil {
		t.Fatal(err)
	}
	v, err := vendors.New(uuid.New(), "Slack", "https://slack.com", now)
	if err != nil {
		t.Fatal(err)
	}
	err = s.InTx(ctx, func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Accounts().Create(ctx, acc); err != nil {
			return err
		}
		if err := tx.Lists().Create(ctx, l); err != nil {
			return err
		}
		vs, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{v})
		if err != nil {
			return err
		}
		v = vs[0]
		p := vendors.NewProfile(uuid.New(), v.ID, now)
		clear(p.Enrichment)
		p.Enrichment[vendors.SectionBasic] = vendors.SectionStatus{Status: "done", UpdatedAt: now}
		p.Enrichment[vendors.SectionSecurity] = vendors.SectionStatus{Status: "failed", UpdatedAt: now}
		p.Scores.SecurityRating = new(72)
		if err := tx.Profiles().Save(ctx, p); err != nil {
			return err
		}
		return tx.Lists().AddEntries(ctx, l.ID, []uuid.UUID{v.ID}, now)
	})
	if err != nil {
		t.Fatal(err)
	}
	raw := rawDB(t, path)
	for _, c := range []string{"section_statuses", "security_rating"} {
		if _, err := raw.Exec("ALTER TABLE profiles DROP COLUMN " + c); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if err := sqlstore.RerunProfileListColumns(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	var es []lists.Entry
	if err := s.View(ctx, func(ctx context.Context, tx stores.Tx) (err error) {
		es, err = tx.Lists().Entries(ctx, l.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(es) != 1 || es[0].EnrichmentStatus != "failed" || es[0].Rating == nil || *es[0].Rating != 72 {
		t.Fatalf("entry after the migration: %+v", es)
	}
}
