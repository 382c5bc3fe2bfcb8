// Package api is Vetted's HTTP API: huma operations on a chi router, one per
// route of the contract, each calling one use case of core/service. Auth is
// a bearer JWT checked by a ports.TokenVerifier on every operation that
// declares the "bearer" security scheme; core errors become RFC 9457
// problem+json responses in one place (errors.go).
//
// Decisions where the contract is silent are recorded in docs/DECISIONS.md.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/core/service"
	"github.com/vetted-dev/vetted/ports"
)

// Version is the API version published in the OpenAPI document (semver).
const Version = "1.0.0"

// Options configure the HTTP app.
type Options struct {
	// Verifier checks bearer tokens. Required.
	Verifier ports.TokenVerifier
	// Blobs, when set, is mounted at BlobsPath (the local blob store's
	// signed-URL handler of the embedded default).
	Blobs http.Handler
	// BlobsPath is where Blobs is mounted; default "/blobs/".
	BlobsPath string
	// Ready reports dependencies for /readyz besides the store (e.g. Redis).
	Ready []func(context.Context) error
	// RateLimit is requests per second per caller (0 = 20); Burst defaults to 5x.
	RateLimit float64
	Burst     int
	// Logger is the base of the request-scoped loggers and of the access
	// log; nil is slog.Default().
	Logger *slog.Logger
	// Metrics, when set, records request durations by route and status.
	Metrics *obs.Metrics
}

// Server is the HTTP app.
type Server struct {
	svc     *service.Service
	opts    Options
	api     huma.API
	router  chi.Router
	limiter *limiter
	log     *slog.Logger
	handler http.Handler
}

// New builds the HTTP app over the service.
func New(svc *service.Service, opts Options) (*Server, error) {
	if svc == nil || opts.Verifier == nil {
		return nil, errMissing
	}
	if opts.BlobsPath == "" {
		opts.BlobsPath = "/blobs/"
	}
	if opts.RateLimit == 0 {
		opts.RateLimit = 20
	}
	if opts.Burst == 0 {
		opts.Burst = int(opts.RateLimit * 5)
	}
	r := chi.NewMux()
	s := &Server{svc: svc, opts: opts, router: r, limiter: newLimiter(opts.RateLimit, opts.Burst), log: opts.Logger}
	if s.log == nil {
		s.log = slog.Default()
	}
	r.Use(s.observe) // before any route: chi refuses middleware after
	s.handler = traced(r)
	s.api = humachi.New(r, Config())
	s.api.UseMiddleware(s.authenticate)
	s.register()
	if opts.Blobs != nil {
		r.Handle(opts.BlobsPath+"*", opts.Blobs)
	}
	s.registerLinks(r)
	registerDocs(r, Config().Info.Title)
	return s, nil
}

// Config is the huma configuration, shared with the OpenAPI generator.
func Config() huma.Config {
	cfg := huma.DefaultConfig("Vetted API", Version)
	cfg.CreateHooks = nil // no $schema links in bodies: plain JSON answers
	cfg.DocsPath = ""     // /docs is served offline by registerDocs (docs.go)
	cfg.Info.Description = "Third-party vendor risk management: vendor directory, vendor lists, assessments, evidence, subscribers and incident alerts."
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		bearerScheme: {Type: "http", Scheme: "bearer", BearerFormat: "JWT"},
	}
	return cfg
}

// Handler returns the http.Handler.
func (s *Server) Handler() http.Handler { return s.handler }

// API returns the huma API (for OpenAPI generation).
func (s *Server) API() huma.API { return s.api }

const bearerScheme = "bearer"

var secured = []map[string][]string{{bearerScheme: {}}}

func (s *Server) register() {
	s.registerHealth()
	s.registerAccounts()
	s.registerUsers()
	s.registerLists()
	s.registerVendors()
	s.registerAssessments()
	s.registerDocuments()
	s.registerSubscribers()
}

type healthOut struct {
	Body struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks,omitempty"`
	}
}

func (s *Server) registerHealth() {
	huma.Register(s.api, huma.Operation{OperationID: "healthz", Method: http.MethodGet, Path: "/healthz", Summary: "Process is up", Tags: []string{"Health"}},
		func(ctx context.Context, _ *struct{}) (*healthOut, error) {
			out := &healthOut{}
			out.Body.Status = "ok"
			return out, nil
		})
	huma.Register(s.api, huma.Operation{OperationID: "readyz", Method: http.MethodGet, Path: "/readyz", Summary: "Store and queue are reachable", Tags: []string{"Health"}},
		func(ctx context.Context, _ *struct{}) (*healthOut, error) {
			ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			defer cancel()
			out := &healthOut{}
			out.Body.Checks = map[string]string{}
			failed := false
			check := func(name string, err error) {
				if err != nil {
					failed = true
					out.Body.Checks[name] = err.Error()
					return
				}
				out.Body.Checks[name] = "ok"
			}
			check("store", s.svc.Ready(ctx))
			for i, f := range s.opts.Ready {
				name := "queue"
				if i > 0 {
					name = "dependency-" + string(rune('0'+i))
				}
				check(name, f(ctx))
			}
			if failed {
				return nil, huma.NewError(http.StatusServiceUnavailable, "not ready", checksErr(out.Body.Checks)...)
			}
			out.Body.Status = "ok"
			return out, nil
		})
}

func checksErr(m map[string]string) []error {
	var out []error
	for k, v := range m {
		if v != "ok" {
			out = append(out, &huma.ErrorDetail{Location: k, Message: v})
		}
	}
	return out
}

// Describe builds the API description without a service, for writing the
// OpenAPI document (vetted openapi, make openapi).
func Describe() huma.API {
	s := &Server{router: chi.NewMux()}
	s.api = humachi.New(s.router, Config())
	s.register()
	return s.api
}
