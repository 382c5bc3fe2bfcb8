// Package api is Vetted's HTTP API: huma operations on a chi router, one per
// route of the contract, each calling one use case of the core's areas (core/usecases wires them). Auth is
// a bearer JWT checked by a ports.TokenVerifier on every operation that
// declares the "bearer" security scheme; core errors become RFC 9457
// problem+json responses in one place (errors.go).
//
// routes.go lists every operation in one table (id, method, path, summary,
// tags, security, errors) with the handler method that answers it, and one
// loop registers them. There is one handler type per area of the core
// (accountsHandler and membersHandler, listsHandler, vendorsHandler,
// assessmentsHandler, alertsHandler, webhooksHandler, ratingsHandler,
// healthHandler), with a named method per operation: it parses the input
// into the core's values, calls the use case and maps the result to the
// answer.
//
// One route answers more than one operation of the contract: POST
// /vendor-lists creates a list, or, by its operation query parameter, saves,
// adds or removes vendors or imports a CSV batch. huma and OpenAPI have one
// operation per method and path, so it stays one operation
// (post-vendor-lists) whose handler dispatches to a named method per
// operation value (listsHandler.post); splitting it would change the wire
// contract.
//
// Decisions where the contract is silent are recorded in docs/DECISIONS.md.
package api

import (
	"cmp"
	"context"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"
	"github.com/rs/cors"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/attestations"
	"github.com/vetted-dev/vetted/core/contracts"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/records"
	"github.com/vetted-dev/vetted/core/usecases"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports"
)

// Version is the API version published in the OpenAPI document (semver).
const Version = "1.0.0"

// Options configure the HTTP app.
type Options struct {
	// Verifier checks bearer tokens. Required.
	Verifier ports.TokenVerifier
	// Clock is the use cases' clock, by which remembered answers age (see
	// answers.go); nil is the system clock.
	Clock ports.Clock
	// Blobs, when set, is mounted at BlobsPath (the local blob store's
	// signed-URL handler of the embedded default).
	Blobs http.Handler
	// BlobsPath is where Blobs is mounted; default "/blobs/".
	BlobsPath string
	// Console, when set, serves the web console: it answers GET /, /app
	// and everything under /app/ (apps/console), paths no API route uses.
	Console http.Handler
	// Ready reports dependencies for /readyz besides the store (e.g. Redis).
	Ready []func(context.Context) error
	// Warnings are conditions /readyz reports to platform admins without
	// answering 503, such as a sign-in key set gone stale: the process
	// still serves.
	Warnings []ReadyWarning
	// Checks are further /readyz checks, each named in the answer (the
	// store's schema version, on PostgreSQL).
	Checks []ReadyCheck
	// BodyReadTimeout bounds the reading of one request body (0:
	// DefaultBodyReadTimeout) in place of huma's 5 s, which refused a slow
	// client's import that the route's size limit allows.
	BodyReadTimeout time.Duration
	// RateLimit is requests per second per caller (0 = 100, negative = no
	// limit); Burst is how many may come at once (0 = twice RateLimit).
	RateLimit float64
	Burst     int
	// CORSOrigins are the browser origins allowed to call the API
	// ("https://app.example.com"); "*" allows any. Empty: no CORS headers.
	CORSOrigins []string
	// Logger is the base of the request-scoped loggers and of the access
	// log; nil is slog.Default().
	Logger *slog.Logger
	// Metrics, when set, records request durations by route and status.
	Metrics *obs.Metrics
	// Invalidation, when set, reports how this process hears of other
	// processes' writes, for platform admins' /readyz; nil reports none.
	Invalidation func() InvalidationJSON
}

// ReadyCheck is one named check of /readyz.
type ReadyCheck struct {
	Name  string
	Check func(context.Context) error
}

// DefaultBodyReadTimeout is Options.BodyReadTimeout when zero.
const DefaultBodyReadTimeout = 60 * time.Second

// ReadyWarning is one condition /readyz reports to platform admins.
type ReadyWarning struct {
	Name string
	// Check says what is wrong, or "" when nothing is.
	Check func() string
}

// Server is the HTTP app.
type Server struct {
	// The areas of the core the handlers call.
	accounts    *accounts.Service
	lists       *lists.Service
	vendors     *vendors.Service
	assessments *assessments.Service
	alerts      *alerts.Service
	incidents   *incidents.Service
	webhooks    *webhooks.Service
	records     *records.Service
	contracts   *contracts.Service
	ready       func(context.Context) error
	opts        Options
	api         huma.API
	router      chi.Router
	handler     http.Handler
	limiter     *limiter
	log         *slog.Logger
	views       viewMemo      // see encodedView
	answers     *answers      // see answers.go
	longLists   chan struct{} // turns of the long whole-list reads (see streamList)

	// The attestations area.
	attestations *attestations.Service
}

