package app

import (
	"github.com/vetted-dev/vetted/adapters/incidentfeeds"
	"github.com/vetted-dev/vetted/core/incidents"
)

// IncidentFeeds is what the polling of the platform-wide incident sources
// needs from the composition root: the reader of the sources, the
// endpoints configured (Config.IncidentSources: VETTED_NEWS_FEEDS,
// VETTED_KEV_URL, VETTED_BREACHES_URL, VETTED_SEC_FILINGS_URL) and the
// counter of the reads (vetted_incident_source_fetch_total on the app's
// registry). Endpoints is empty when every source is off; the reader is
// built all the same.
type IncidentFeeds struct {
	Reader    incidents.SourceReader
	Endpoints []incidents.Endpoint
	Metrics   incidents.Metrics
}

// newIncidentFeeds builds the IncidentFeeds of cfg. The reader fetches
// through the SSRF-safe fetcher every outbound fetch uses (private and
// loopback addresses only with VETTED_FETCH_ALLOW_PRIVATE; the scan's
// resolver and roots when set), but with incidentfeeds' time bound when
// that is longer than VETTED_SCAN_TIMEOUT: the fetcher's bound covers the
// whole body, and a catalog of a few MiB must not fail on a slow link
// because a scan's handshake is bounded tighter.
func newIncidentFeeds(a *App, cfg Config) (IncidentFeeds, error) {
	fc := cfg
	fc.ScanTimeout = max(cfg.ScanTimeout, incidentfeeds.DefaultTimeout)
	f, err := a.fetcher(fc)
	if err != nil {
		return IncidentFeeds{}, err
	}
	r, err := incidentfeeds.New(f, incidentfeeds.Config{})
	if err != nil {
		return IncidentFeeds{}, err
	}
	endpoints := append([]incidents.Endpoint{}, cfg.IncidentSources...)
	return IncidentFeeds{Reader: r, Endpoints: endpoints, Metrics: a.Metrics}, nil
}
