package feeds_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/feeds"
	"github.com/vetted-dev/vetted/core/vendors"
)

var since = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func loopbackFetcher() *enrich.Fetcher {
	return enrich.NewFetcher(enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true})
}

// serve answers the fixture files at the given paths and 404 elsewhere;
// it records the last request's raw query.
func serve(t *testing.T, routes map[string]string, lastQuery *string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if lastQuery != nil {
			*lastQuery = r.URL.RawQuery
		}
		file, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Error(err)
		}
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func acme(t *testing.T) vendors.Vendor {
	t.Helper()
	v, err := vendors.New(uuid.New(), "Acme Cloud", "https://acme.example", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func staticURL(u string) feeds.StatusURLFunc {
	return func(context.Context, vendors.Vendor) (string, error) { return u, nil }
}

func TestStatusPage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		routes map[string]string
		path   string // appended to the server URL as the status page URL
		id     string
		url    string
		sev    string
	}{
		{"json api", map[string]string{"/api/v2/incidents.json": "incidents.json"}, "/", "p31zjtct2jer", "https://stspg.io/p31zjtct2jer", "high"},
		{"atom fallback", map[string]string{"/history.atom": "history.atom"}, "", "tag:status.acme.example,2005:Incident/20871234", "https://status.acme.example/incidents/p31zjtct2jer", "medium"},
		{"rss fallback", map[string]string{"/history.rss": "history.rss"}, "", "https://status.acme.example/incidents/p31zjtct2jer", "https://status.acme.example/incidents/p31zjtct2jer", "medium"},
		{"explicit feed url", map[string]string{"/custom/history.atom": "history.atom"}, "/custom/history.atom", "tag:status.acme.example,2005:Incident/20871234", "https://status.acme.example/incidents/p31zjtct2jer", "medium"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, tc.routes, nil)
			sp, err := feeds.NewStatusPage(loopbackFetcher(), staticURL(srv.URL+tc.path))
			if err != nil {
				t.Fatal(err)
			}
			got, err := sp.Fetch(context.Background(), acme(t), since)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 {
				t.Fatalf("got %d incidents, want 1 (the 2025 one is before since): %+v", len(got), got)
			}
			in := got[0]
			want := time.Date(2026, 11, 9, 14, 2, 11, 0, time.UTC)
			if in.Source != feeds.StatusPageSource || in.ExternalID != tc.id || in.Title != "Elevated API error rates" ||
				in.URL != tc.url || in.Severity != tc.sev || !in.PublishedAt.Truncate(time.Second).Equal(want) ||
				!strings.Contains(in.Summary, "resolved") || strings.Contains(in.Summary, "<") {
				t.Fatalf("incident = %+v", in)
			}
			all, err := sp.Fetch(context.Background(), acme(t), time.Time{})
			if err != nil || len(all) != 2 {
				t.Fatalf("without since: %d incidents, err %v", len(all), err)
			}
		})
	}
}

func TestStatusPageJSONMapping(t *testing.T) {
	t.Parallel()
	srv := serve(t, map[string]string{"/api/v2/incidents.json": "incidents.json"}, nil)
	sp, _ := feeds.NewStatusPage(loopbackFetcher(), staticURL(srv.URL))
	got, err := sp.Fetch(context.Background(), acme(t), since)
	if err != nil || len(got) != 1 {
		t.Fatalf("got %v, %v", got, err)
	}
	if in := got[0]; in.Status != "resolved" || in.AffectedService != "API, Dashboard" || in.Summary != "This incident has been resolved." {
		t.Fatalf("incident = %+v", in)
	}
}

