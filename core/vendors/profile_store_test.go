package vendors_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendors"
)

func TestIncidentFromStoreRebuildsWhatNewIncidentMade(t *testing.T) {
	// NewIncident keeps the times it is given: a caller gives UTC ones.
	published, created := time.Date(2026, 6, 1, 3, 0, 0, 0, time.UTC), time.Date(2026, 6, 2, 4, 0, 0, 0, time.UTC)
	for _, in := range []vendors.Incident{
		{ID: uuid.New(), VendorID: uuid.New(), Title: " Breach  at Acme ", PublishedAt: published, CreatedAt: created},
		{ID: uuid.New(), VendorID: uuid.New(), Title: "Outage", Summary: "s", IncidentType: "outage", AffectedService: "api",
			PotentiallyImpactedData: []string{"emails"}, Status: "resolved", Severity: "high", URL: "https://status.acme.example/1",
			Source: "feed", ExternalID: "ext-1", PublishedAt: published, Backfilled: true, CreatedAt: created},
	} {
		made, err := vendors.NewIncident(in)
		if err != nil {
			t.Fatal(err)
		}
		stored := made
		stored.PublishedAt, stored.CreatedAt = made.PublishedAt.In(readZone), made.CreatedAt.In(readZone)
		if len(stored.PotentiallyImpactedData) == 0 {
			stored.PotentiallyImpactedData = nil // as a null column reads
		}
		if got := vendors.IncidentFromStore(stored); !reflect.DeepEqual(got, made) {
			t.Errorf("rebuilt %#v, want %#v", got, made)
		}
	}
}

func TestIncidentFromStoreReadsIncidentsNewIncidentRefuses(t *testing.T) {
	at := time.Date(2026, 6, 1, 3, 0, 0, 0, time.UTC)
	for _, old := range []vendors.Incident{
		{ID: uuid.New(), VendorID: uuid.New(), Title: "", Severity: "high", Status: "open", Source: "feed", ExternalID: "e1", PotentiallyImpactedData: []string{}, PublishedAt: at, CreatedAt: at},
		{ID: uuid.New(), VendorID: uuid.New(), Title: "Old", Severity: "positive", Status: "open", Source: "feed", ExternalID: "e2", PotentiallyImpactedData: []string{}, PublishedAt: at, CreatedAt: at},
	} {
		if _, err := vendors.NewIncident(old); err == nil {
			t.Fatalf("NewIncident(%q, %q) accepted it; pick an incident it refuses", old.Title, old.Severity)
		}
		// A row written before incidents had sources reads with the one
		// item it was made of, and no merge keys.
		want := old
		want.Sources = []vendors.IncidentItem{{Source: old.Source, URL: old.URL, PublishedAt: old.PublishedAt}}
		want.Keys = []string{}
		if got := vendors.IncidentFromStore(old); !reflect.DeepEqual(got, want) {
			t.Errorf("IncidentFromStore(%q, %q) = %#v, want it as stored", old.Title, old.Severity, got)
		}
	}
}
