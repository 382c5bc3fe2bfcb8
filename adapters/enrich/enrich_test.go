package enrich_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/core/vendor"
)

// fakeDNS answers from maps; a name absent from a map has no records.
type fakeDNS struct {
	txt map[string][]string
	caa map[string][]string
}

func (f fakeDNS) LookupTXT(_ context.Context, name string) ([]string, error) {
	if r, ok := f.txt[name]; ok {
		return r, nil
	}
	return nil, enrich.ErrNoRecords
}

func (f fakeDNS) LookupCAA(_ context.Context, name string) ([]string, error) {
	if r, ok := f.caa[name]; ok {
		return r, nil
	}
	return nil, enrich.ErrNoRecords
}

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

func newEnricher(cfg enrich.FetcherConfig, dns enrich.Resolver) *enrich.Enricher {
	return enrich.New(enrich.Config{Fetcher: enrich.NewFetcher(cfg), Resolver: dns, Now: func() time.Time { return now }})
}

func testVendor(t *testing.T, website string) vendor.Vendor {
	t.Helper()
	v, err := vendor.New(uuid.New(), "Acme Cloud", "", now)
	if err != nil {
		t.Fatal(err)
	}
	v.WebsiteURL = website
	return v
}

func status(t *testing.T, p vendor.Profile, s vendor.Section, want string) vendor.SectionStatus {
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
	e := newEnricher(enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true}, fakeDNS{})
	v := testVendor(t, srv.URL+"/")
	cur := vendor.NewProfile(uuid.New(), v.ID, now)
	earlier := vendor.SectionStatus{Status: "done", Source: "manual", UpdatedAt: now.Add(-time.Hour)}
	cur.Enrichment[vendor.SectionMaturity] = earlier

	res, err := e.Enrich(context.Background(), v, cur, []vendor.Section{vendor.SectionPrivacy, vendor.SectionLogo, vendor.SectionBasic, vendor.SectionAdditional})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Profile
	if st := status(t, p, vendor.SectionBasic, "done"); st.Source != srv.URL+"/" {
		t.Fatalf("basic source = %q", st.Source)
	}
	status(t, p, vendor.SectionLogo, "done")
	if st := status(t, p, vendor.SectionPrivacy, "done"); st.Source != srv.URL+"/legal/privacy" {
		t.Fatalf("privacy source = %q", st.Source)
	}
	if st := status(t, p, vendor.SectionAdditional, "skipped"); st.Error == "" {
		t.Fatal("skipped section has no reason")
	}
	if p.Enrichment[vendor.SectionMaturity] != earlier {
		t.Fatalf("unrequested section changed: %+v", p.Enrichment[vendor.SectionMaturity])
	}
	if _, ok := cur.Enrichment[vendor.SectionBasic]; ok {
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
	e := newEnricher(enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true}, fakeDNS{})
	v := testVendor(t, srv.URL)
	res, err := e.Enrich(context.Background(), v, vendor.NewProfile(uuid.New(), v.ID, now), []vendor.Section{vendor.SectionBasic, vendor.SectionLogo, vendor.SectionPrivacy})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Profile
	status(t, p, vendor.SectionBasic, "done")
	if p.Company.CompanyDescription != "We make tiny things." || p.Company.Logo != srv.URL+"/favicon.ico" {
		t.Fatalf("company = %+v", p.Company)
	}
	if st := status(t, p, vendor.SectionPrivacy, "failed"); !strings.Contains(st.Error, "no privacy policy") {
		t.Fatalf("privacy status = %+v", st)
	}
}

// tlsSite starts an HTTPS server with the given response headers and a
// certificate valid until notAfter, and returns a fetcher config that
// trusts it.
func tlsSite(t *testing.T, headers map[string]string, notAfter time.Time) (*httptest.Server, enrich.FetcherConfig) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test CA"},
		NotBefore: notAfter.Add(-365 * 24 * time.Hour), NotAfter: notAfter,
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	inner := site(t, "home.html")
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		inner.ServeHTTP(w, r)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // handshake failures are expected
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return srv, enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true, TLSConfig: &tls.Config{RootCAs: pool}}
}

func codes(is []vendor.SecurityInstance) []string {
	out := make([]string, 0, len(is))
	for _, in := range is {
		out = append(out, in.Severity+":"+in.Code)
	}
	return out
}

