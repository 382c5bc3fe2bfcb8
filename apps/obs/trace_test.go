package obs_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/vetted-dev/vetted/apps/obs"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/trace/noop"
)

// TestStartTracingExportsOverOTLP runs a fake OTLP/HTTP collector on
// loopback and checks that a span reaches it. Not parallel: it sets the
// environment and the global tracer provider.
func TestStartTracingExportsOverOTLP(t *testing.T) {
	var (
		mu    sync.Mutex
		paths []string
		sizes []int
	)
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		paths, sizes = append(paths, r.URL.Path), append(sizes, len(body))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	t.Setenv("OTEL_SERVICE_NAME", "vetted-test")
	t.Cleanup(func() { otel.SetTracerProvider(noop.NewTracerProvider()) })

	shutdown, err := obs.StartTracing(context.Background(), "api", "test")
	if err != nil {
		t.Fatal(err)
	}
	_, span := otel.Tracer("test").Start(context.Background(), "GET /accounts")
	span.End()
	if err := shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) != 1 || paths[0] != "/v1/traces" || sizes[0] == 0 {
		t.Fatalf("collector got %v (%v bytes); want one export to /v1/traces", paths, sizes)
	}
}

func TestStartTracingIsOffWithoutEndpoint(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
	before := otel.GetTracerProvider()
	shutdown, err := obs.StartTracing(context.Background(), "api", "test")
	if err != nil {
		t.Fatal(err)
	}
	if otel.GetTracerProvider() != before {
		t.Fatal("StartTracing installed a provider without an endpoint")
	}
	if err := shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
}
