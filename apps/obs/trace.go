package obs

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.37.0"
	"go.opentelemetry.io/otel/trace"
)

const tracerName = "github.com/vetted-dev/vetted/apps/obs"

// TracingEnabled reports whether lookup asks for trace export: an OTLP
// endpoint is set and the SDK is not disabled.
func TracingEnabled(lookup func(string) (string, bool)) bool {
	if v, _ := lookup("OTEL_SDK_DISABLED"); v != "" {
		if off, err := strconv.ParseBool(v); err == nil && off {
			return false
		}
	}
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"} {
		if v, _ := lookup(k); v != "" {
			return true
		}
	}
	return false
}

// StartTracing installs the global tracer provider and W3C trace-context
// propagation when the environment asks for export (see TracingEnabled);
// otherwise tracing stays the no-op default and costs next to nothing. The
// exporter reads the standard OTEL_EXPORTER_OTLP_* variables itself, and
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES name the service
// (default service.name=vetted-<component>). The returned function flushes
// and stops the exporter.
func StartTracing(ctx context.Context, component, version string) (func(context.Context) error, error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	if !TracingEnabled(os.LookupEnv) {
		return func(context.Context) error { return nil }, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, errors.Join(errors.New("otlp trace exporter"), err)
	}
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(
		semconv.ServiceName("vetted-"+component), semconv.ServiceVersion(version)))
	if err != nil {
		return nil, err
	}
	// Default() reads OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES; let
	// them win over our default name.
	if res, err = resource.Merge(res, resource.Environment()); err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	SetTracerProvider(tp)
	return tp.Shutdown, nil
}

var tracing atomic.Bool

// SetTracerProvider installs tp as the global tracer provider and tells
// Tracing so: what is built afterwards (the API's server spans) traces.
func SetTracerProvider(tp trace.TracerProvider) {
	otel.SetTracerProvider(tp)
	tracing.Store(true)
}

// Tracing reports whether a tracer provider was installed with
// SetTracerProvider. Without one, the API leaves out its tracing
// middleware, whose no-op spans still cost an allocation or two per request.
func Tracing() bool { return tracing.Load() }