func TestStatusPageNoPageAndFailures(t *testing.T) {
	t.Parallel()
	empty := serve(t, map[string]string{}, nil)
	tests := []struct {
		name    string
		fetcher *enrich.Fetcher
		url     string
		wantErr error
		errText string
	}{
		{"no status page", loopbackFetcher(), "", nil, ""},
		{"nothing served", loopbackFetcher(), empty.URL, nil, "HTTP 404"},
		{"private address refused", enrich.NewFetcher(enrich.FetcherConfig{AllowAnyPort: true}), empty.URL, enrich.ErrRefused, "refused: 127.0.0.1 is a loopback address"},
		{"metadata refused", enrich.NewFetcher(enrich.FetcherConfig{}), "http://169.254.169.254/", enrich.ErrRefused, "refused: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sp, _ := feeds.NewStatusPage(tc.fetcher, staticURL(tc.url))
			got, err := sp.Fetch(context.Background(), acme(t), since)
			if tc.errText == "" {
				if err != nil || got != nil {
					t.Fatalf("got %v, %v; want nothing", got, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.errText) || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) {
				t.Fatalf("err = %v, want %q", err, tc.errText)
			}
		})
	}
}

func TestJSONFeed(t *testing.T) {
	t.Parallel()
	var query string
	srv := serve(t, map[string]string{"/incidents": "feed.json"}, &query)
	jf, err := feeds.NewJSONFeed(loopbackFetcher(), srv.URL+"/incidents?domain={domain}&since={since}", "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := jf.Fetch(context.Background(), acme(t), since)
	if err != nil {
		t.Fatal(err)
	}
	if query != "domain=acme.example&since=2026-01-01T00%3A00%3A00Z" {
		t.Fatalf("query = %q", query)
	}
	if len(got) != 2 {
		t.Fatalf("got %d incidents, want 2: %+v", len(got), got)
	}
	first, second := got[0], got[1]
	if first.Source != "feed:127.0.0.1" || first.ExternalID != "INC-2026-0042" || first.Severity != "high" ||
		first.IncidentType != "breach" || first.Summary != "Attackers used leaked passwords; 2,100 accounts affected." ||
		strings.Join(first.PotentiallyImpactedData, ",") != "email,name" {
		t.Fatalf("first = %+v", first)
	}
	if second.Severity != "medium" {
		t.Fatalf("unknown severity mapped to %q, want medium", second.Severity)
	}

	noDomain := acme(t)
	noDomain.Domain = ""
	if got, err := jf.Fetch(context.Background(), noDomain, since); err != nil || got != nil {
		t.Fatalf("vendor without domain: %v, %v", got, err)
	}
	if _, err := feeds.NewJSONFeed(loopbackFetcher(), "ftp://feed.example/{domain}", ""); err == nil {
		t.Fatal("ftp template accepted")
	}
}

// source is a hand-written IncidentSource for Multi.
type source struct {
	ins []vendors.Incident
	err error
}

func (s source) Fetch(context.Context, vendors.Vendor, time.Time) ([]vendors.Incident, error) {
	return s.ins, s.err
}

func TestMulti(t *testing.T) {
	t.Parallel()
	a := vendors.Incident{Source: "a", ExternalID: "1", Title: "one"}
	b := vendors.Incident{Source: "b", ExternalID: "1", Title: "same id, other source"}
	broken := source{err: errors.New("feed down")}
	tests := []struct {
		name    string
		sources []source
		want    int
		wantErr bool
		heard   int
	}{
		{"none", nil, 0, false, 0},
		{"merged and de-duplicated", []source{{ins: []vendors.Incident{a, b}}, {ins: []vendors.Incident{a}}}, 2, false, 0},
		{"one broken", []source{broken, {ins: []vendors.Incident{a}}}, 1, false, 1},
		{"all broken", []source{broken, broken}, 0, true, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			heard := 0
			m, err := feeds.NewMulti(func(error) { heard++ })
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.sources {
				m.Sources = append(m.Sources, s)
			}
			got, err := m.Fetch(context.Background(), acme(t), since)
			if (err != nil) != tc.wantErr || len(got) != tc.want || heard != tc.heard {
				t.Fatalf("got %d, err %v, heard %d", len(got), err, heard)
			}
		})
	}
	if _, err := feeds.NewMulti(nil, nil); err == nil {
		t.Fatal("nil source accepted")
	}
}
