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

// incidentBefore is an incident as stored before incidents had sources.
func incidentBefore(vendorID uuid.UUID, at time.Time) vendors.Incident {
	return vendors.Incident{ID: uuid.New(), VendorID: vendorID, Title: "Outage", Severity: "high", Source: "statuspage",
		ExternalID: "1", URL: "https://status.example/1", PublishedAt: at, CreatedAt: at, PotentiallyImpactedData: []string{}}
}

// checkIncidentBefore: an incident written before incidents had a match and sources (the
// columns are taken away here) reads, once the migrations have run twice
// over, with no match and the one item of its source, url and published_at;
// its keys are the ones written after.
func checkIncidentBefore(t *testing.T, s stores.Store, before vendors.Incident) {
	t.Helper()
	ctx := context.Background()
	var got vendors.Incident
	if err := s.View(ctx, func(ctx context.Context, tx stores.Tx) (err error) {
		got, err = tx.Incidents().Get(ctx, before.ID)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got.Match != nil || len(got.Sources) != 1 || got.Keys == nil || len(got.Keys) != 0 {
		t.Fatalf("an incident from before: match %v, sources %v, keys %v; want none, its one item, none", got.Match, got.Sources, got.Keys)
	}
	if it := got.Sources[0]; it.Source != before.Source || it.URL != before.URL || !it.PublishedAt.Equal(before.PublishedAt) {
		t.Fatalf("an incident from before: item %+v, want its source, url and published_at", it)
	}
	after := before
	after.Keys = []string{"url:" + before.URL}
	if err := s.InTx(ctx, func(ctx context.Context, tx stores.Tx) error { return tx.Incidents().Update(ctx, after) }); err != nil {
		t.Fatal(err)
	}
	var found []vendors.Incident
	if err := s.View(ctx, func(ctx context.Context, tx stores.Tx) (err error) {
		found, err = tx.Incidents().WithKeys(ctx, before.VendorID, after.Keys)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].ID != before.ID {
		t.Fatalf("by its new key: %v, want the incident", found)
	}
}

// TestIncidentMergeMigrationSQLite: see checkIncidentBefore.
func TestIncidentMergeMigrationSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "vetted.db")
	s := mustOpen(t, path)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	v, err := vendors.New(uuid.New(), "Slack", "https://slack.com", now)
	if err != nil {
		t.Fatal(err)
	}
	var before vendors.Incident
	if err := s.InTx(ctx, func(ctx context.Context, tx stores.Tx) error {
		vs, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{v})
		if err != nil {
			return err
		}
		before = incidentBefore(vs[0].ID, now)
		return tx.Incidents().Create(ctx, before)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := rawDB(t, path).Exec(`ALTER TABLE incidents DROP COLUMN "match"; ALTER TABLE incidents DROP COLUMN sources`); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := sqlstore.RerunIncidentMerge(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := sqlstore.RerunMigration(ctx, s, "20261218000100_incident_store.tx.up.sql"); err != nil {
			t.Fatal(err)
		}
	}
	checkIncidentBefore(t, s, before)
}
