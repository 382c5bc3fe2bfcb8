package enrich_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/enrich/scantest"
	"github.com/vetted-dev/vetted/core/vendors"
)

var now = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// site serves the fixture pages of a vendor web site.
func site(t *testing.T, home string) http.Handler {
	t.Helper()
	pages := map[string][]byte{"/": fixture(t, home), "/legal/privacy": fixture(t, "privacy.html")}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/favicon.ico":
			w.Header().Set("Content-Type", "image/x-icon")
			_, _ = w.Write([]byte{0, 0, 1, 0})
			return
		case "/.well-known/security.txt":
			_, _ = w.Write([]byte("Contact: mailto:security@acme.example\nExpires: 2027-01-01T00:00:00Z\n"))
			return
		}
		b, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(b)
	})
}

// newEnricher fetches with cfg; its scanner asks only the DNS server at
// resolver, so nothing leaves the machine.
func newEnricher(t *testing.T, cfg enrich.FetcherConfig, resolver string) *enrich.Enricher {
	t.Helper()
	d, err := enrich.NewDNS(enrich.DNSConfig{Server: resolver, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s := enrich.NewScanner(enrich.ScanConfig{DNS: d, Timeout: 2 * time.Second, AllowPrivate: cfg.AllowPrivate})
	return enrich.New(enrich.Config{Fetcher: enrich.NewFetcher(cfg), Scanner: s, Now: func() time.Time { return now }})
}

// emptyWorld is a DNS server that knows no name.
func emptyWorld(t *testing.T) string {
	t.Helper()
	return scantest.Start(t, func() time.Time { return now }).Resolver
}

func testVendor(t *testing.T, website string) vendors.Vendor {
	t.Helper()
	v, err := vendors.New(uuid.New(), "Acme Cloud", "", now)
	if err != nil {
		t.Fatal(err)
	}
	v.WebsiteURL = website
	return v
}

func status(t *testing.T, p vendors.Profile, s vendors.Section, want string) vendors.SectionStatus {
	t.Helper()
	st, ok := p.Enrichment[s]
	if !ok || st.Status != want || !st.UpdatedAt.Equal(now) {
		t.Fatalf("%s status = %+v (present %v), want %s", s, st, ok, want)
	}
	return st
}

func TestEnrichBasicLogoPrivacy(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(site(t, "home.html"))
	defer srv.Close()
	e := newEnricher(t, enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true}, emptyWorld(t))
	v := testVendor(t, srv.URL+"/")
	cur := vendors.NewProfile(uuid.New(), v.ID, now)
	earlier := vendors.SectionStatus{Status: "done", Source: "manual", UpdatedAt: now.Add(-time.Hour)}
	cur.Enrichment[vendors.SectionMaturity] = earlier

	res, err := e.Enrich(context.Background(), v, cur, []vendors.Section{vendors.SectionPrivacy, vendors.SectionLogo, vendors.SectionBasic, vendors.SectionAdditional})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Profile
	if st := status(t, p, vendors.SectionBasic, "done"); st.Source != srv.URL+"/" {
		t.Fatalf("basic source = %q", st.Source)
	}
	status(t, p, vendors.SectionLogo, "done")
	if st := status(t, p, vendors.SectionPrivacy, "done"); st.Source != srv.URL+"/legal/privacy" {
		t.Fatalf("privacy source = %q", st.Source)
	}
	if st := status(t, p, vendors.SectionAdditional, "skipped"); st.Error == "" {
		t.Fatal("skipped section has no reason")
	}
	if p.Enrichment[vendors.SectionMaturity] != earlier {
		t.Fatalf("unrequested section changed: %+v", p.Enrichment[vendors.SectionMaturity])
	}
	if _, ok := cur.Enrichment[vendors.SectionBasic]; ok {
		t.Fatal("the caller's profile was modified")
	}
	if res.Instances != nil {
		t.Fatalf("instances without the security section: %v", res.Instances)
	}

	c := p.Company
	checks := []struct{ field, got, want string }{
		{"description", c.CompanyDescription, "Acme Cloud is a financial infrastructure platform for businesses."},
		{"headquarters", c.HeadquartersLocation, "South San Francisco, CA, US"},
		{"contact email", c.ContactEmail, "hello@acme.example"},
		{"website", c.WebsiteURL, srv.URL + "/"},
		{"aliases", strings.Join(c.Alias, "|"), "Acme|Acme Cloud Holdings"},
		{"logo", c.Logo, "https://cdn.acme.example/logo.svg"},
		{"tos", c.TosURL, srv.URL + "/legal/terms"},
		{"privacy url", p.Privacy.PrivacyPolicyURL, srv.URL + "/legal/privacy"},
		{"security page", p.Security.SecurityPageURL, srv.URL + "/security"},
		{"trust center", p.Security.TrustCenterURL, "https://trust.acme.example/"},
		{"status page", p.Security.StatusPageURL, "https://status.acme.example/"},
		{"data collected", strings.Join(p.Privacy.DataCollected, ","), "email address,ip address,payment information,billing address,device information,cookies"},
	}
	for _, ck := range checks {
		if ck.got != ck.want {
			t.Errorf("%s = %q, want %q", ck.field, ck.got, ck.want)
		}
	}
	if c.FoundedYear == nil || *c.FoundedYear != 2010 || c.EmployeeCount == nil || *c.EmployeeCount != 8000 {
		t.Errorf("founded/employees = %v/%v", c.FoundedYear, c.EmployeeCount)
	}
	if p.Privacy.GDPRCompliant == nil || !*p.Privacy.GDPRCompliant || p.Privacy.SupportsDataSubjectRequests == nil || !*p.Privacy.SupportsDataSubjectRequests {
		t.Errorf("privacy flags = %v %v", p.Privacy.GDPRCompliant, p.Privacy.SupportsDataSubjectRequests)
	}
}

func TestEnrichMinimalPageFallsBack(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(site(t, "minimal.html"))
	defer srv.Close()
	e := newEnricher(t, enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true}, emptyWorld(t))
	v := testVendor(t, srv.URL)
	res, err := e.Enrich(context.Background(), v, vendors.NewProfile(uuid.New(), v.ID, now), []vendors.Section{vendors.SectionBasic, vendors.SectionLogo, vendors.SectionPrivacy})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Profile
	status(t, p, vendors.SectionBasic, "done")
	if p.Company.CompanyDescription != "We make tiny things." || p.Company.Logo != srv.URL+"/favicon.ico" {
		t.Fatalf("company = %+v", p.Company)
	}
	if st := status(t, p, vendors.SectionPrivacy, "failed"); !strings.Contains(st.Error, "no privacy policy") {
		t.Fatalf("privacy status = %+v", st)
	}
}

