package api

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
)

// routeMethods are the methods a 405's Allow header may list, in its order.
var routeMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodOptions}

// answerUnrouted makes the router answer a request no route takes as every
// other refusal is answered, with problem+json: 404 when no route has the
// path, 405 with an Allow header listing the methods it has when the path
// has routes but none for the method. (chi's own answers are a plain-text
// 404 and an empty 405.) The detail names neither the path nor the method:
// both are the caller's words, and the access log has them.
func answerUnrouted(r *chi.Mux) {
	r.NotFound(func(w http.ResponseWriter, _ *http.Request) {
		writeProblem(w, http.StatusNotFound, "no route has this path; the API's routes are listed in /openapi.json")
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, req *http.Request) {
		allow := allowedMethods(r, req)
		if len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
		}
		writeProblem(w, http.StatusMethodNotAllowed, "this route does not take the request's method; the Allow header lists the ones it takes")
	})
}

// allowedMethods returns the methods some route of r takes at the request's
// path (read as chi reads it).
func allowedMethods(r chi.Routes, req *http.Request) []string {
	path := req.URL.RawPath
	if path == "" {
		path = req.URL.Path
	}
	var out []string
	for _, m := range routeMethods {
		if r.Match(chi.NewRouteContext(), m, path) {
			out = append(out, m)
		}
	}
	return out
}
