package api_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// problemDoc is the problem+json body as a client reads it.
type problemDoc struct {
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Errors []struct {
		Message  string `json:"message"`
		Location string `json:"location"`
		Row      int    `json:"row"`
		Column   string `json:"column"`
	} `json:"errors"`
}

func readProblem(t *testing.T, r *apitest.Resp) problemDoc {
	t.Helper()
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("Content-Type = %q, want application/problem+json: %s", ct, r.Body)
	}
	var p problemDoc
	r.JSON(t, &p)
	return p
}

func (p problemDoc) locations() []string {
	var out []string
	for _, e := range p.Errors {
		out = append(out, e.Location)
	}
	return out
}

// Core validation errors use huma's location prefixes, so a client sees one
// convention whatever refused the request, and no detail repeats itself.
func TestProblemLocations(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.Token("admin@vetted.test", apitest.Admin(), apitest.Verified())
	acct := env.NewAccount(t, "Locations Inc", "owner@loc.test")
	owner := env.Token("owner@loc.test", apitest.Verified())
	tests := []struct {
		name       string
		method     string
		path       string
		token      string
		body       any
		status     int
		locations  []string
		wantDetail string
	}{
		{"core: bad account-id in the query", http.MethodGet, "/vendor-lists?account-id=nope", owner, nil, 422,
			[]string{"query.account-id"}, `query.account-id: must be an account UUID or "individual"`},
		{"core: bad e-mail in the body", http.MethodPost, "/users?account-id=" + acct, owner,
			map[string]any{"users": []any{map[string]string{"email": "not-an-address"}}}, 422,
			[]string{"body.users[0].email"}, ""},
		{"core: several bad vendors in the body", http.MethodPost, "/vendor-lists?account-id=" + acct + "&operation=save-vendors", owner,
			map[string]any{"vendors": []any{"Good", "", map[string]string{"vendor_name": "X", "website_url": "ftp://x"}}}, 422,
			[]string{"body.vendors[1].vendor_name", "body.vendors[2].website_url"}, "validation failed"},
		{"huma: a required query parameter is missing", http.MethodGet, "/vendor-lists", owner, nil, 422,
			[]string{"query.account-id"}, ""},
		{"huma: a value outside its enum", http.MethodPost, "/users?account-id=" + acct, owner,
			map[string]any{"users": []any{map[string]string{"email": "a@loc.test", "role": "boss"}}}, 422, nil, ""},
		{"core: bad path value", http.MethodPost, "/vendor/enrich", admin, map[string]any{"vendors": []string{""}}, 422,
			[]string{"body.vendors[0]"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := apitest.Must(t, env.Do(t, tt.method, tt.path, tt.token, tt.body), tt.status)
			p := readProblem(t, res)
			if tt.locations != nil && !slices.Equal(p.locations(), tt.locations) {
				t.Fatalf("locations = %q, want %q: %s", p.locations(), tt.locations, res.Body)
			}
			for _, e := range p.Errors {
				if !strings.Contains(e.Location, ".") || e.Message == "" {
					t.Fatalf("error entry without prefix or message: %s", res.Body)
				}
			}
			if tt.wantDetail != "" && p.Detail != tt.wantDetail {
				t.Fatalf("detail = %q, want %q", p.Detail, tt.wantDetail)
			}
			if strings.Count(p.Detail, "validation failed") > 1 {
				t.Fatalf("detail repeats itself: %q", p.Detail)
			}
		})
	}
}

// downStore is a store whose server went away: while down, every unit of
// work fails the way the PostgreSQL adapter reports a lost connection, or
// with err when it is set.
type downStore struct {
	stores.Store
	down atomic.Bool
	err  error
}

func (s *downStore) failure() error {
	if s.err != nil {
		return s.err
	}
	return errDown
}

var errDown = core.Unavailable(errors.New("dial tcp 127.0.0.1:5432: connect: connection refused"), "the database is unavailable; try again shortly")

func (s *downStore) InTx(ctx context.Context, fn func(context.Context, stores.Tx) error) error {
	if s.down.Load() {
		return s.failure()
	}
	return s.Store.InTx(ctx, fn)
}

func (s *downStore) View(ctx context.Context, fn func(context.Context, stores.Tx) error) error {
	if s.down.Load() {
		return s.failure()
	}
	return s.Store.View(ctx, fn)
}

