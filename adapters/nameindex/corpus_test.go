package nameindex

import (
	"testing"

	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/incidents/incidentstest"
)

// TestCorpus runs the labelled corpus of core/incidents through the
// Aho-Corasick index: the figures must be those of the core's scan index.
func TestCorpus(t *testing.T) {
	ac, err := incidents.NewMatcher(incidentstest.Directory(), Build)
	if err != nil {
		t.Fatal(err)
	}
	scan, err := incidents.NewMatcher(incidentstest.Directory(), incidentstest.ScanIndex)
	if err != nil {
		t.Fatal(err)
	}
	got := incidentstest.Score(t, ac)
	got.Check(t)
	if want := incidentstest.Score(t, scan); got.All != want.All {
		t.Errorf("Aho-Corasick index: %v; scan index: %v", got.All, want.All)
	}
}
