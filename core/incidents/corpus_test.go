package incidents_test

import (
	"testing"

	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/incidents/incidentstest"
)

// TestCorpus scores the rule on the labelled corpus with the scan index;
// go test -v -run Corpus shows the figures. adapters/nameindex runs the
// same corpus through the Aho-Corasick index.
func TestCorpus(t *testing.T) {
	m, err := incidents.NewMatcher(incidentstest.Directory(), incidentstest.ScanIndex)
	if err != nil {
		t.Fatal(err)
	}
	incidentstest.Score(t, m).Check(t)
}