// New builds the HTTP app over the use cases.
func New(uc *usecases.UseCases, opts Options) (*Server, error) {
	if uc == nil || opts.Verifier == nil {
		return nil, errMissing
	}
	if opts.BlobsPath == "" {
		opts.BlobsPath = "/blobs/"
	}
	if opts.RateLimit == 0 {
		opts.RateLimit = 100
	}
	if opts.Burst == 0 {
		opts.Burst = max(1, int(opts.RateLimit*2))
	}
	r := chi.NewMux()
	s := &Server{accounts: uc.Accounts, lists: uc.Lists, vendors: uc.Vendors, assessments: uc.Assessments, alerts: uc.Alerts,
		incidents: uc.Incidents, webhooks: uc.Webhooks, records: uc.Records, contracts: uc.Contracts, ready: uc.Ready, opts: opts, router: r, limiter: newLimiter(opts.RateLimit, opts.Burst), log: opts.Logger,
		longLists: make(chan struct{}, longListTurns())}
	s.attestations = uc.Attestations
	if s.log == nil {
		s.log = slog.Default()
	}
	r.Use(s.observe) // before any route: chi refuses middleware after
	answerUnrouted(r)
	s.api = huma.NewAPI(Config(), newRouteAdapter(r))
	bodyTimeout := cmp.Or(opts.BodyReadTimeout, DefaultBodyReadTimeout)
	// Register gives every operation with a body huma's 5 s before it adds
	// it here, and reads the field again on each request.
	s.api.OpenAPI().OnAddOperation = append(s.api.OpenAPI().OnAddOperation, func(_ *huma.OpenAPI, op *huma.Operation) {
		if op.BodyReadTimeout > 0 {
			op.BodyReadTimeout = bodyTimeout
		}
	})
	s.answers = newAnswers(opts.Clock)
	s.api.UseMiddleware(withOperation, s.authenticate, scopeWrites, s.answers.middleware)
	s.register()
	if opts.Blobs != nil {
		r.Handle(opts.BlobsPath+"*", opts.Blobs)
	}
	s.registerLinks(r)
	if opts.Console != nil {
		r.Handle("/", opts.Console)
		r.Handle("/app", opts.Console)
		r.Handle("/app/*", opts.Console)
	}
	s.handler = corsHandler(opts.CORSOrigins, traced(noSniff(r)))
	registerDocs(r, Config().Info.Title)
	return s, nil
}

// corsHandler lets the browsers of the given origins call every route:
// preflights are answered for every method with Authorization and
// Content-Type allowed, and Vary: Origin is set. Credentials (cookies) are
// never allowed, since the API authenticates with bearer tokens only; that
// is also what makes the "*" origin safe.
func corsHandler(origins []string, next http.Handler) http.Handler {
	if len(origins) == 0 {
		return next
	}
	return cors.New(cors.Options{
		AllowedOrigins: origins,
		AllowedMethods: []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
		AllowedHeaders: []string{"Authorization", "Content-Type", "X-Request-Id", "If-Match"},
		ExposedHeaders: []string{"Retry-After", "X-Request-Id", "WWW-Authenticate", "ETag"},
		MaxAge:         int(corsMaxAge / time.Second),
	}).Handler(next)
}

// noSniff tells browsers to trust the declared Content-Type of every answer.
func noSniff(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

// corsMaxAge is how long a browser may cache a preflight answer.
const corsMaxAge = 10 * time.Minute

// Config is the huma configuration, shared with the OpenAPI generator. It
// also sets huma's package-level settings the API needs (useHumaSettings),
// since every API this package builds starts from it.
func Config() huma.Config {
	useHumaSettings()
	cfg := huma.DefaultConfig("Vetted API", Version)
	cfg.Formats = map[string]huma.Format{"application/json": jsonFormat, "json": jsonFormat}
	cfg.CreateHooks = nil // no $schema links in bodies: plain JSON answers
	cfg.DocsPath = ""     // /docs is served offline by registerDocs (docs.go)
	cfg.Info.Description = "Third-party vendor risk management: vendor directory, vendor lists, assessments, evidence, subscribers and incident alerts."
	cfg.Info.License = &huma.License{Name: "Apache-2.0", Identifier: "Apache-2.0"}
	cfg.Servers = []*huma.Server{{URL: "/", Description: "The server that serves this document"}}
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		bearerScheme: {Type: "http", Scheme: "bearer", BearerFormat: "JWT"},
	}
	return cfg
}

