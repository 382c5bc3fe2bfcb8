package console_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/console"
)

func serve(t *testing.T, opts console.Options, method, path, body string) *http.Response {
	t.Helper()
	h, err := console.Handler(opts)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
	return rec.Result()
}

func TestPagesAndRedirect(t *testing.T) {
	t.Parallel()
	res := serve(t, console.Options{}, "GET", "/", "")
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != console.Prefix {
		t.Fatalf("GET /: %d to %q, want 302 to /app/", res.StatusCode, res.Header.Get("Location"))
	}
	for _, path := range []string{"/app/", "/app/a/individual/lists/0192/vendors/x/assessment", "/app/signin"} {
		res := serve(t, console.Options{}, "GET", path, "")
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !strings.Contains(string(b), `<div id="root">`) {
			t.Fatalf("GET %s: %d, want the page", path, res.StatusCode)
		}
		csp := res.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: CSP %q lacks %q", path, csp, want)
			}
		}
		for _, d := range strings.Split(csp, "; ") {
			if strings.HasPrefix(d, "script-src") && d != "script-src 'self'" {
				t.Errorf("GET %s: scripts from elsewhere or inline allowed: %q", path, d)
			}
		}
		if strings.Contains(string(b), "<script>") {
			t.Errorf("GET %s: the page has an inline script", path)
		}
	}
}

func TestAssetsAreImmutable(t *testing.T) {
	t.Parallel()
	page := serve(t, console.Options{}, "GET", "/app/", "")
	b, _ := io.ReadAll(page.Body)
	i := strings.Index(string(b), "/app/assets/")
	if i < 0 {
		t.Fatal("the page names no asset")
	}
	asset := string(b)[i : i+strings.IndexByte(string(b)[i:], '"')]
	res := serve(t, console.Options{}, "GET", asset, "")
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("GET %s: %d, Cache-Control %q", asset, res.StatusCode, res.Header.Get("Cache-Control"))
	}
}

func TestConfigSaysHowToSignIn(t *testing.T) {
	t.Parallel()
	var got struct {
		DevSignIn bool `json:"dev_sign_in"`
		OIDC      *struct {
			Issuer, ClientID string
		} `json:"oidc"`
	}
	res := serve(t, console.Options{OIDC: &console.OIDC{Issuer: "https://id.example.test/realms/x", ClientID: "vetted"}}, "GET", "/app/config.json", "")
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if got.DevSignIn || got.OIDC == nil || got.OIDC.Issuer != "https://id.example.test/realms/x" {
		t.Fatalf("config %+v", got)
	}
	page := serve(t, console.Options{OIDC: &console.OIDC{Issuer: "https://id.example.test/realms/x", ClientID: "vetted"}}, "GET", "/app/", "")
	if csp := page.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' https://id.example.test") {
		t.Fatalf("the page may not call the provider: %q", csp)
	}
}

func TestDevToken(t *testing.T) {
	t.Parallel()
	var minted []string
	on := console.Options{MintDevToken: func(email string, admin bool) (string, error) {
		minted = append(minted, email)
		if admin {
			return "admin-token", nil
		}
		return "token", nil
	}}
	for _, c := range []struct {
		name   string
		opts   console.Options
		body   string
		status int
		token  string
	}{
		{"off", console.Options{}, `{"email":"a@b.test"}`, 404, ""},
		{"a member", on, `{"email":"a@b.test"}`, 200, "token"},
		{"a platform admin", on, `{"email":"ops@b.test","admin":true}`, 200, "admin-token"},
		{"not an e-mail", on, `{"email":"nobody"}`, 422, ""},
		{"a display name", on, `{"email":"Eve <eve@b.test>"}`, 422, ""},
		{"not JSON", on, `email=a@b.test`, 400, ""},
		{"an unknown field", on, `{"email":"a@b.test","groups":["Admins"]}`, 400, ""},
	} {
		res := serve(t, c.opts, "POST", "/app/dev-token", c.body)
		if res.StatusCode != c.status {
			t.Errorf("%s: %d, want %d", c.name, res.StatusCode, c.status)
			continue
		}
		if c.status != 200 {
			if ct := res.Header.Get("Content-Type"); ct != "application/problem+json" {
				t.Errorf("%s: Content-Type %q", c.name, ct)
			}
			continue
		}
		var out struct{ Token string }
		_ = json.NewDecoder(res.Body).Decode(&out)
		if out.Token != c.token {
			t.Errorf("%s: token %q, want %q", c.name, out.Token, c.token)
		}
	}
	if strings.Join(minted, ",") != "a@b.test,ops@b.test" {
		t.Fatalf("minted for %v", minted)
	}
}

// TestConsoleUnroutedAnswersProblems: like the API's, the console's
// refusals are problem+json: a method a route does not take is a 405
// whose Allow header lists the ones it takes, an asset that does not exist
// is a 404; the routes answer as before.
func TestConsoleUnroutedAnswersProblems(t *testing.T) {
	t.Parallel()
	problem := func(method, path string, status int) *http.Response {
		t.Helper()
		res := serve(t, console.Options{}, method, path, "")
		var p struct {
			Title  string `json:"title"`
			Status int    `json:"status"`
		}
		if res.StatusCode != status || res.Header.Get("Content-Type") != "application/problem+json" ||
			json.NewDecoder(res.Body).Decode(&p) != nil || p.Status != status || p.Title != http.StatusText(status) {
			t.Errorf("%s %s: %d %q %+v, want a problem+json %d", method, path, res.StatusCode, res.Header.Get("Content-Type"), p, status)
		}
		return res
	}
	for _, c := range []struct{ method, path, allow string }{
		{"POST", "/app/x", "GET, HEAD"},
		{"DELETE", "/app/a/individual/lists", "GET, HEAD"},
		{"PUT", "/app/dev-token", "GET, HEAD, POST"},
		{"POST", "/", "GET, HEAD"},
		{"PATCH", "/app/config.json", "GET, HEAD"},
	} {
		if got := problem(c.method, c.path, http.StatusMethodNotAllowed).Header.Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
	for _, path := range []string{"/app/assets/nope.js", "/app/assets/", "/elsewhere"} {
		problem("GET", path, http.StatusNotFound)
	}
	// What has a route keeps it.
	for _, c := range []struct {
		method, path string
		status       int
	}{{"GET", "/app/x", 200}, {"HEAD", "/app/x", 200}, {"GET", "/", 302}, {"GET", "/app", 301}, {"GET", "/app/config.json", 200}} {
		if res := serve(t, console.Options{}, c.method, c.path, ""); res.StatusCode != c.status {
			t.Errorf("%s %s: %d, want %d", c.method, c.path, res.StatusCode, c.status)
		}
	}
}
