package api

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/apps/obs"
	"github.com/vetted-dev/vetted/core"
)

var errMissing = errors.New("api: service and verifier are required")

// Problem is the RFC 9457 problem document of every refused request
// (application/problem+json). It is huma's error model with one addition:
// an entry of errors may name the CSV cell at fault by row and column.
type Problem struct {
	Type     string           `json:"type,omitempty" format:"uri" doc:"A URI reference to documentation of the problem type; absent means about:blank (RFC 9457)."`
	Title    string           `json:"title,omitempty" example:"Unprocessable Entity" doc:"A short, human-readable summary of the problem type."`
	Status   int              `json:"status,omitempty" example:"422" doc:"HTTP status code"`
	Detail   string           `json:"detail,omitempty" example:"query.account-id: must be an account UUID or \"individual\"" doc:"A human-readable explanation specific to this occurrence of the problem."`
	Instance string           `json:"instance,omitempty" format:"uri" doc:"A URI reference that identifies the specific occurrence of the problem."`
	Errors   []*ProblemDetail `json:"errors,omitempty" doc:"The individual failures, one per input at fault: the first 20, then one entry saying how many more were not listed"`
}

// ProblemDetail is one input at fault.
type ProblemDetail struct {
	Message  string `json:"message,omitempty" doc:"What is wrong"`
	Location string `json:"location,omitempty" doc:"Where: query.<name>, path.<name>, header.<name> or body.<path>, e.g. body.users[0].email"`
	Value    any    `json:"value,omitempty" doc:"The value at the location, when huma's own validation refused it and it is short: a string of at most 200 bytes, a number or a boolean (objects and arrays are never sent back)"`
	Row      int    `json:"row,omitempty" doc:"For a CSV cell: its 1-based data row (the header is not counted)"`
	Column   string `json:"column,omitempty" doc:"For a CSV cell: its column"`
}

// Error returns the detail.
func (p *Problem) Error() string { return p.Detail }

// GetStatus returns the HTTP status.
func (p *Problem) GetStatus() int { return p.Status }

// ContentType answers problem+json where plain JSON was negotiated.
func (p *Problem) ContentType(ct string) string {
	if ct == "application/json" {
		return "application/problem+json"
	}
	if ct == "application/cbor" {
		return "application/problem+cbor"
	}
	return ct
}

// Error returns the message.
func (d *ProblemDetail) Error() string { return d.Message }

// details returns the failures as errors, for huma.WriteErr.
func (p *Problem) details() []error {
	out := make([]error, len(p.Errors))
	for i, d := range p.Errors {
		out[i] = d
	}
	return out
}

// newProblem replaces huma.NewError, so huma's own refusals (malformed JSON,
// schema validation, unknown content type) and ours share one model.
func newProblem(status int, msg string, errs ...error) huma.StatusError {
	return problemOf(nil, status, msg, errs)
}

// newProblemWithContext replaces huma.NewErrorWithContext, with which huma
// answers its own refusals of a request: it knows the operation, so a
// value of the body that matched none of its forms is told where and why
// (alternatives.go).
func newProblemWithContext(ctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
	var op *huma.Operation
	if ctx != nil {
		op = ctx.Operation()
	}
	return problemOf(op, status, msg, errs)
}

func problemOf(op *huma.Operation, status int, msg string, errs []error) *Problem {
	p := &Problem{Status: status, Title: http.StatusText(status), Detail: msg}
	for _, err := range errs {
		var (
			pd *ProblemDetail
			ed huma.ErrorDetailer
		)
		switch {
		case err == nil:
			continue
		case errors.As(err, &pd):
			p.Errors = append(p.Errors, pd)
		case errors.As(err, &ed):
			d := ed.ErrorDetail()
			p.Errors = append(p.Errors, &ProblemDetail{Message: d.Message, Location: d.Location, Value: d.Value})
		default:
			p.Errors = append(p.Errors, &ProblemDetail{Message: err.Error()})
		}
	}
	p.Errors = boundDetails(dropVagueAlternatives(preciseAlternatives(op, p.Errors)))
	return p
}

