package records_test

import (
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core/records"
)

func TestNormalizeLinks(t *testing.T) {
	for _, c := range []struct {
		name   string
		in     records.Links
		want   records.Links
		fields []string
	}{
		{"all empty", records.Links{}, records.Links{}, nil},
		{"https and http, trimmed", records.Links{TrustPage: " https://trust.zeta.example ", SLA: "http://zeta.example/sla?x=1#a"},
			records.Links{TrustPage: "https://trust.zeta.example", SLA: "http://zeta.example/sla?x=1#a"}, nil},
		{"blank is empty", records.Links{DPA: "   "}, records.Links{}, nil},
		{"no scheme", records.Links{DPA: "zeta.example/dpa"}, records.Links{}, []string{"links.dpa"}},
		{"ftp", records.Links{Terms: "ftp://zeta.example/terms"}, records.Links{}, []string{"links.terms"}},
		{"javascript", records.Links{TrustPage: "javascript:alert(1)"}, records.Links{}, []string{"links.trust_page"}},
		{"mailto", records.Links{SLA: "mailto:a@zeta.example"}, records.Links{}, []string{"links.sla"}},
		{"no host", records.Links{SLA: "https:///path"}, records.Links{}, []string{"links.sla"}},
		{"inner space", records.Links{SLA: "https://zeta.example/a b"}, records.Links{}, []string{"links.sla"}},
		{"too long", records.Links{DPA: "https://zeta.example/" + strings.Repeat("a", records.MaxLinkLength)}, records.Links{}, []string{"links.dpa"}},
		{"each bad one named", records.Links{TrustPage: "x", DPA: "y", Terms: "https://ok.example", SLA: "z"}, records.Links{},
			[]string{"links.trust_page", "links.dpa", "links.sla"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := records.NormalizeLinks(c.in)
			if strings.Join(fields(err), ",") != strings.Join(c.fields, ",") {
				t.Fatalf("fields = %v, want %v (%v)", fields(err), c.fields, err)
			}
			if err == nil && got != c.want {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