func TestEnrichSecurityAndScores(t *testing.T) {
	t.Parallel()
	hardened := map[string]string{
		"Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
		"Content-Security-Policy":   "default-src 'self'; frame-ancestors 'none'",
		"X-Content-Type-Options":    "nosniff",
		"Referrer-Policy":           "strict-origin-when-cross-origin",
	}
	goodDNS := fakeDNS{
		txt: map[string][]string{
			"acme.example":          {"google-site-verification=abc", "v=spf1 include:_spf.google.com ~all"},
			"_dmarc.acme.example":   {"v=DMARC1; p=reject; rua=mailto:d@acme.example"},
			"_mta-sts.acme.example": {"v=STSv1; id=2024"},
		},
		caa: map[string][]string{"acme.example": {"issue letsencrypt.org"}},
	}
	weakDNS := fakeDNS{
		txt: map[string][]string{"_dmarc.acme.example": {"v=DMARC1; p=none"}},
		caa: map[string][]string{"example": {"issue digicert.com"}}, // a TLD record is not looked at
	}
	tests := []struct {
		name     string
		headers  map[string]string
		notAfter time.Time
		dns      enrich.Resolver
		want     []string // severity:code, most severe first
		rating   int
		grade    string
		cats     []string
	}{
		{
			name: "hardened", headers: hardened, notAfter: now.Add(90 * 24 * time.Hour), dns: goodDNS,
			want:   []string{"positive:caa_record_present", "positive:dmarc_record_present", "positive:hsts_enabled", "positive:mta_sts_present", "positive:security_headers_present", "positive:security_txt_present", "positive:spf_record_present", "positive:tls_valid"},
			rating: 100, grade: "A", cats: []string{},
		},
		{
			name: "weak", headers: nil, notAfter: now.Add(5 * 24 * time.Hour), dns: weakDNS,
			want: []string{
				"medium:hsts_missing", "medium:spf_record_missing", "medium:tls_cert_expiring",
				"low:caa_record_missing", "low:dmarc_policy_none", "low:mta_sts_missing", "low:security_headers_missing",
				"positive:dmarc_record_present", "positive:security_txt_present", "positive:tls_valid",
			},
			rating: 100 - 10 - 10 - 10 - 4 - 4 - 4 - 4, grade: "F", cats: []string{"application_security", "network_security", "email_security", "dns_health"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, cfg := tlsSite(t, tc.headers, tc.notAfter)
			e := newEnricher(cfg, tc.dns)
			v := testVendor(t, srv.URL)
			v.Domain = "acme.example"
			res, err := e.Enrich(context.Background(), v, vendor.NewProfile(uuid.New(), v.ID, now), []vendor.Section{vendor.SectionScores, vendor.SectionSecurity})
			if err != nil {
				t.Fatal(err)
			}
			status(t, res.Profile, vendor.SectionSecurity, "done")
			status(t, res.Profile, vendor.SectionScores, "done")
			if got := codes(res.Instances); !slices.Equal(got, tc.want) {
				t.Fatalf("instances =\n %v\nwant\n %v", got, tc.want)
			}
			for _, in := range res.Instances {
				if in.ID == uuid.Nil || in.VendorID != v.ID || !in.ObservedAt.Equal(now) || in.Source == "" || in.Evidence == "" || !slices.Contains(vendor.Domains(), in.Category) {
					t.Fatalf("incomplete instance %+v", in)
				}
			}
			sig := res.Profile.Security.ExternalSignals
			if sig.TLS == nil || !*sig.TLS || sig.TLSExpiresAt != tc.notAfter.UTC().Truncate(time.Second).Format(time.RFC3339) {
				t.Fatalf("tls signals = %v %q", sig.TLS, sig.TLSExpiresAt)
			}
			s := res.Profile.Scores
			if *s.SecurityRating != tc.rating || *s.RiskScore != 100-tc.rating || s.Grade != tc.grade || !slices.Equal(s.RiskCategories, tc.cats) {
				t.Fatalf("scores = %d/%d %s %v, want %d %s %v", *s.SecurityRating, *s.RiskScore, s.Grade, s.RiskCategories, tc.rating, tc.grade, tc.cats)
			}
		})
	}
}

func TestEnrichExpiredCertificate(t *testing.T) {
	t.Parallel()
	srv, cfg := tlsSite(t, nil, time.Now().Add(-24*time.Hour))
	e := newEnricher(cfg, fakeDNS{})
	v := testVendor(t, srv.URL)
	v.Domain = "acme.example"
	res, err := e.Enrich(context.Background(), v, vendor.NewProfile(uuid.New(), v.ID, now), []vendor.Section{vendor.SectionSecurity})
	if err != nil {
		t.Fatal(err)
	}
	status(t, res.Profile, vendor.SectionSecurity, "done")
	got := codes(res.Instances)
	if !slices.Contains(got, "critical:tls_cert_expired") || !slices.Contains(got, "high:tls_missing") {
		t.Fatalf("instances = %v", got)
	}
}

func TestEnrichScoresNeedSignals(t *testing.T) {
	t.Parallel()
	e := newEnricher(enrich.FetcherConfig{}, fakeDNS{})
	v := testVendor(t, "")
	res, err := e.Enrich(context.Background(), v, vendor.NewProfile(uuid.New(), v.ID, now), []vendor.Section{vendor.SectionScores})
	if err != nil {
		t.Fatal(err)
	}
	status(t, res.Profile, vendor.SectionScores, "failed")
}

func TestEnrichRecordsRefusalsAndMissingWebsite(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(site(t, "home.html"))
	defer srv.Close()
	web := []vendor.Section{vendor.SectionBasic, vendor.SectionLogo, vendor.SectionSecurity, vendor.SectionPrivacy}
	tests := []struct {
		name    string
		website string
		domain  string
		source  string
		err     string
	}{
		{"loopback website", srv.URL + "/", "", srv.URL + "/", "refused: 127.0.0.1 is a loopback address"},
		{"metadata website", "http://169.254.169.254/latest/meta-data/", "", "http://169.254.169.254/latest/meta-data/", "refused: 169.254.169.254 is the cloud metadata address"},
		{"private website", "http://10.0.0.1/", "", "http://10.0.0.1/", "refused: 10.0.0.1 is a private address"},
		{"domain only", "", "localhost", "https://localhost/", "refused: "},
		{"nothing known", "", "", "", "no website known"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnricher(enrich.FetcherConfig{AllowAnyPort: true}, fakeDNS{})
			v := testVendor(t, tc.website)
			v.Domain = tc.domain
			res, err := e.Enrich(context.Background(), v, vendor.NewProfile(uuid.New(), v.ID, now), web)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range web {
				st := status(t, res.Profile, s, "failed")
				if !strings.HasPrefix(st.Error, tc.err) {
					t.Errorf("%s error = %q, want %q", s, st.Error, tc.err)
				}
				if s != vendor.SectionSecurity && st.Source != tc.source {
					t.Errorf("%s source = %q, want %q", s, st.Source, tc.source)
				}
			}
			if res.Instances != nil {
				t.Fatalf("instances after a refusal: %v", res.Instances)
			}
		})
	}
}
