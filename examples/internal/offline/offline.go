// Package offline holds do-nothing adapters for examples that run without
// a network: no blobs, no enrichment, no incidents.
package offline

import (
	"context"
	"time"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendor"
	"github.com/vetted-dev/vetted/ports"
)

// Blobs stores nothing.
type Blobs struct{}

// PresignPut refuses: the example has no blob store.
func (Blobs) PresignPut(context.Context, string, string, int64, time.Duration) (ports.PresignedRequest, error) {
	return ports.PresignedRequest{}, core.ErrUnavailable
}

// PresignGet refuses.
func (Blobs) PresignGet(context.Context, string, string, time.Duration) (ports.PresignedRequest, error) {
	return ports.PresignedRequest{}, core.ErrUnavailable
}

// Stat finds nothing.
func (Blobs) Stat(context.Context, string) (int64, error) { return 0, core.ErrNotFound }

// Delete does nothing.
func (Blobs) Delete(context.Context, ...string) error { return nil }

// Enricher marks every section skipped.
type Enricher struct{}

// Enrich implements ports.Enricher.
func (Enricher) Enrich(_ context.Context, _ vendor.Vendor, p vendor.Profile, secs []vendor.Section) (ports.EnrichResult, error) {
	if p.Enrichment == nil {
		p.Enrichment = map[vendor.Section]vendor.SectionStatus{}
	}
	for _, s := range secs {
		p.Enrichment[s] = vendor.SectionStatus{Status: "skipped", Source: "offline example", UpdatedAt: time.Now().UTC()}
	}
	return ports.EnrichResult{Profile: p}, nil
}

// Incidents knows none.
type Incidents struct{}

// Fetch implements ports.IncidentSource.
func (Incidents) Fetch(context.Context, vendor.Vendor, time.Time) ([]vendor.Incident, error) {
	return nil, nil
}
