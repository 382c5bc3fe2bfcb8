package api_test

import (
	"net/http"
	"testing"

	"github.com/vetted-dev/vetted/apps/obs"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// TestRequestSpanNamedByRoute checks that a request gets a server span named
// after its route pattern, continuing the caller's trace (traceparent), and
// that its access log carries the trace id. Not parallel: it sets the
// global tracer provider, which the API picks up when it is built.
func TestRequestSpanNamedByRoute(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	obs.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	prevProp := otel.GetTextMapPropagator()
	otel.SetTextMapPropagator(propagation.TraceContext{}) // as obs.StartTracing does
	t.Cleanup(func() { otel.SetTracerProvider(prev); otel.SetTextMapPropagator(prevProp) })

	e, logs := newLogged(t)
	const traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
	req, _ := http.NewRequest(http.MethodGet, e.URL+"/vendor-lists?account-id=individual", nil)
	req.Header.Set("traceparent", "00-"+traceID+"-00f067aa0ba902b7-01")
	req.Header.Set("Authorization", "Bearer "+e.Token("ann@acme.test"))
	res, err := e.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()

	var server []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.SpanKind() == trace.SpanKindServer {
			server = append(server, s)
		}
	}
	if len(server) != 1 || server[0].Name() != "GET /vendor-lists" || server[0].SpanContext().TraceID().String() != traceID {
		names := []string{}
		for _, s := range server {
			names = append(names, s.Name()+" "+s.SpanContext().TraceID().String())
		}
		t.Fatalf("server spans %v; want one GET /vendor-lists in trace %s", names, traceID)
	}
	acc := logs.records(t, "http request")
	if len(acc) != 1 || acc[0]["trace_id"] != traceID {
		t.Fatalf("access log %v; want the trace id", acc)
	}
}
