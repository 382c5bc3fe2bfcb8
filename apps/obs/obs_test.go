package obs_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/vetted-dev/vetted/adapters/mailbox"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
	"go.opentelemetry.io/otel/trace"
)

func TestNewLogger(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := obs.NewLogger(&buf, "json", slog.LevelWarn)
	log.Info("dropped")
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1}, SpanID: trace.SpanID{2}, TraceFlags: trace.FlagsSampled})
	log.With("a", 1).WarnContext(trace.ContextWithSpanContext(context.Background(), sc), "kept")
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatalf("not one JSON record: %q", buf.String())
	}
	if m["msg"] != "kept" || m["a"] != float64(1) || m["trace_id"] != sc.TraceID().String() || m["span_id"] != sc.SpanID().String() {
		t.Fatalf("record %v", m)
	}
	buf.Reset()
	obs.NewLogger(&buf, "text", slog.LevelInfo).Info("hello", "k", "v")
	if !strings.Contains(buf.String(), "msg=hello k=v") {
		t.Fatalf("text record %q", buf.String())
	}
}

func TestLoggerFromContext(t *testing.T) {
	t.Parallel()
	if obs.Logger(context.Background()) != slog.Default() {
		t.Fatal("a bare context does not give slog.Default()")
	}
	l := slog.New(slog.DiscardHandler)
	if obs.Logger(obs.WithLogger(context.Background(), l)) != l {
		t.Fatal("the context's logger is not returned")
	}
}

type handlerFunc func(context.Context, outbox.Kind, any) error

func (f handlerFunc) Handle(ctx context.Context, k outbox.Kind, p any) error {
	return f(ctx, k, p)
}

func TestJobsCountedByKindAndResult(t *testing.T) {
	t.Parallel()
	m := obs.NewMetrics()
	h := m.Jobs(handlerFunc(func(ctx context.Context, k outbox.Kind, _ any) error {
		switch k {
		case outbox.KindEnrich:
			return errors.New("timeout")
		case outbox.KindBlobDelete:
			return fmt.Errorf("gone: %w", ports.ErrPermanent)
		case outbox.KindMemberMail:
			return ports.NotYet(time.Minute, errors.New("claimed by another run"))
		}
		return nil
	}))
	for _, k := range []outbox.Kind{outbox.KindAlertMail, outbox.KindAlertMail, outbox.KindEnrich, outbox.KindBlobDelete, outbox.KindMemberMail} {
		_ = h.Handle(context.Background(), k, nil)
	}
	want := `
# HELP vetted_jobs_total Jobs run, by kind and result (ok, error, permanent_error, not_yet).
# TYPE vetted_jobs_total counter
vetted_jobs_total{kind="blob:delete",result="permanent_error"} 1
vetted_jobs_total{kind="enrich:vendor",result="error"} 1
vetted_jobs_total{kind="mail:alert",result="ok"} 2
vetted_jobs_total{kind="mail:member",result="not_yet"} 1
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "vetted_jobs_total"); err != nil {
		t.Fatal(err)
	}
}

type failingEnricher struct{}

func (failingEnricher) Enrich(context.Context, vendors.Vendor, vendors.Profile, []vendors.Section) (vendors.EnrichResult, error) {
	return vendors.EnrichResult{}, errors.New("no route")
}

// stateEnricher records the given state for each section it is asked for.
type stateEnricher map[vendors.Section]string

func (e stateEnricher) Enrich(_ context.Context, _ vendors.Vendor, p vendors.Profile, secs []vendors.Section) (vendors.EnrichResult, error) {
	p.Enrichment = map[vendors.Section]vendors.SectionStatus{}
	for _, s := range secs {
		p.Enrichment[s] = vendors.SectionStatus{Status: e[s], Error: "why " + string(s)}
	}
	return vendors.EnrichResult{Profile: p}, nil
}

func TestMailAndEnrichmentCounters(t *testing.T) {
	t.Parallel()
	m := obs.NewMetrics()
	box := mailbox.New()
	mailer := m.Mailer(box)
	_ = mailer.Send(context.Background(), mailtmpl.Mail{To: "a@x.test"})
	box.FailNext(1, errors.New("smtp down"))
	_ = mailer.Send(context.Background(), mailtmpl.Mail{To: "b@x.test"})
	_, _ = m.Enricher(failingEnricher{}).Enrich(context.Background(), vendors.Vendor{}, vendors.Profile{}, nil)
	// Sections are what the outcome is read from: a vendor with no website
	// has every web section failed, and is no "ok".
	secs := []vendors.Section{vendors.SectionBasic, vendors.SectionSecurity, vendors.SectionMaturity}
	for _, states := range []map[vendors.Section]string{
		{vendors.SectionBasic: "failed", vendors.SectionSecurity: "failed", vendors.SectionMaturity: "skipped"},
		{vendors.SectionBasic: "done", vendors.SectionSecurity: "failed", vendors.SectionMaturity: "skipped"},
		{vendors.SectionBasic: "done", vendors.SectionSecurity: "done", vendors.SectionMaturity: "skipped"},
		{vendors.SectionBasic: "failed", vendors.SectionSecurity: "failed"},
	} {
		_, _ = m.Enricher(stateEnricher(states)).Enrich(context.Background(), vendors.Vendor{}, vendors.Profile{}, secs)
	}
	want := `
# HELP vetted_enrichments_total Vendor enrichments, by result: ok, partial (some requested sections failed), failed (none found anything, e.g. no website), skipped (every section skipped), error (the enricher could not run).
# TYPE vetted_enrichments_total counter
vetted_enrichments_total{result="error"} 1
vetted_enrichments_total{result="failed"} 2
vetted_enrichments_total{result="ok"} 1
vetted_enrichments_total{result="partial"} 1
# HELP vetted_mails_total Mails handed to the transport, by result (sent, failed).
# TYPE vetted_mails_total counter
vetted_mails_total{result="failed"} 1
vetted_mails_total{result="sent"} 1
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "vetted_mails_total", "vetted_enrichments_total"); err != nil {
		t.Fatal(err)
	}
}

