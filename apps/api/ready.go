package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/adapters/dircache"
)

// readyOut is /readyz's answer.
type readyOut struct {
	Body struct {
		Status       string              `json:"status" enum:"ok" doc:"ok when the dependencies answer"`
		Invalidation *InvalidationJSON   `json:"invalidation,omitempty" doc:"To platform admins only"`
		Warnings     []HealthWarningJSON `json:"warnings,omitempty" doc:"To platform admins only: conditions that do not make the process unready but need an operator, such as a sign-in key set (JWKS) older than its max-age"`
	}
}

// The change feeds a process may hear other processes' writes on.
const (
	InvalidationRedis    = "redis"
	InvalidationPostgres = "postgres"
	InvalidationLocal    = "local"
	InvalidationNone     = "none"
)

// InvalidationJSON says how this process's remembered vendor views hear of
// writes made by other processes (replicas, workers).
type InvalidationJSON struct {
	Mode string `json:"mode" enum:"redis,postgres,local,none" doc:"redis: Redis pub/sub; postgres: PostgreSQL LISTEN/NOTIFY; local: in-process (a single process owns the store); none: no notices, views are at most max_staleness_seconds old"`
	// Connected is whether the feed listens now.
	Connected bool `json:"connected" doc:"Whether the notice subscription is listening now (false for none)"`
	// MaxStalenessSeconds bounds the age of a view when notices do not come.
	MaxStalenessSeconds int `json:"max_staleness_seconds" doc:"How old a vendor view changed by another process may be while notices do not arrive (not connected, or none)"`
}

// NoInvalidation is what /readyz reports without Options.Invalidation.
func NoInvalidation() InvalidationJSON {
	return InvalidationJSON{Mode: InvalidationNone, MaxStalenessSeconds: int(dircache.MaxAge / time.Second)}
}

// readyAnswer is /readyz's answer once every dependency answered.
func (s *Server) readyAnswer(ctx context.Context) *readyOut {
	out := &readyOut{}
	out.Body.Status = "ok"
	if actor(ctx).PlatformAdmin {
		out.Body.Warnings = s.warnings()
		inv := NoInvalidation()
		if s.opts.Invalidation != nil {
			inv = s.opts.Invalidation()
		}
		out.Body.Invalidation = &inv
	}
	return out
}

// healthHandler answers the Health operations: /healthz and /readyz.
type healthHandler struct{ *Server }

type healthOut struct {
	Body struct {
		Status string `json:"status" enum:"ok" doc:"ok when the process (healthz) or its dependencies (readyz) answer"`
	}
}

// dependencyDown is what /readyz says of a dependency that does not answer;
// the reason goes to the log, not to anonymous callers.
const dependencyDown = "unavailable"

// HealthWarningJSON is one condition /readyz reports to platform admins.
type HealthWarningJSON struct {
	Name    string `json:"name" doc:"What it concerns, e.g. auth"`
	Message string `json:"message"`
}

// warnings gathers the conditions /readyz tells platform admins.
func (s *Server) warnings() []HealthWarningJSON {
	var out []HealthWarningJSON
	for _, w := range s.opts.Warnings {
		if msg := w.Check(); msg != "" {
			out = append(out, HealthWarningJSON{Name: w.Name, Message: msg})
		}
	}
	return out
}

// healthz answers healthz.
func (h healthHandler) healthz(ctx context.Context, _ *struct{}) (*healthOut, error) {
	out := &healthOut{}
	out.Body.Status = "ok"
	return out, nil
}

// readyz answers readyz.
func (h healthHandler) readyz(ctx context.Context, _ *struct{}) (*readyOut, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var down []error
	check := func(name string, err error) {
		if err != nil {
			logger(ctx).WarnContext(ctx, "not ready", "dependency", name, "err", err)
			down = append(down, &ProblemDetail{Location: name, Message: dependencyDown})
		}
	}
	check("store", h.ready(ctx))
	for i, f := range h.opts.Ready {
		name := "queue"
		if i > 0 {
			name = "dependency-" + strconv.Itoa(i)
		}
		check(name, f(ctx))
	}
	for _, c := range h.opts.Checks {
		check(c.Name, c.Check(ctx))
	}
	if len(down) > 0 {
		return nil, huma.ErrorWithHeaders(huma.NewError(http.StatusServiceUnavailable, dependencyDown, down...),
			http.Header{"Retry-After": {retryAfter}})
	}
	return h.readyAnswer(ctx), nil
}