// preEncoded is a response body that may already hold its JSON encoding
// (a remembered vendor view): jsonFormat writes those bytes as they are.
type preEncoded interface {
	encodedJSON() []byte
}

// jsonFormat is huma's JSON format, except that a body already encoded is
// written as it is. huma's encoder would otherwise pass the bytes of a
// json.Marshaler through encoding/json's validation and compaction, which
// cost the hot read (GET /vendor) a third of its CPU. The answer is the
// same bytes either way: compact JSON and a newline.
var jsonFormat = huma.Format{
	Marshal: func(w io.Writer, v any) error {
		if pe, ok := v.(preEncoded); ok {
			if raw := pe.encodedJSON(); raw != nil {
				if _, err := w.Write(raw); err != nil {
					return err
				}
				_, err := w.Write(newline)
				return err
			}
		}
		return huma.DefaultJSONFormat.Marshal(w, v)
	},
	Unmarshal: huma.DefaultJSONFormat.Unmarshal,
}

var newline = []byte{'\n'}

// writeJSON writes body as huma writes an operation's Body value, for an
// operation whose Body is a function (its answer is sometimes streamed).
func (s *Server) writeJSON(body any) func(huma.Context) {
	return func(hctx huma.Context) {
		ct, ok := s.startJSON(hctx)
		if !ok {
			return
		}
		// Written in one piece (an encoder writes once), so a client gone
		// meanwhile leaves nothing half-sent to remember: as huma, the
		// error is dropped.
		_ = s.api.Marshal(hctx.BodyWriter(), ct, body)
	}
}

// startJSON begins a 200 answer as huma begins one: the Content-Type
// negotiated from Accept, then the status. It returns the content type, or
// false once it has answered 406 as huma would (which the API's formats,
// with their fallback to application/json, never need).
func (s *Server) startJSON(hctx huma.Context) (string, bool) {
	ct, err := s.api.Negotiate(hctx.Header("Accept"))
	if err != nil {
		_ = huma.WriteErr(s.api, hctx, http.StatusNotAcceptable, "unable to marshal response", err)
		return "", false
	}
	hctx.SetHeader("Content-Type", ct)
	hctx.SetStatus(http.StatusOK)
	return ct, true
}

// Handler returns the http.Handler.
func (s *Server) Handler() http.Handler { return s.handler }

// API returns the huma API (for OpenAPI generation).
func (s *Server) API() huma.API { return s.api }

const bearerScheme = "bearer"

var (
	secured = []map[string][]string{{bearerScheme: {}}}
	// public operations declare an empty security requirement.
	public = []map[string][]string{}
	// optionalBearer operations answer anonymous callers, and tell a
	// caller with a token more (an empty requirement: none needed); they
	// never refuse a token (see authenticateOptional).
	optionalBearer = []map[string][]string{{}, {bearerScheme: {}}}
)

// The refusals each kind of operation can answer, declared in the document
// as problem+json responses. Every secured operation can be refused for the
// token (401, or 403 when its e-mail signed in under another subject), the
// rate limit (429) and an outage (503).
var (
	// directoryErrors: reads of the global directory, open to any caller.
	directoryErrors = []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusUnprocessableEntity,
		http.StatusTooManyRequests, http.StatusServiceUnavailable}
	// accountErrors: routes that take account-id, and platform-admin routes.
	accountErrors = []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound,
		http.StatusUnprocessableEntity, http.StatusTooManyRequests, http.StatusServiceUnavailable}
	// writeErrors: writes that can collide with what exists.
	writeErrors = append(slices.Clone(accountErrors), http.StatusConflict)
)

// jsonResponse declares a JSON response whose body has the schema of the
// type of body (for answers besides an operation's default one).
func (s *Server) jsonResponse(desc string, body any) *huma.Response {
	schema := s.api.OpenAPI().Components.Schemas.Schema(reflect.TypeOf(body), true, "")
	return &huma.Response{Description: desc, Content: map[string]*huma.MediaType{"application/json": {Schema: schema}}}
}

// Describe builds the API description without a service, for writing the
// OpenAPI document (vetted openapi, make openapi).
func Describe() huma.API {
	s := &Server{router: chi.NewMux()}
	s.api = humachi.New(s.router, Config())
	s.register()
	return s.api
}
