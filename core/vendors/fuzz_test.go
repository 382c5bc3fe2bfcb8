package vendors_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
)

// Canonical names are plain text, bounded, and a fixed point: parsing a
// canonical name gives it back.
func FuzzParseName(f *testing.F) {
	for _, s := range []string{"Slack, Inc.", "Zoom Video Communications LLC", "  Acme \t Corp ", "S.A.", "Inc", "GmbH GmbH",
		"Prüf GmbH", "東京 株式会社", "a\x00b", "x\u0085y", strings.Repeat("n", 201), "Co.", "B.V. N.V."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		n, err := vendors.ParseName(raw)
		if err != nil {
			if !errors.Is(err, core.ErrInvalid) {
				t.Fatalf("ParseName(%q): %v is not a validation error", raw, err)
			}
			return
		}
		s := n.String()
		if s == "" || utf8.RuneCountInString(s) > vendors.MaxNameLen || !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
			t.Fatalf("ParseName(%q) = %q: not a canonical name", raw, s)
		}
		if s != strings.TrimSpace(s) || strings.Contains(s, "  ") {
			t.Fatalf("ParseName(%q) = %q: white space not folded", raw, s)
		}
		again, err := vendors.ParseName(s)
		if err != nil || again != n {
			t.Fatalf("ParseName is not a fixed point: %q -> %q -> %q, %v", raw, n, again, err)
		}
		if n.Key() != strings.ToLower(s) {
			t.Fatalf("Key(%q) = %q", s, n.Key())
		}
	})
}

// A website either is refused as invalid or comes back as an http(s) URL
// with a domain, and normalizing it again changes nothing.
func FuzzNormalizeWebsite(f *testing.F) {
	for _, s := range []string{"slack.com", "https://www.Figma.com/path?q=1#frag", "http://10.0.0.1:8080", "ftp://x.example", "https://user:pw@x.example",
		"localhost", "//x.example", "https://", "HTTPS://WWW.EXAMPLE.COM", "[::1]", "https://[::1]:443/", "x.example\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		site, domain, err := vendors.NormalizeWebsite(raw)
		if err != nil {
			if !errors.Is(err, core.ErrInvalid) {
				t.Fatalf("NormalizeWebsite(%q): %v is not a validation error", raw, err)
			}
			return
		}
		if strings.TrimSpace(raw) == "" {
			if site != "" || domain != "" {
				t.Fatalf("blank input gave %q %q", site, domain)
			}
			return
		}
		if !strings.HasPrefix(site, "http://") && !strings.HasPrefix(site, "https://") || domain == "" || len(site) > 2000 {
			t.Fatalf("NormalizeWebsite(%q) = %q, %q", raw, site, domain)
		}
		site2, domain2, err := vendors.NormalizeWebsite(site)
		if err != nil || site2 != site || domain2 != domain {
			t.Fatalf("not idempotent: %q -> %q (%q) -> %q (%q), %v", raw, site, domain, site2, domain2, err)
		}
	})
}

// A merge patch either applies, leaving a profile that still encodes, or is
// refused as invalid and changes nothing.
func FuzzApplyPatch(f *testing.F) {
	for _, s := range []string{`{"company":{"industry":"Chat"}}`, `{"company":{"founded_year":null,"alias":["a"]}}`,
		`{"security":{"external_signals":{"tls":true}}}`, `{"privacy":{"gdpr_compliant":"yes"}}`, `{"scores":{"grade":"A"}}`,
		`{"company":"x"}`, `{"maturity":{"popularity_index":1e308}}`, `{"company":{"zzz":1}}`, `{}`, `null`, `[]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var patch map[string]json.RawMessage
		if json.Unmarshal([]byte(doc), &patch) != nil {
			return // the API refuses bodies that are not a JSON object
		}
		before, p := sample(), sample()
		p.ID, p.VendorID = before.ID, before.VendorID
		err := p.ApplyPatch(patch, patched)
		if err != nil {
			if !errors.Is(err, core.ErrInvalid) {
				t.Fatalf("ApplyPatch(%s): %v is not a validation error", doc, err)
			}
			if !reflect.DeepEqual(p, before) {
				t.Fatalf("a refused patch %s changed the profile", doc)
			}
			return
		}
		if _, err := json.Marshal(p); err != nil {
			t.Fatalf("patched profile does not encode: %v", err)
		}
	})
}
