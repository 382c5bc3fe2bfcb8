package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/internal/testenv"

	dto "github.com/prometheus/client_model/go"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/ports"
)

// logBuffer is a goroutine-safe JSON log sink.
type logBuffer struct{ testenv.Buffer }

// records decodes every JSON line whose msg is msg (every line for "").
func (b *logBuffer) records(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(b.String()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line is not JSON: %s", sc.Text())
		}
		if msg == "" || m["msg"] == msg {
			out = append(out, m)
		}
	}
	return out
}

func newLogged(t *testing.T) (*apitest.Env, *logBuffer) {
	logs := &logBuffer{}
	return apitest.New(t, apitest.WithLogger(obs.NewLogger(logs, "json", slog.LevelDebug))), logs
}

func TestAccessLogAndRequestID(t *testing.T) {
	t.Parallel()
	e, logs := newLogged(t)
	tok := e.Token("ann@acme.test", apitest.Admin())

	req, _ := http.NewRequest(http.MethodGet, e.URL+"/accounts", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set(api.RequestIDHeader, "caller-chosen-id-1")
	res, err := e.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get(api.RequestIDHeader); got != "caller-chosen-id-1" {
		t.Fatalf("X-Request-Id = %q, want the caller's", got)
	}
	unauth := e.Do(t, http.MethodGet, "/accounts", "", nil)
	generated := unauth.Header.Get(api.RequestIDHeader)
	if len(generated) != 32 {
		t.Fatalf("generated X-Request-Id = %q, want 32 hex characters", generated)
	}
	bad := e.Do(t, http.MethodGet, "/accounts", "", nil)
	if bad.Header.Get(api.RequestIDHeader) == generated {
		t.Fatal("two requests got the same generated id")
	}
	// A link with a signed token in its query string.
	e.Do(t, http.MethodGet, "/unsubscribe?token=secret-signed-token-value", "", nil)
	e.Do(t, http.MethodGet, "/no/such/route/zq-probe-segment", "", nil)

	recs := logs.records(t, "http request")
	if len(recs) != 5 {
		t.Fatalf("%d access log records, want 5:\n%s", len(recs), logs)
	}
	first := recs[0]
	want := map[string]any{"method": "GET", "route": "/accounts", "status": float64(200), "request_id": "caller-chosen-id-1",
		"subject": "sub-ann@acme.test", "level": "INFO"}
	for k, v := range want {
		if first[k] != v {
			t.Errorf("access log %s = %v, want %v (record %v)", k, first[k], v, first)
		}
	}
	if _, ok := first["duration_ms"].(float64); !ok {
		t.Errorf("access log lacks duration_ms: %v", first)
	}
	if b, _ := first["bytes"].(float64); b <= 0 {
		t.Errorf("access log bytes = %v, want the body size", first["bytes"])
	}
	if recs[1]["status"] != float64(401) || recs[1]["subject"] != "" || recs[1]["request_id"] != generated {
		t.Errorf("401 record = %v", recs[1])
	}
	if recs[3]["route"] != "/unsubscribe" {
		t.Errorf("link record route = %v, want /unsubscribe", recs[3]["route"])
	}
	if recs[4]["route"] != "unmatched" || recs[4]["status"] != float64(404) {
		t.Errorf("unknown path record = %v, want route unmatched, 404", recs[4])
	}
	all := logs.String()
	for _, secret := range []string{tok, "secret-signed-token-value", "zq-probe-segment"} {
		if strings.Contains(all, secret) {
			t.Errorf("the log carries %q:\n%s", secret, all)
		}
	}
}

func TestHTTPMetricsByRoutePattern(t *testing.T) {
	t.Parallel()
	e, _ := newLogged(t)
	e.Do(t, http.MethodGet, "/accounts", "", nil)
	e.Do(t, http.MethodGet, "/accounts", "", nil)
	e.Do(t, http.MethodGet, "/random/path/a", "", nil)
	e.Do(t, http.MethodGet, "/random/path/b", "", nil)
	counts := map[string]uint64{}
	mfs, err := e.App.Metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "vetted_http_request_duration_seconds" {
			continue
		}
		for _, m := range mf.GetMetric() {
			counts[labels(m)] = m.GetHistogram().GetSampleCount()
		}
	}
	if counts["GET /accounts 401"] != 2 || counts["GET unmatched 404"] != 2 || len(counts) != 2 {
		t.Fatalf("series %v; want 2 x GET /accounts 401 and 2 x GET unmatched 404", counts)
	}
}

func labels(m *dto.Metric) string {
	l := map[string]string{}
	for _, p := range m.GetLabel() {
		l[p.GetName()] = p.GetValue()
	}
	return l["method"] + " " + l["route"] + " " + l["status"]
}

// panicky is a verifier with a bug.
type panicky struct{}

func (panicky) Verify(context.Context, string) (ports.Identity, error) { panic("verifier bug") }

func TestPanicBecomesLogged500Problem(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	logs := &logBuffer{}
	s, err := api.New(e.Svc, api.Options{Verifier: panicky{}, Logger: obs.NewLogger(logs, "json", slog.LevelInfo)})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/accounts", nil)
	req.Header.Set("Authorization", "Bearer x")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var p struct {
		Status int    `json:"status"`
		Title  string `json:"title"`
	}
	if err := json.NewDecoder(res.Body).Decode(&p); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 500 || res.Header.Get("Content-Type") != "application/problem+json" || p.Status != 500 {
		t.Fatalf("answer %d %s %+v; want a 500 problem", res.StatusCode, res.Header.Get("Content-Type"), p)
	}
	panics := logs.records(t, "panic")
	if len(panics) != 1 || panics[0]["panic"] != "verifier bug" || !strings.Contains(panics[0]["stack"].(string), "panicky") ||
		panics[0]["request_id"] != res.Header.Get(api.RequestIDHeader) {
		t.Fatalf("panic records %v", panics)
	}
	if acc := logs.records(t, "http request"); len(acc) != 1 || acc[0]["status"] != float64(500) || acc[0]["level"] != "ERROR" {
		t.Fatalf("access records %v; want one 500 at ERROR", acc)
	}
}
