package obs_test

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/core/incidents"
)

// TestIncidentSourceMetrics: each call to the incidents' Metrics port
// increments vetted_incident_source_fetch_total for its source and
// result; a nil Metrics counts nothing and does not panic.
func TestIncidentSourceMetrics(t *testing.T) {
	t.Parallel()
	m := obs.NewMetrics()
	var port incidents.Metrics = m
	port.SourceFetched(incidents.SourceKEV, incidents.FetchOK)
	port.SourceFetched(incidents.SourceKEV, incidents.FetchOK)
	port.SourceFetched(incidents.SourceNews, incidents.FetchNotModified)
	port.SourceFetched(incidents.SourceBreach, incidents.FetchError)
	want := `
# HELP vetted_incident_source_fetch_total Reads of the platform-wide incident sources, by source (news, kev, breach, filing) and result (ok, not_modified, error).
# TYPE vetted_incident_source_fetch_total counter
vetted_incident_source_fetch_total{result="error",source="breach"} 1
vetted_incident_source_fetch_total{result="not_modified",source="news"} 1
vetted_incident_source_fetch_total{result="ok",source="kev"} 2
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "vetted_incident_source_fetch_total"); err != nil {
		t.Fatal(err)
	}
	var none *obs.Metrics
	none.SourceFetched(incidents.SourceKEV, incidents.FetchOK)
}
