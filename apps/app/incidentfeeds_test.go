package app_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/ports/memstore"
)

// TestIncidentFeeds: the app builds the reader of the platform-wide
// incident sources over the SSRF-safe fetcher (a loopback source is read
// only with VETTED_FETCH_ALLOW_PRIVATE), with the configured endpoints and
// the app's counter of the reads.
func TestIncidentFeeds(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"vulnerabilities":[{"cveID":"CVE-2026-0001","vendorProject":"Ivanti","product":"Connect Secure",` +
			`"vulnerabilityName":"Ivanti Connect Secure bypass","dateAdded":"2026-11-20","shortDescription":"x","knownRansomwareCampaignUse":"Known"}]}`))
	}))
	t.Cleanup(srv.Close)
	kev := incidents.Endpoint{Kind: incidents.SourceKEV, URL: srv.URL + "/kev.json"}
	news := incidents.Endpoint{Kind: incidents.SourceNews, URL: "https://news.example/feed"}

	for _, allow := range []bool{true, false} {
		cfg := embedded(t.TempDir())
		cfg.FetchAllowPrivate = allow
		cfg.IncidentSources = []incidents.Endpoint{kev, news}
		a := build(t, cfg, app.Overrides{Store: memstore.New()})
		f := a.IncidentFeeds
		if f.Reader == nil || !slices.Equal(f.Endpoints, cfg.IncidentSources) {
			t.Fatalf("feeds = %+v, want a reader and %v", f, cfg.IncidentSources)
		}
		b, err := f.Reader.Read(t.Context(), kev, incidents.Validators{})
		if !allow {
			if !errors.Is(err, enrich.ErrRefused) {
				t.Fatalf("a loopback source without VETTED_FETCH_ALLOW_PRIVATE: %+v, %v", b, err)
			}
			continue
		}
		if err != nil || len(b.KEV) != 1 || b.KEV[0].VendorProject != "Ivanti" {
			t.Fatalf("read = %+v, %v", b, err)
		}
		f.Metrics.SourceFetched(kev.Kind, incidents.FetchOK)
		want := `
# HELP vetted_incident_source_fetch_total Reads of the platform-wide incident sources, by source (news, kev, breach, filing) and result (ok, not_modified, error).
# TYPE vetted_incident_source_fetch_total counter
vetted_incident_source_fetch_total{result="ok",source="kev"} 1
`
		if err := testutil.GatherAndCompare(a.Metrics.Registry, strings.NewReader(want), "vetted_incident_source_fetch_total"); err != nil {
			t.Fatalf("the feeds' metrics are not the app's: %v", err)
		}
	}
}

// TestServePollsTheSources: the embedded default has no scheduler, so
// Serve enqueues the incident poll itself once a source is configured:
// at start, and every VETTED_POLL_INTERVAL.
func TestServePollsTheSources(t *testing.T) {
	t.Parallel()
	hits := make(chan struct{}, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		select {
		case hits <- struct{}{}:
		default:
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"vulnerabilities":[]}`))
	}))
	t.Cleanup(srv.Close)
	cfg := embedded(t.TempDir())
	cfg.FetchAllowPrivate, cfg.PollInterval = true, time.Hour
	cfg.IncidentSources = []incidents.Endpoint{{Kind: incidents.SourceKEV, URL: srv.URL + "/kev.json"}}
	a := build(t, cfg, app.Overrides{Store: memstore.New()})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, ln) }()
	select {
	case <-hits:
	case err := <-done:
		t.Fatalf("Serve ended before polling: %v", err)
	case <-time.After(30 * time.Second): // a bound on a hang, not a speed target
		t.Fatal("the source was never polled")
	}
	cancel()
	<-done
}
