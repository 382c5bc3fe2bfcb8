package incidentfeeds_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/incidentfeeds"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/incidents/incidentstest"
)

// loopback is a Reader that may reach the httptest servers on 127.0.0.1.
func loopback(t *testing.T, cfg incidentfeeds.Config) *incidentfeeds.Reader {
	t.Helper()
	r, err := incidentfeeds.New(enrich.NewFetcher(enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true}), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// serveFile answers testdata/name at every path.
func serveFile(t *testing.T, name, contentType string) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// read reads testdata/name served as kind and fails the test on an error;
// the server's URL is returned for the items' relative links.
func read(t *testing.T, kind incidents.Source, name, contentType string) (incidents.Batch, string) {
	t.Helper()
	srv := serveFile(t, name, contentType)
	b, err := loopback(t, incidentfeeds.Config{}).Read(context.Background(), incidents.Endpoint{Kind: kind, URL: srv.URL + "/" + name}, incidents.Validators{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if b.NotModified {
		t.Fatalf("%s: NotModified on a first read", name)
	}
	return b, srv.URL
}

// check compares the items read with want, and the batch's skipped count
// and length.
func check[T any](t *testing.T, b incidents.Batch, got, want []T, skipped int) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("items:\n got %+v\nwant %+v", got, want)
	}
	if b.Skipped != skipped || b.Len() != len(want) {
		t.Errorf("skipped %d, len %d; want %d, %d", b.Skipped, b.Len(), skipped, len(want))
	}
}

func date(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

// TestNews: RSS 2.0, Atom and JSON Feed give NewsItems with text titles and
// summaries (markup, scripts and styles gone, entities decoded), the
// content when there is no description, the link (a relative one resolved
// against the feed's URL, a javascript: one dropped), and the publication
// time (else the update time) in UTC; an item with neither title nor
// summary is skipped and counted.
func TestNews(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file, contentType string
		want              []incidents.NewsItem
		skipped           int
	}{
		{"news.rss", "application/rss+xml", []incidents.NewsItem{
			{Title: "Okta confirms its support system was breached", Summary: "Okta said an attacker used stolen credentials to reach its support case system.", URL: "https://news.example.test/2026/11/okta-support-breach", Published: date("2026-11-23T14:05:00Z")},
			{Title: "Ivanti patches Connect Secure zero-day & warns of exploitation", Summary: "Attackers exploited the flaw before a fix.", URL: "https://news.example.test/2026/11/ivanti-zero-day", Published: date("2026-11-24T09:30:00Z")},
			{Title: "Twilio Segment customers' data leaked", URL: "{server}/2026/11/segment-leak", Published: date("2026-11-25T07:00:00Z")},
			{Title: "Zoom's installer hacked", Summary: "A trojanised build was served."},
		}, 1},
		{"news.atom", "application/atom+xml", []incidents.NewsItem{
			{Title: "Progress warns of MOVEit Transfer flaw exploited in data theft", Summary: "Progress Software disclosed a critical SQL injection in MOVEit Transfer.", URL: "https://advisories.example.test/progress-moveit", Published: date("2026-11-25T15:00:00Z")},
			{Title: "Snowflake customers targeted with stolen credentials", Summary: "No breach of Snowflake's own platform was found.", URL: "https://advisories.example.test/snowflake", Published: date("2026-11-24T08:00:00Z")},
		}, 0},
		{"news.json", "application/feed+json", []incidents.NewsItem{
			{Title: "Twilio says hackers compromised Authy phone numbers", Summary: "Threat actors exposed data of 33 million Authy users.", URL: "https://watch.example.test/twilio-authy", Published: date("2026-11-20T16:00:00Z")},
			{Title: "Zoom fixes flaw in Zoom Rooms", Summary: "Zoom said the bug was not exploited.", URL: "https://watch.example.test/zoom", Published: date("2026-11-21T07:15:00Z")},
		}, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			b, base := read(t, incidents.SourceNews, tc.file, tc.contentType)
			for i := range tc.want {
				tc.want[i].URL = strings.Replace(tc.want[i].URL, "{server}", base, 1)
			}
			check(t, b, b.News, tc.want, tc.skipped)
		})
	}
}