func (s *downStore) Ping(ctx context.Context) error {
	if s.down.Load() {
		return s.failure()
	}
	return s.Store.Ping(ctx)
}

// A store outage answers 503 with Retry-After on every route, from the
// sign-in lookup as from a handler, and /readyz tells anonymous callers
// only that the store is unavailable, never why.
func TestStoreOutageIs503(t *testing.T) {
	t.Parallel()
	store := &downStore{Store: memstore.New()}
	env := apitest.New(t, apitest.WithStore(func(testing.TB) stores.Store { return store }))
	owner := env.Token("owner@down.test", apitest.Verified())
	acct := env.NewAccount(t, "Down Inc", "owner@down.test")
	apitest.Must(t, env.Do(t, http.MethodGet, "/readyz", "", nil), 200)

	store.down.Store(true)
	for _, path := range []string{"/vendor-lists?account-id=" + acct, "/vendors/all", "/users"} {
		res := apitest.Must(t, env.Do(t, http.MethodGet, path, owner, nil), 503)
		if res.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: 503 without Retry-After", path)
		}
		if p := readProblem(t, res); strings.Contains(p.Detail, "5432") || strings.Contains(res.String(), "connection refused") {
			t.Fatalf("%s: the cause leaked to the client: %s", path, res.Body)
		}
	}
	res := apitest.Must(t, env.Do(t, http.MethodGet, "/readyz", "", nil), 503)
	if strings.Contains(res.String(), "refused") || strings.Contains(res.String(), "5432") || res.Header.Get("Retry-After") == "" {
		t.Fatalf("/readyz: %s (Retry-After %q)", res.Body, res.Header.Get("Retry-After"))
	}
	store.down.Store(false)
	apitest.Must(t, env.Do(t, http.MethodGet, "/vendor-lists?account-id="+acct, owner, nil), 200)
}

// Browsers on an allowed origin can call every route: the preflight is
// answered with the methods and headers the web client sends, and real
// answers carry the origin; other origins get no CORS headers.
func TestCORS(t *testing.T) {
	t.Parallel()
	const allowed, refused = "http://localhost:5173", "https://evil.example"
	env := apitest.New(t, apitest.WithConfig(func(c *app.Config) { c.CORSOrigins = []string{allowed} }))
	tok := env.Token("cors@cors.test", apitest.Verified())
	preflight := func(origin, method, path string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, env.URL+path, nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", method)
		req.Header.Set("Access-Control-Request-Headers", "authorization,content-type")
		res, err := env.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	for _, route := range []struct{ method, path string }{
		{http.MethodGet, "/users"}, {http.MethodPost, "/vendor-lists?account-id=individual"}, {http.MethodDelete, "/subscribers"},
		{http.MethodPatch, "/vendor/x"}, {http.MethodPut, "/vendor-assessments"},
	} {
		res := preflight(allowed, route.method, route.path)
		if res.StatusCode/100 != 2 {
			t.Fatalf("preflight %s %s = %d", route.method, route.path, res.StatusCode)
		}
		h := res.Header
		if h.Get("Access-Control-Allow-Origin") != allowed || !strings.Contains(strings.ToLower(h.Get("Access-Control-Allow-Headers")), "authorization") ||
			!strings.Contains(strings.ToLower(h.Get("Access-Control-Allow-Headers")), "content-type") ||
			!strings.Contains(h.Get("Access-Control-Allow-Methods"), route.method) || h.Get("Access-Control-Max-Age") == "" ||
			!strings.Contains(strings.Join(h.Values("Vary"), ","), "Origin") {
			t.Fatalf("preflight %s %s headers: %v", route.method, route.path, h)
		}
		if got := preflight(refused, route.method, route.path).Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Fatalf("refused origin got Access-Control-Allow-Origin %q", got)
		}
	}
	get := func(origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, env.URL+"/users", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := env.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	if res := get(allowed); res.StatusCode != 200 || res.Header.Get("Access-Control-Allow-Origin") != allowed {
		t.Fatalf("allowed origin: %d %v", res.StatusCode, res.Header)
	}
	if res := get(refused); res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("refused origin: %v", res.Header)
	}

	// Without VETTED_CORS_ORIGINS there are no CORS headers at all.
	plain := apitest.New(t)
	req, _ := http.NewRequest(http.MethodGet, plain.URL+"/healthz", nil)
	req.Header.Set("Origin", allowed)
	res, err := plain.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("CORS headers without configured origins: %v", res.Header)
	}
}

