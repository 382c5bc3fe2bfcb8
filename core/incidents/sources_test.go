package incidents

import "testing"

func TestEndpointAndBatch(t *testing.T) {
	for _, k := range []Source{SourceNews, SourceKEV, SourceBreach, SourceFiling} {
		if !k.Valid() {
			t.Errorf("%q is not valid", k)
		}
	}
	for _, k := range []Source{"", "breaches", "rss"} {
		if k.Valid() {
			t.Errorf("%q is valid", k)
		}
	}
	e := Endpoint{Kind: SourceKEV, URL: "https://www.cisa.gov/kev.json"}
	if got := e.String(); got != "kev https://www.cisa.gov/kev.json" {
		t.Errorf("String() = %q", got)
	}
	b := Batch{News: make([]NewsItem, 2), Filings: make([]Filing, 1)}
	if b.Len() != 3 {
		t.Errorf("Len() = %d, want 3", b.Len())
	}
}
