package obs

import "github.com/vetted-dev/vetted/core/incidents"

// Metrics is the incidents area's Metrics port: the poller reports each
// read of a source, exported as vetted_incident_source_fetch_total.
var _ incidents.Metrics = (*Metrics)(nil)

// SourceFetched counts one read of a platform-wide incident source by its
// kind and result (incidents.FetchOK, FetchNotModified, FetchError). A nil
// Metrics counts nothing.
func (m *Metrics) SourceFetched(source incidents.Source, result string) {
	if m == nil {
		return
	}
	m.sourceFetches.WithLabelValues(string(source), result).Inc()
}
