// Package obs is Vetted's observability: the process logger (log/slog, JSON
// or text), the request-scoped logger in a context, Prometheus metrics with
// decorators for the ports whose work is worth counting (jobs, mail,
// enrichment), the outbox backlog, OpenTelemetry tracing exported over
// OTLP/HTTP when the standard OTEL_EXPORTER_OTLP_ENDPOINT is set, and the
// admin listener that serves /metrics and pprof. The core knows none of it:
// everything here wraps ports or runs in the apps.
package obs

import (
	"context"
	"io"
	"log/slog"

	"go.opentelemetry.io/otel/trace"
)

// NewLogger builds the process logger: format "json" or "text", records
// below level dropped. Records logged with a context that carries a span
// get its trace_id and span_id, so logs and traces join up.
func NewLogger(w io.Writer, format string, level slog.Leveler) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	} else {
		h = slog.NewTextHandler(w, opts)
	}
	th := traceHandler{Handler: h}
	if f, ok := w.(flusher); ok { // a LineBuffer: warnings and errors are seen at once
		th.flush = f
	}
	return slog.New(th)
}

type flusher interface{ Flush() error }

// traceHandler adds the span of the record's context, and flushes a
// buffered writer after a record at level Warn or above.
type traceHandler struct {
	slog.Handler
	flush flusher
}

func (h traceHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	err := h.Handler.Handle(ctx, r)
	if h.flush != nil && r.Level >= slog.LevelWarn {
		if ferr := h.flush.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h traceHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return traceHandler{Handler: h.Handler.WithAttrs(as), flush: h.flush}
}

func (h traceHandler) WithGroup(name string) slog.Handler {
	return traceHandler{Handler: h.Handler.WithGroup(name), flush: h.flush}
}

type loggerKey struct{}

// WithLogger returns ctx carrying l, the logger of one request or job.
func WithLogger(ctx context.Context, l *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, l)
}

// LoggerSource makes the logger of a request or job when it is first asked
// for: most requests log nothing but their access-log line, so building a
// logger with their attributes up front was work thrown away.
type LoggerSource interface {
	Logger() *slog.Logger
}

// WithLoggerSource returns ctx carrying src, whose logger Logger returns.
func WithLoggerSource(ctx context.Context, src LoggerSource) context.Context {
	return context.WithValue(ctx, loggerKey{}, src)
}

// Logger returns the logger ctx carries (with the request id of an HTTP
// request), or slog.Default() when it carries none.
func Logger(ctx context.Context) *slog.Logger {
	switch l := ctx.Value(loggerKey{}).(type) {
	case *slog.Logger:
		return l
	case LoggerSource:
		return l.Logger()
	}
	return slog.Default()
}
