package vendors

import (
	"context"
	"time"
)

// The driven ports of the directory: what scans a vendor's public
// surface (Enricher, adapters/enrich), finds the website of a vendor known
// by name only (WebsiteFinder), fetches its published incidents
// (IncidentSource, adapters/feeds) and remembers read views
// (VendorViews, adapters/dircache).

// EnrichResult is what an enricher found for one vendor.
type EnrichResult struct {
	// Profile is the updated profile; the enricher starts from the current one.
	Profile Profile
	// Instances replaces the vendor's security instances when non-nil: the
	// complete result of one scan, with a not-checked signal for every
	// check that could not run (see Checks).
	Instances []SecurityInstance
}

// Enricher fills profile sections from public sources. It records per-section
// status in Profile.Enrichment (including refusals and failures) and returns
// an error only when nothing could be done at all. The scores section is not
// the enricher's: the core rates the security instances (Rate), so the
// enricher is never asked for it.
type Enricher interface {
	Enrich(ctx context.Context, v Vendor, current Profile, sections []Section) (EnrichResult, error)
}

// WebsiteFinder discovers the website of a vendor known by name only
// (website discovery). It returns the evidence whether or not a website
// was found, and an error only when ctx ended or nothing could be tried.
type WebsiteFinder interface {
	FindWebsite(ctx context.Context, name Name) (WebsiteDiscovery, error)
}

// IncidentSource fetches incidents published for a vendor since a time.
type IncidentSource interface {
	Fetch(ctx context.Context, v Vendor, since time.Time) ([]Incident, error)
}

// VendorViews reads a directory entry with its profile by the reference a
// request named it by. The directory use cases read vendors through it:
// the store itself, or a cache an adapter puts in front of the store (the
// directory is global and read far more often than it is written). A view
// it returns may be shared: callers must not modify it. Errors are those of
// the lookup: core.ErrNotFound for an unknown vendor.
type VendorViews interface {
	View(ctx context.Context, ref Ref) (View, error)
}