// humaSettings is set once, by the first API built (Config): see useHumaSettings.
var humaSettings sync.Once

// useHumaSettings sets the two huma settings this API depends on. huma v2
// offers neither per API, only as package variables: huma.Register reads
// huma.NewError to document every error response and huma.WriteErr (through
// huma.NewErrorWithContext) to answer huma's own refusals, and the schema
// generator reads huma.DefaultArrayNullable. So they are set here, when an API
// is configured (New, Describe), rather than in an init function: a program
// that imports this package without building an API keeps huma's defaults.
// They are the same values for every API this package builds, so setting them
// once per process is enough, and sync.Once makes concurrent builds (parallel
// tests) safe.
func useHumaSettings() {
	humaSettings.Do(func() {
		huma.NewError = newProblem
		huma.NewErrorWithContext = newProblemWithContext
		// Lists are answered as [] when empty, never null: say so in the
		// document, so generated clients get plain slices and arrays.
		huma.DefaultArrayNullable = false
	})
}

// retryAfter is what a client is told to wait when a dependency is down.
const retryAfter = "5"

// statusOf maps a kind of failure to its HTTP status: the one place where
// core errors meet statuses.
func statusOf(k core.Kind) int {
	switch k {
	case core.ErrInvalid:
		return http.StatusUnprocessableEntity
	case core.ErrNotFound:
		return http.StatusNotFound
	case core.ErrUnauthenticated:
		return http.StatusUnauthorized
	case core.ErrForbidden:
		return http.StatusForbidden
	case core.ErrConflict:
		return http.StatusConflict
	case core.ErrTooLarge:
		return http.StatusRequestEntityTooLarge
	case core.ErrQuota:
		return http.StatusTooManyRequests
	case core.ErrUnavailable:
		return http.StatusServiceUnavailable
	case core.ErrPrecondition:
		return http.StatusPreconditionFailed
	}
	return http.StatusInternalServerError
}

var kinds = []core.Kind{core.ErrInvalid, core.ErrNotFound, core.ErrUnauthenticated, core.ErrForbidden,
	core.ErrConflict, core.ErrTooLarge, core.ErrQuota, core.ErrUnavailable, core.ErrPrecondition}

// withOperation is a huma middleware that records the operation of the
// request (reqInfo), so that errors can tell query parameters from body
// fields.
func withOperation(ctx huma.Context, next func(huma.Context)) {
	if ri := reqInfoOf(ctx.Context()); ri != nil {
		ri.op = ctx.Operation()
	}
	next(ctx)
}

func operationOf(ctx context.Context) *huma.Operation {
	if ri := reqInfoOf(ctx); ri != nil {
		return ri.op
	}
	return nil
}

// errorsMappedKey marks, in an operation's Metadata, that register added it.
const errorsMappedKey = "errors-mapped"

// register adds an operation to the API, like huma.Register, with the one
// error mapping of the API around its handler: a handler returns the errors
// of its use cases as they are, and every one of them reaches the client
// through problem. Without it, huma would answer an error it does not know
// with its text (a driver's message, a wrapped error's words) and log
// nothing. Every operation is registered here, so the mapping cannot be
// forgotten by a handler: TestEveryOperationMapsItsErrors finds an
// operation added by huma.Register itself (it lacks errorsMappedKey), and
// TestUnexpectedStoreErrorsDoNotLeak calls every operation of the document
// with a failing store.
func register[I, O any](api huma.API, op huma.Operation, handler func(context.Context, *I) (*O, error)) {
	// A copy: operations share their Metadata maps (platformAdminOnly).
	op.Metadata = maps.Clone(op.Metadata)
	if op.Metadata == nil {
		op.Metadata = map[string]any{}
	}
	op.Metadata[errorsMappedKey] = true
	op.Metadata[registryKey] = api.OpenAPI().Components.Schemas
	huma.Register(api, op, func(ctx context.Context, in *I) (*O, error) {
		out, err := handler(ctx, in)
		if err != nil {
			return nil, problem(ctx, err)
		}
		return out, nil
	})
	applyLimits(api, op, reflect.TypeFor[I]())
}

