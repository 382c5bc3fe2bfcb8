package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/go-chi/chi/v5"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/core/accounts"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
)

// RequestIDHeader carries the request id: taken from the request when it
// is a sane token (a proxy's or the caller's), generated otherwise, and
// always echoed in the response.
const RequestIDHeader = "X-Request-Id"

// unmatchedRoute labels requests no route matched, so that scanners probing
// random paths cannot create a metric series per path.
const unmatchedRoute = "unmatched"

// reqInfo is the state of one request, in its context once (observe): its
// id and logger (made when first asked for: obs.LoggerSource), and what the
// huma middlewares learn, the operation (withOperation) and the caller
// (authenticate), for the handlers, the error mapping and the access log.
// The middlewares fill it in before the handler runs, on the request's
// goroutine; after that it is only read.
type reqInfo struct {
	id      string
	base    *slog.Logger
	logOnce sync.Once
	log     *slog.Logger

	op      *huma.Operation
	subject string
	actor   accounts.Actor
}

type reqInfoKey struct{}

func reqInfoOf(ctx context.Context) *reqInfo {
	ri, _ := ctx.Value(reqInfoKey{}).(*reqInfo)
	return ri
}

// Logger is the request's logger: the process logger with request_id.
func (ri *reqInfo) Logger() *slog.Logger {
	ri.logOnce.Do(func() { ri.log = ri.base.With("request_id", ri.id) })
	return ri.log
}

// noteSubject records the authenticated caller for the access log.
func noteSubject(ctx context.Context, subject string) {
	if ri := reqInfoOf(ctx); ri != nil {
		ri.subject = subject
	}
}

// traced wraps the whole router in an OpenTelemetry server span when a
// tracer provider is installed (obs.Tracing); observe names the span after
// the route. Without one it adds nothing.
func traced(h http.Handler) http.Handler {
	if !obs.Tracing() {
		return h
	}
	return otelhttp.NewHandler(h, "http.server",
		otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string { return r.Method }))
}

// observe is the chi middleware every request passes: request id, a
// request-scoped logger in the context (obs.Logger), panic recovery to a
// logged 500 problem, the access log and the duration histogram. It logs
// the route pattern, never the raw URL: query strings carry signed tokens
// (confirmation and unsubscribe links, blob URLs).
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		id := requestID(r.Header.Get(RequestIDHeader))
		w.Header().Set(RequestIDHeader, id)
		ri := &reqInfo{id: id, base: s.log}
		ctx := context.WithValue(obs.WithLoggerSource(r.Context(), ri), reqInfoKey{}, ri)
		rec := &recorder{ResponseWriter: w}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p) // the server's way to abort a response; not a bug
				}
				ri.Logger().ErrorContext(ctx, "panic", "method", r.Method, "route", route(r), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if !rec.wrote {
					writeProblem(rec, http.StatusInternalServerError, "internal error")
				}
			}
			s.logAccess(ctx, r, rec, ri, time.Since(start))
		}()
		next.ServeHTTP(rec, r.WithContext(ctx))
	})
}

func (s *Server) logAccess(ctx context.Context, r *http.Request, rec *recorder, ri *reqInfo, d time.Duration) {
	status := rec.status
	if status == 0 {
		status = http.StatusOK
	}
	rt := route(r)
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetName(r.Method + " " + rt)
		span.SetAttributes(attribute.String("http.route", rt))
	}
	s.opts.Metrics.ObserveHTTP(rt, r.Method, strconv.Itoa(status), d)
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	if !s.log.Enabled(ctx, level) {
		return
	}
	// A record made here, not by Logger.LogAttrs: that one walks the stack
	// for the caller's PC on every request, for a source never logged.
	line := slog.NewRecord(time.Now(), level, "http request", 0)
	line.AddAttrs(
		slog.String("request_id", ri.id),
		slog.String("method", r.Method),
		slog.String("route", rt),
		slog.Int("status", status),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000),
		slog.Int64("bytes", rec.bytes),
		slog.String("subject", ri.subject),
		slog.String("remote", r.RemoteAddr))
	_ = s.log.Handler().Handle(ctx, line)
}

// route is the matched chi pattern, e.g. /vendor-lists/{id}/vendors.
func route(r *http.Request) string {
	if rc := chi.RouteContext(r.Context()); rc != nil {
		if p := rc.RoutePattern(); p != "" {
			if path, ok := routePatterns[p]; ok {
				return path
			}
			return p
		}
	}
	return unmatchedRoute
}

// requestID keeps a caller's id when it is short and printable (it goes
// into logs as is) and makes a new random one otherwise.
func requestID(in string) string {
	if len(in) > 0 && len(in) <= 128 {
		ok := true
		for _, c := range in {
			if c <= ' ' || c > '~' {
				ok = false
				break
			}
		}
		if ok {
			return in
		}
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// writeProblem answers an RFC 9457 problem outside huma (after a panic).
func writeProblem(w http.ResponseWriter, status int, detail string) {
	body, _ := json.Marshal(&huma.ErrorModel{Title: http.StatusText(status), Status: status, Detail: detail})
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// recorder notes the status and size of a response.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
	wrote  bool
}

// WriteHeader passes the first status on; a later one is dropped, as
// net/http would drop it, without its "superfluous WriteHeader" line (huma
// sets an error status when writing a body fails, which happens when the
// client has gone away mid-answer).
func (r *recorder) WriteHeader(code int) {
	if code < 200 { // informational (103 Early Hints): the final status follows
		r.ResponseWriter.WriteHeader(code)
		return
	}
	if r.wrote {
		return
	}
	r.status, r.wrote = code, true
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.status, r.wrote = http.StatusOK, true
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (flush,
// deadlines) through the recorder.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// Flush passes streaming responses through.
func (r *recorder) Flush() {
	if !r.wrote {
		r.status, r.wrote = http.StatusOK, true
	}
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
