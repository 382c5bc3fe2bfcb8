package vendors_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/vendors"
)

// An incident is a directory event: it names no account (so it fans out to
// every account carrying the vendor), happens when the incident was
// recorded, and carries its publication time in UTC whatever zone the
// source gave.
func TestIncidentEvent(t *testing.T) {
	t.Parallel()
	recorded := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	published := time.Date(2026, 3, 4, 1, 0, 0, 0, time.FixedZone("EST", -5*3600))
	v := vendors.Vendor{ID: uuid.New(), Name: "Slack"}
	in := vendors.Incident{ID: uuid.New(), VendorID: v.ID, Title: "Breach", Severity: "high",
		URL: "https://example.com/breach", PublishedAt: published, CreatedAt: recorded}
	ev := vendors.IncidentEvent(v, in)
	if ev.Type != domainevent.IncidentCreated || !ev.ForVendor() || !ev.OccurredAt.Equal(recorded) {
		t.Fatalf("IncidentEvent = %+v", ev)
	}
	d := ev.Data
	if d.VendorID != v.ID || d.VendorName != "Slack" || d.IncidentID != in.ID || d.Title != "Breach" ||
		d.Severity != "high" || d.URL != in.URL {
		t.Fatalf("IncidentEvent data = %+v", d)
	}
	if d.PublishedAt.Location() != time.UTC || !d.PublishedAt.Equal(published) {
		t.Fatalf("PublishedAt = %v, want %v in UTC", d.PublishedAt, published)
	}
}