// problem turns the error of a use case into the answer the client gets.
// Expected failures (*core.Error) keep their detail and their fields, placed
// with huma's prefixes (query., path., header., body.) by looking the field
// up among the operation's parameters; a dependency outage is a 503 with
// Retry-After; anything else is logged and answered as a bare 500.
func problem(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	var se huma.StatusError
	if errors.As(err, &se) {
		return err
	}
	p, h := buildProblem(ctx, err)
	if h != nil {
		return huma.ErrorWithHeaders(p, h)
	}
	return p
}

// writeProblem answers err from a middleware, before any handler ran.
func (s *Server) writeProblem(ctx huma.Context, err error) {
	p, h := buildProblem(ctx.Context(), err)
	for k, vs := range h {
		for _, v := range vs {
			ctx.AppendHeader(k, v)
		}
	}
	_ = huma.WriteErr(s.api, ctx, p.Status, p.Detail, p.details()...)
}

// StatusClientClosedRequest is the status of a request whose client went
// away before the answer (nginx's 499): nobody reads it, but the access
// log and the metrics tell it from a failure of the service.
const StatusClientClosedRequest = 499

func buildProblem(ctx context.Context, err error) (*Problem, http.Header) {
	op := operationOf(ctx)
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return &Problem{Status: StatusClientClosedRequest, Title: "Client Closed Request", Detail: "the client closed the request"}, nil
	}
	ce, ok := core.AsError(err)
	if !ok {
		ce = &core.Error{Err: err}
		for _, k := range kinds {
			if errors.Is(err, k) {
				ce.Kind = k
			}
		}
		switch {
		case ce.Kind != "":
			// A bare kind from an adapter: the status is known, the words not.
			ce.Detail = string(ce.Kind)
		case errors.Is(err, context.DeadlineExceeded):
			ce.Kind, ce.Detail = core.ErrUnavailable, "the request took too long; try again"
		}
	}
	status := statusOf(ce.Kind)
	if status == http.StatusInternalServerError {
		logger(ctx).ErrorContext(ctx, "internal error", "operation", operationID(op), "err", err)
		return &Problem{Status: status, Title: http.StatusText(status), Detail: "internal error"}, nil
	}
	p := &Problem{Status: status, Title: http.StatusText(status), Detail: ce.Detail}
	for _, f := range ce.Errs {
		p.Errors = append(p.Errors, detailOf(op, f))
	}
	p.Errors = boundDetails(p.Errors)
	if len(ce.Errs) == 0 && ce.Field != "" {
		d := detailOf(op, ce)
		p.Errors = append(p.Errors, d)
		p.Detail = d.Location + ": " + ce.Detail
	}
	if status == http.StatusServiceUnavailable {
		logger(ctx).WarnContext(ctx, "dependency unavailable", "operation", operationID(op), "err", err)
		return p, http.Header{"Retry-After": {retryAfter}}
	}
	return p, nil
}

func detailOf(op *huma.Operation, e *core.Error) *ProblemDetail {
	return &ProblemDetail{Message: e.Detail, Location: location(op, e.Field), Row: e.Row, Column: e.Column}
}

// location places a field the core names by its Go-side path ("AccountRef",
// "Users[0].Email") where the request carried it, with huma's prefixes:
// the path becomes the request's name first (wireName, the one table of
// fields.go), then a parameter of the operation is in its place (query,
// path, header) and anything else is in the body ("query.account-id",
// "body.users[0].email").
func location(op *huma.Operation, field string) string {
	if field == "" {
		return ""
	}
	field = wireName(field)
	root := field
	if i := strings.IndexAny(field, ".["); i >= 0 {
		root = field[:i]
	}
	if op != nil {
		for _, p := range op.Parameters {
			if p.Name == root {
				return p.In + "." + field
			}
		}
	}
	return "body." + field
}

func operationID(op *huma.Operation) string {
	if op == nil {
		return ""
	}
	return op.OperationID
}

// logger returns the logger of a request (with its request id and caller).
func logger(ctx context.Context) *slog.Logger { return obs.Logger(ctx) }