type clock struct{ now time.Time }

func (c clock) Now() time.Time { return c.now }

func TestOutboxBacklogAndAge(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	store := memstore.New()
	m := obs.NewMetrics()
	m.WatchOutbox(store, clock{now: t0.Add(90 * time.Second)})
	err := store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		return tx.Outbox().Add(ctx,
			outbox.New(uuid.Must(uuid.NewV7()), outbox.KindBlobDelete, outbox.BlobDelete{}, t0),
			outbox.New(uuid.Must(uuid.NewV7()), outbox.KindBlobDelete, outbox.BlobDelete{}, t0.Add(time.Minute)))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `
# HELP vetted_outbox_backlog Outbox messages not yet handed to the job queue.
# TYPE vetted_outbox_backlog gauge
vetted_outbox_backlog 2
# HELP vetted_outbox_oldest_age_seconds Age of the oldest undelivered outbox message (0 when none).
# TYPE vetted_outbox_oldest_age_seconds gauge
vetted_outbox_oldest_age_seconds 90
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "vetted_outbox_backlog", "vetted_outbox_oldest_age_seconds"); err != nil {
		t.Fatal(err)
	}
}

// downStore fails every unit of work.
type downStore struct{ stores.Store }

func (downStore) View(context.Context, func(context.Context, stores.Tx) error) error {
	return errors.New("connection refused")
}

func TestOutboxScrapeSurvivesAStoreOutage(t *testing.T) {
	t.Parallel()
	m := obs.NewMetrics()
	m.WatchOutbox(downStore{}, clock{})
	want := `
# HELP vetted_outbox_scrape_ok 1 when the store answered the backlog query at this scrape.
# TYPE vetted_outbox_scrape_ok gauge
vetted_outbox_scrape_ok 0
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want), "vetted_outbox_scrape_ok", "vetted_outbox_backlog"); err != nil {
		t.Fatal(err)
	}
}

func TestAdminHandler(t *testing.T) {
	t.Parallel()
	m := obs.NewMetrics()
	m.ObserveHTTP("/accounts", "GET", "200", time.Millisecond)
	srv := httptest.NewServer(obs.AdminHandler(m, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)
	for path, want := range map[string]string{
		"/metrics":                       `vetted_http_request_duration_seconds_count{method="GET",route="/accounts",status="200"} 1`,
		"/debug/pprof/":                  "goroutine",
		"/debug/pprof/goroutine?debug=1": "goroutine profile",
		"/":                              "/metrics",
	} {
		res, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
			t.Errorf("GET %s = %d, want 200 with %q", path, res.StatusCode, want)
		}
	}
}

func TestServeAdminStopsWithContext(t *testing.T) {
	t.Parallel()
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- obs.ServeAdmin(ctx, ln, http.NotFoundHandler()) }()
	res, err := http.Get("http://" + ln.Addr().String() + "/x")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("ServeAdmin = %v, want nil after cancel", err)
	}
}

func TestTracingEnabled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		want bool
	}{
		{nil, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4318/v1/traces"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"}, false},
	}
	for _, tt := range tests {
		got := obs.TracingEnabled(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
		if got != tt.want {
			t.Errorf("TracingEnabled(%v) = %v, want %v", tt.env, got, tt.want)
		}
	}
}
