package enrich_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/core/vendors"
)

// TestEnrichLegalName: the basic section sets company.legal_name from the
// JSON-LD Organization's legalName (kept among the aliases too), else from
// the site certificate's organization when that begins with the vendor's
// name; finding none keeps the legal name known. The loopback TLS server's
// certificate is Go's test certificate, whose organization is "Acme Co".
func TestEnrichLegalName(t *testing.T) {
	t.Parallel()
	plain := map[string]*httptest.Server{"home.html": httptest.NewServer(site(t, "home.html")), "minimal.html": httptest.NewServer(site(t, "minimal.html"))}
	tlsSrv := map[string]*httptest.Server{"home.html": httptest.NewTLSServer(site(t, "home.html")), "minimal.html": httptest.NewTLSServer(site(t, "minimal.html"))}
	for _, m := range []map[string]*httptest.Server{plain, tlsSrv} {
		for _, s := range m {
			t.Cleanup(s.Close)
		}
	}
	resolver := emptyWorld(t)
	for _, c := range []struct {
		name, page, vendor, known, want string
		tls                             bool
	}{
		{name: "JSON-LD legalName", page: "home.html", vendor: "Acme Cloud", want: "Acme Cloud Holdings Ltd"},
		{name: "JSON-LD before the certificate", page: "home.html", vendor: "Acme", tls: true, want: "Acme Cloud Holdings Ltd"},
		{name: "JSON-LD replaces the known one", page: "home.html", vendor: "Acme Cloud", known: "Acme Old Ltd", want: "Acme Cloud Holdings Ltd"},
		{name: "the certificate's organization", page: "minimal.html", vendor: "Acme", tls: true, want: "Acme Co"},
		{name: "the certificate's organization, the known one replaced", page: "minimal.html", vendor: "Acme", known: "Acme Old Ltd", tls: true, want: "Acme Co"},
		{name: "a certificate naming another company", page: "minimal.html", vendor: "Globex", tls: true, want: ""},
		{name: "a certificate naming a shorter name", page: "minimal.html", vendor: "Acme Cloud", known: "Acme Cloud, Inc.", tls: true, want: "Acme Cloud, Inc."},
		{name: "nothing found keeps the known one", page: "minimal.html", vendor: "Tiny", known: "Tiny Vendor LLC", want: "Tiny Vendor LLC"},
		{name: "nothing found, nothing known", page: "minimal.html", vendor: "Tiny", want: ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv, cfg := plain[c.page], enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true}
			if c.tls {
				srv = tlsSrv[c.page]
				cfg.TLSConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig
			}
			v, err := vendors.New(uuid.New(), c.vendor, "", now)
			if err != nil {
				t.Fatal(err)
			}
			v.WebsiteURL = srv.URL + "/"
			cur := vendors.NewProfile(uuid.New(), v.ID, now)
			cur.Company.LegalName = c.known
			res, err := newEnricher(t, cfg, resolver).Enrich(t.Context(), v, cur, []vendors.Section{vendors.SectionBasic})
			if err != nil {
				t.Fatal(err)
			}
			status(t, res.Profile, vendors.SectionBasic, "done")
			if got := res.Profile.Company.LegalName; got != c.want {
				t.Fatalf("legal name = %q, want %q", got, c.want)
			}
			if c.page == "home.html" && !slices.Contains(res.Profile.Company.Alias, "Acme Cloud Holdings") {
				t.Fatalf("the legalName left the aliases: %q", res.Profile.Company.Alias)
			}
		})
	}
}