// TestKEV: CISA's catalog gives its entries with the catalog's fields; an
// entry whose cveID is not a string and one without vendorProject are
// skipped, the rest kept.
func TestKEV(t *testing.T) {
	t.Parallel()
	b, _ := read(t, incidents.SourceKEV, "kev.json", "application/json")
	want := []incidents.KEVEntry{
		{CVEID: "CVE-2026-21887", VendorProject: "Ivanti", Product: "Connect Secure", VulnerabilityName: "Ivanti Connect Secure Command Injection Vulnerability", DateAdded: "2026-11-26", ShortDescription: "Ivanti Connect Secure contains a command injection vulnerability in web components that allows an authenticated administrator to execute arbitrary commands.", KnownRansomwareCampaignUse: "Known"},
		{CVEID: "CVE-2026-34362", VendorProject: "Progress", Product: "MOVEit Transfer", VulnerabilityName: "Progress MOVEit Transfer SQL Injection Vulnerability", DateAdded: "2026-11-27", ShortDescription: "Progress MOVEit Transfer contains a SQL injection vulnerability that could allow an unauthenticated attacker to gain access to the database.", KnownRansomwareCampaignUse: "Unknown"},
	}
	check(t, b, b.KEV, want, 2)
}

// TestBreaches: an HIBP-shaped list gives its breaches with the API's
// fields and the HTML description as text (link kept as its words, script
// dropped); an entry without a domain is kept, one whose PwnCount is not a
// number is skipped.
func TestBreaches(t *testing.T) {
	t.Parallel()
	b, _ := read(t, incidents.SourceBreach, "breaches.json", "application/json")
	want := []incidents.Breach{
		{Name: "Twilio", Title: "Twilio", Domain: "twilio.com", BreachDate: "2026-10-30", AddedDate: "2026-11-22T04:12:45Z", PwnCount: 1250000, DataClasses: []string{"Email addresses", "Phone numbers", "Passwords"}, Description: "In October 2026, Twilio disclosed that customer contact records were exposed. The data included email addresses and phone numbers.", IsVerified: true},
		{Name: "ComboList2026", Title: "Combo List 2026", BreachDate: "2026-09-01", AddedDate: "2026-11-01T00:00:00Z", PwnCount: 9000000, DataClasses: []string{"Email addresses", "Passwords"}, Description: "A credential stuffing list of unknown origin."},
	}
	check(t, b, b.Breaches, want, 1)
}

// TestFilings: EDGAR's Atom feed gives each 8-K and 8-K/A with the filer
// from the title (state marker kept, CIK and role cut), every item number
// in the summary, the filing's index page and its time; a 10-Q is skipped.
// A filing without item 1.05 still parses: the matcher decides, and gives
// only the 1.05 filing to its vendor.
func TestFilings(t *testing.T) {
	t.Parallel()
	b, _ := read(t, incidents.SourceFiling, "filings.atom", "application/atom+xml")
	want := []incidents.Filing{
		{FilerName: "PROGRESS SOFTWARE CORP /MA", Items: []string{"1.05", "9.01"}, URL: "https://www.sec.gov/Archives/edgar/data/876167/000087616726000031/0000876167-26-000031-index.htm", Filed: date("2026-11-27T21:31:05Z")},
		{FilerName: "OKTA, INC.", Items: []string{"2.02", "9.01"}, URL: "https://www.sec.gov/Archives/edgar/data/1660134/000166013426000077/0001660134-26-000077-index.htm", Filed: date("2026-11-27T21:20:44Z")},
	}
	check(t, b, b.Filings, want, 1)
	m, err := incidents.NewMatcher(incidentstest.Directory(), incidentstest.ScanIndex)
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Filing(b.Filings[0]); len(r.Matches) != 1 || r.Matches[0].Vendor != "Progress" || r.Matches[0].Match.Rule != incidents.RuleFilingFiler {
		t.Errorf("the Progress 1.05 filing: %+v, want one filing_filer match", r)
	}
	if r := m.Filing(b.Filings[1]); len(r.Matches) != 0 {
		t.Errorf("the Okta 2.02 filing: %+v, want no match", r)
	}
}

