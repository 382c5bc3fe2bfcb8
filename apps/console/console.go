// Package console serves the reviewers' web console: a single-page app
// (TypeScript, React, Vite; sources in ui/) whose built files are committed
// in dist/ and embedded here, so that go build and make run need no Node.
//
// It lives under /app/ (deep links such as /app/a/<account>/lists/<list>
// answer the page, which routes in the browser), so no console path can
// collide with an API path; GET / redirects to /app/. Beside the page it
// answers /app/config.json (how to sign in) and, only while dev tokens are
// on and allowed here, POST /app/dev-token, the web form of `vetted token`.
// What it has no route for it refuses as the API does, with problem+json:
// 404 for a path it has nothing at (an asset that does not exist), 405 with
// an Allow header for a method its route does not take (POST /app/x).
package console

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/mail"
	"net/url"
	"strings"
	"time"
)

//go:embed all:dist
var dist embed.FS

// Prefix is where the console is served.
const Prefix = "/app/"

// OIDC is the OpenID Connect client the page signs in with (authorization
// code + PKCE, in the browser).
type OIDC struct {
	Issuer   string
	ClientID string
	// Scope defaults to "openid email profile".
	Scope string
}

// Options configure the console.
type Options struct {
	// MintDevToken, when set, turns the dev sign-in form on: it mints a
	// token for an e-mail (a platform admin when admin is true).
	MintDevToken func(email string, admin bool) (string, error)
	// OIDC, when set, offers sign-in with the provider.
	OIDC *OIDC
	// GroupsClaim and AdminGroup tell the page where to look for the
	// platform-admin group, to offer the admin page (the API decides).
	GroupsClaim, AdminGroup string
	// ConnectOrigins are origins besides this one the page may call: the
	// evidence store of presigned uploads (S3). The OIDC issuer is added.
	ConnectOrigins []string
}

type configJSON struct {
	DevSignIn   bool      `json:"dev_sign_in"`
	GroupsClaim string    `json:"groups_claim"`
	AdminGroup  string    `json:"admin_group"`
	OIDC        *oidcJSON `json:"oidc"`
}

type oidcJSON struct {
	Issuer   string `json:"issuer"`
	ClientID string `json:"client_id"`
	Scope    string `json:"scope"`
}

type devTokenIn struct {
	Email string `json:"email"`
	Admin bool   `json:"admin"`
}

type devTokenOut struct {
	Token string `json:"token"`
}

type problem struct {
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// Handler serves the console under Prefix and redirects / to it.
func Handler(opts Options) (http.Handler, error) {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		return nil, err
	}
	index, err := fs.ReadFile(sub, "index.html")
	if err != nil {
		return nil, errors.New("console: dist/index.html is missing: run make console")
	}
	cfg := configJSON{DevSignIn: opts.MintDevToken != nil, GroupsClaim: opts.GroupsClaim, AdminGroup: opts.AdminGroup}
	connect := append([]string(nil), opts.ConnectOrigins...)
	var issuerOrigin string
	if opts.OIDC != nil {
		scope := opts.OIDC.Scope
		if scope == "" {
			scope = "openid email profile"
		}
		cfg.OIDC = &oidcJSON{Issuer: opts.OIDC.Issuer, ClientID: opts.OIDC.ClientID, Scope: scope}
		if issuerOrigin, err = origin(opts.OIDC.Issuer); err != nil {
			return nil, err
		}
		connect = append(connect, issuerOrigin)
	}
	cfgBody, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	csp := policy(connect, issuerOrigin)
	sum := sha256.Sum256(index)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	assets := http.FileServerFS(sub)
	started := time.Now()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, Prefix, http.StatusFound)
	})
	mux.HandleFunc("GET /app", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
	})
	mux.HandleFunc("GET "+Prefix+"assets/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, Prefix)
		if st, err := fs.Stat(sub, name); err != nil || st.IsDir() {
			writeProblem(w, http.StatusNotFound, "Not Found", "the console has no such file")
			return
		}
		// Vite names every asset by its content's hash: it never changes.
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		r2 := r.Clone(r.Context())
		r2.URL.Path = strings.TrimPrefix(r.URL.Path, Prefix[:len(Prefix)-1])
		assets.ServeHTTP(w, r2)
	})
	mux.HandleFunc("GET "+Prefix+"config.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(cfgBody)
	})
	mux.HandleFunc("POST "+Prefix+"dev-token", func(w http.ResponseWriter, r *http.Request) {
		if opts.MintDevToken == nil {
			writeProblem(w, http.StatusNotFound, "Not Found", "dev sign-in is off: dev tokens are not on, or not allowed on this address")
			return
		}
		var in devTokenIn
		dec := json.NewDecoder(io.LimitReader(r.Body, 4<<10))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			writeProblem(w, http.StatusBadRequest, "Bad Request", "the body must be {\"email\": ..., \"admin\": ...}")
			return
		}
		addr, err := mail.ParseAddress(strings.TrimSpace(in.Email))
		if err != nil || addr.Name != "" {
			writeProblem(w, http.StatusUnprocessableEntity, "Unprocessable Entity", "email: not an e-mail address")
			return
		}
		tok, err := opts.MintDevToken(addr.Address, in.Admin)
		if err != nil {
			writeProblem(w, http.StatusInternalServerError, "Internal Server Error", "the token could not be minted")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(devTokenOut{Token: tok})
	})
	mux.HandleFunc("GET "+Prefix, func(w http.ResponseWriter, r *http.Request) {
		// Every other path under the prefix is a page of the app.
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", etag)
		http.ServeContent(w, r, "index.html", started, bytes.NewReader(index))
	})
	return unrouted(mux), nil
}

// methods are the methods a 405's Allow header may list, in its order (the
// API's, apps/api/unrouted.go).
var methods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodOptions}

// unrouted answers a request no route of mux takes as the API answers one,
// with problem+json: 404 when no route has the path, 405 with an Allow
// header listing the methods its routes take when they take others (the
// mux's own answers are plain text).
func unrouted(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern != "" { // a route, or a redirect to a path's clean form
			mux.ServeHTTP(w, r)
			return
		}
		var allow []string
		for _, m := range methods {
			probe := r.Clone(r.Context())
			probe.Method = m
			if _, pattern := mux.Handler(probe); pattern != "" {
				allow = append(allow, m)
			}
		}
		if len(allow) == 0 {
			writeProblem(w, http.StatusNotFound, "Not Found", "the console has no such page")
			return
		}
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeProblem(w, http.StatusMethodNotAllowed, "Method Not Allowed",
			"this route does not take the request's method; the Allow header lists the ones it takes")
	})
}

// policy is the page's Content-Security-Policy: scripts only from this
// origin (no inline script), calls to this origin and the named ones.
// Styles allow inline: the component library sets style attributes and
// its CSS variables at run time.
func policy(connect []string, issuer string) string {
	c := strings.Join(append([]string{"'self'"}, connect...), " ")
	frames := "'none'"
	if issuer != "" {
		frames = issuer // the provider's silent-renew frame
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data:",
		"font-src 'self' data:",
		"connect-src " + c,
		"frame-src " + frames,
		"object-src 'none'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

// origin is scheme://host[:port] of a URL.
func origin(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", errors.New("console: not an absolute URL: " + raw)
	}
	return u.Scheme + "://" + u.Host, nil
}

func writeProblem(w http.ResponseWriter, status int, title, detail string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(problem{Title: title, Status: status, Detail: detail})
}