// The original web client sends users[] as plain e-mail strings.
func TestUsersAcceptPlainEmails(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Plain Inc", "owner@plain.test")
	owner := env.Token("owner@plain.test", apitest.Verified())
	res := apitest.Must(t, env.Do(t, http.MethodPost, "/users?account-id="+acct, owner,
		map[string]any{"users": []any{"carol@plain.test", map[string]string{"email": "dan@plain.test", "role": "viewer"}}}), 201)
	var added struct {
		Members []struct{ Email, Role string } `json:"members"`
	}
	res.JSON(t, &added)
	roles := map[string]string{}
	for _, m := range added.Members {
		roles[m.Email] = m.Role
	}
	if roles["carol@plain.test"] != "member" || roles["dan@plain.test"] != "viewer" {
		t.Fatalf("roles = %v", roles)
	}
	apitest.Must(t, env.Do(t, http.MethodDelete, "/users?account-id="+acct, owner, map[string]any{"users": []string{"carol@plain.test"}}), 200)
	var after struct {
		Members []struct{ Email string } `json:"members"`
	}
	apitest.Must(t, env.Do(t, http.MethodGet, "/users?account-id="+acct, owner, nil), 200).JSON(t, &after)
	for _, m := range after.Members {
		if m.Email == "carol@plain.test" {
			t.Fatal("carol was not removed")
		}
	}
}

// The document generates clean clients: every secured operation declares
// its problem+json refusals, every answer has a schema, and no two
// parameters of an operation differ only by - and _.
func TestOpenAPIShapes(t *testing.T) {
	t.Parallel()
	doc := api.Describe().OpenAPI()
	ops := 0
	for path, item := range doc.Paths {
		for method, op := range map[string]*huma.Operation{"GET": item.Get, "POST": item.Post, "PUT": item.Put, "PATCH": item.Patch, "DELETE": item.Delete} {
			if op == nil {
				continue
			}
			ops++
			where := method + " " + path
			if op.Security == nil {
				t.Errorf("%s: no security requirement (use an empty one for public routes)", where)
			}
			has4xx := false
			for code, r := range op.Responses {
				if strings.HasPrefix(code, "4") {
					has4xx = true
					if r.Content["application/problem+json"] == nil {
						t.Errorf("%s %s: refusal without a problem+json body", where, code)
					}
				}
				if strings.HasPrefix(code, "2") && code != "204" && len(r.Content) == 0 {
					t.Errorf("%s %s: answer without a body schema", where, code)
				}
			}
			if !has4xx && len(op.Security) > 0 && !slices.ContainsFunc(op.Security, func(r map[string][]string) bool { return len(r) == 0 }) {
				t.Errorf("%s: no 4xx declared", where)
			}
			seen := map[string]string{}
			for _, p := range op.Parameters {
				k := p.In + ":" + strings.ReplaceAll(p.Name, "-", "_")
				if other, dup := seen[k]; dup {
					t.Errorf("%s: parameters %q and %q collide in generated code", where, other, p.Name)
				}
				seen[k] = p.Name
			}
		}
	}
	if ops < 30 {
		t.Fatalf("only %d operations found", ops)
	}
	if doc.Info.License == nil || len(doc.Servers) == 0 {
		t.Fatal("the document needs a license and servers")
	}
}

// Every answer says nosniff; answers to a token are never cached.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	tok := env.Token("hdr@hdr.test", apitest.Verified())
	authed := apitest.Must(t, env.Do(t, http.MethodGet, "/users", tok, nil), 200)
	refused := apitest.Must(t, env.Do(t, http.MethodGet, "/users", "", nil), 401)
	public := apitest.Must(t, env.Do(t, http.MethodGet, "/healthz", "", nil), 200)
	for name, r := range map[string]*apitest.Resp{"authenticated": authed, "refused": refused, "public": public} {
		if r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s answer without nosniff: %v", name, r.Header)
		}
	}
	for name, r := range map[string]*apitest.Resp{"authenticated": authed, "refused": refused} {
		if r.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s answer may be cached: %v", name, r.Header)
		}
	}
}