// TestConditionalGET: the first read keeps the answer's ETag and
// Last-Modified; a second read sends them back (the server sees
// If-None-Match and If-Modified-Since), gets a 304 and answers NotModified
// with no items and the same validators.
func TestConditionalGET(t *testing.T) {
	t.Parallel()
	const etag, lastMod = `W/"kev-2026.11.27"`, "Fri, 27 Nov 2026 17:00:00 GMT"
	body, err := os.ReadFile("testdata/kev.json")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", lastMod)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	r := loopback(t, incidentfeeds.Config{})
	src := incidents.Endpoint{Kind: incidents.SourceKEV, URL: srv.URL}
	ctx := context.Background()

	first, err := r.Read(ctx, src, incidents.Validators{})
	if err != nil {
		t.Fatal(err)
	}
	wantV := incidents.Validators{ETag: etag, LastModified: lastMod}
	if first.NotModified || first.Len() != 2 || first.Validators != wantV {
		t.Fatalf("first read: NotModified=%v len=%d validators=%+v", first.NotModified, first.Len(), first.Validators)
	}
	second, err := r.Read(ctx, src, first.Validators)
	if err != nil {
		t.Fatal(err)
	}
	if !second.NotModified || second.Len() != 0 || second.Validators != wantV {
		t.Fatalf("second read: NotModified=%v len=%d validators=%+v", second.NotModified, second.Len(), second.Validators)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 {
		t.Fatalf("server saw %d requests, want 2", len(seen))
	}
	if seen[0].Get("If-None-Match") != "" || seen[0].Get("If-Modified-Since") != "" {
		t.Errorf("first request sent validators: %v", seen[0])
	}
	if seen[1].Get("If-None-Match") != etag || seen[1].Get("If-Modified-Since") != lastMod {
		t.Errorf("second request: If-None-Match %q, If-Modified-Since %q", seen[1].Get("If-None-Match"), seen[1].Get("If-Modified-Since"))
	}
}

// TestFailures: a 500, a body of garbage, an HTML page, a JSON document of
// the wrong shape, a body over the size bound, a server slower than the
// time bound, a loopback source without AllowPrivate and an unknown kind
// are each an error naming the endpoint, and no panic.
func TestFailures(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/500":
			http.Error(w, "internal error", http.StatusInternalServerError)
		case "/garbage":
			_, _ = w.Write([]byte("\x00\x01not a feed {]<<"))
		case "/html":
			_, _ = w.Write([]byte("<!doctype html><html><body><h1>Sign in to the Wi-Fi</h1></body></html>"))
		case "/object":
			_, _ = w.Write([]byte(`{"breaches": []}`))
		case "/big":
			_, _ = w.Write([]byte(`{"vulnerabilities": [` + strings.Repeat(`{"cveID": "CVE-2026-0001", "vendorProject": "Acme"},`, 100) + `{}]}`))
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}
	}))
	t.Cleanup(srv.Close)
	r := loopback(t, incidentfeeds.Config{MaxBytes: 1024, Timeout: 200 * time.Millisecond})
	for _, tc := range []struct {
		kind incidents.Source
		path string
		want string
	}{
		{incidents.SourceNews, "/500", "HTTP 500"},
		{incidents.SourceKEV, "/500", "HTTP 500"},
		{incidents.SourceNews, "/garbage", "not a feed"},
		{incidents.SourceFiling, "/garbage", "not a feed"},
		{incidents.SourceKEV, "/garbage", "not a KEV catalog"},
		{incidents.SourceBreach, "/garbage", "not a breach list"},
		{incidents.SourceNews, "/html", "not a feed"},
		{incidents.SourceKEV, "/html", "not a KEV catalog"},
		{incidents.SourceKEV, "/object", "no vulnerabilities"},
		{incidents.SourceBreach, "/object", "not a breach list"},
		{incidents.SourceKEV, "/big", "larger than 1024 bytes"},
		{incidents.SourceNews, "/slow", "deadline exceeded"},
		{"rumours", "/garbage", "unknown source kind"},
	} {
		src := incidents.Endpoint{Kind: tc.kind, URL: srv.URL + tc.path}
		b, err := r.Read(context.Background(), src, incidents.Validators{})
		if err == nil {
			t.Errorf("%s: no error, batch %+v", src, b)
			continue
		}
		if !strings.HasPrefix(err.Error(), src.String()+": ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %q, want it to name the source and say %q", src, err, tc.want)
		}
	}

	strict, err := incidentfeeds.New(enrich.NewFetcher(enrich.FetcherConfig{AllowAnyPort: true}), incidentfeeds.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := strict.Read(context.Background(), incidents.Endpoint{Kind: incidents.SourceNews, URL: srv.URL + "/garbage"}, incidents.Validators{}); !errors.Is(err, enrich.ErrRefused) {
		t.Errorf("loopback without AllowPrivate: err = %v, want refused", err)
	}
	if _, err := incidentfeeds.New(nil, incidentfeeds.Config{}); err == nil {
		t.Error("New(nil) gave no error")
	}
}