func TestEnrichRecordsRefusalsAndMissingWebsite(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(site(t, "home.html"))
	defer srv.Close()
	web := []vendors.Section{vendors.SectionBasic, vendors.SectionLogo, vendors.SectionSecurity, vendors.SectionPrivacy}
	tests := []struct {
		name    string
		website string
		domain  string
		source  string
		err     string
		scanErr string
	}{
		{"loopback website", srv.URL + "/", "", srv.URL + "/", "refused: 127.0.0.1 is a loopback address", "refused: 127.0.0.1 is a loopback address"},
		{"metadata website", "http://169.254.169.254/latest/meta-data/", "", "http://169.254.169.254/latest/meta-data/",
			"refused: 169.254.169.254 is the cloud metadata address", "refused: 169.254.169.254 is the cloud metadata address"},
		{"private website", "http://10.0.0.1/", "", "http://10.0.0.1/", "refused: 10.0.0.1 is a private address", "refused: 10.0.0.1 is a private address"},
		{"domain only", "", "localhost", "https://localhost/", "refused: ", "localhost does not exist (NXDOMAIN)"},
		{"nothing known", "", "", "", "no website known", "no website known"},
	}
	resolver := emptyWorld(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnricher(t, enrich.FetcherConfig{AllowAnyPort: true}, resolver)
			v := testVendor(t, tc.website)
			v.Domain = tc.domain
			res, err := e.Enrich(context.Background(), v, vendors.NewProfile(uuid.New(), v.ID, now), web)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range web {
				st := status(t, res.Profile, s, "failed")
				if s == vendors.SectionSecurity {
					if !strings.Contains(st.Error, tc.scanErr) {
						t.Errorf("security error = %q, want %q in it", st.Error, tc.scanErr)
					}
					continue
				}
				if !strings.HasPrefix(st.Error, tc.err) {
					t.Errorf("%s error = %q, want %q", s, st.Error, tc.err)
				}
				if st.Source != tc.source {
					t.Errorf("%s source = %q, want %q", s, st.Source, tc.source)
				}
			}
			// A scan that could not run records why, check by check, and
			// nothing else; with no website there is no scan at all.
			if tc.website == "" && tc.domain == "" {
				if res.Instances != nil {
					t.Fatalf("instances without a website: %v", res.Instances)
				}
				return
			}
			if len(res.Instances) != len(vendors.Checks()) {
				t.Fatalf("%d instances, want a not-checked signal for each of the %d checks: %v", len(res.Instances), len(vendors.Checks()), res.Instances)
			}
			for _, in := range res.Instances {
				if !vendors.IsNotChecked(in.Code) || in.Evidence == "" {
					t.Errorf("instance %s %q after a refusal", in.Code, in.Evidence)
				}
			}
		})
	}
}
