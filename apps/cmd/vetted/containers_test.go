package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/ports"
)

// composeEnv reads the environment every Vetted service of
// deploy/compose.yaml shares: its x-vetted-env block of quoted values.
func composeEnv(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile("../../../deploy/compose.yaml")
	if err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "x-vetted-env:") {
			in = true
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "  ") {
			break
		}
		k, v, ok := strings.Cut(strings.TrimSpace(line), ": ")
		if !ok || strings.HasPrefix(k, "#") {
			continue
		}
		if q := strings.Index(v[1:], `"`); strings.HasPrefix(v, `"`) && q >= 0 {
			v = v[1 : q+1]
		} else {
			t.Fatalf("deploy/compose.yaml: %s: want a quoted value, got %s", k, v)
		}
		vars[k] = v
	}
	if len(vars) == 0 {
		t.Fatal("deploy/compose.yaml has no x-vetted-env block")
	}
	return vars
}

// containerConsole builds the app serve would build from vars (after
// adjust, which swaps servers the test does not have for embedded ones)
// and answers its handler.
func containerConsole(t *testing.T, vars map[string]string, adjust func(*app.Config)) (*app.App, http.Handler) {
	t.Helper()
	cfg, err := app.LoadServe(func(k string) (string, bool) { v, ok := vars[k]; return v, ok })
	if err != nil {
		t.Fatalf("serve refuses the environment: %v", err)
	}
	adjust(&cfg)
	a, err := app.Build(context.Background(), cfg, app.Overrides{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	return a, a.Server.Handler()
}

func serveJSON(t *testing.T, h http.Handler, method, path, token string, body any) (http.Header, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	if rec.Code >= 300 || json.Unmarshal(rec.Body.Bytes(), &out) != nil {
		t.Fatalf("%s %s: %d %s", method, path, rec.Code, rec.Body.String())
	}
	return rec.Header(), out
}

// TestContainersSignInToTheConsole: the Dockerfile's docker run example
// and deploy/compose.yaml both listen on :8080, not loopback, and both
// offer the console's dev sign-in form (their settings say so); compose's
// console may call, and its upload URLs name, the S3 address published to
// the host (VETTED_S3_PUBLIC_ENDPOINT), not the one on compose's network.
func TestContainersSignInToTheConsole(t *testing.T) {
	t.Parallel()
	t.Run("docker run", func(t *testing.T) {
		t.Parallel()
		_, example := dockerfileEnv(t)
		_, h := containerConsole(t, example, func(c *app.Config) { c.DataDir = t.TempDir() })
		if _, cfg := serveJSON(t, h, "GET", "/app/config.json", "", nil); cfg["dev_sign_in"] != true {
			t.Fatalf("the console of the Dockerfile's example offers no sign-in: %v", cfg)
		}
	})
	t.Run("compose", func(t *testing.T) {
		t.Parallel()
		vars := composeEnv(t)
		public := vars["VETTED_S3_PUBLIC_ENDPOINT"]
		if public == "" {
			t.Fatal("deploy/compose.yaml sets no VETTED_S3_PUBLIC_ENDPOINT: upload URLs would name http://s3:9000, which the host cannot reach")
		}
		// PostgreSQL, Redis and MinIO are compose's; the rest is as it says.
		a, h := containerConsole(t, vars, func(c *app.Config) {
			c.Store, c.DatabaseURL, c.RedisURL, c.S3CreateBucket = app.StoreMemory, "", "", false
		})
		if _, cfg := serveJSON(t, h, "GET", "/app/config.json", "", nil); cfg["dev_sign_in"] != true {
			t.Fatalf("the console of deploy/compose.yaml offers no sign-in: %v", cfg)
		}
		page := httptest.NewRecorder()
		h.ServeHTTP(page, httptest.NewRequest("GET", "/app/", nil))
		if csp := page.Header().Get("Content-Security-Policy"); !strings.Contains(csp, " "+public) || strings.Contains(csp, vars["VETTED_S3_ENDPOINT"]) {
			t.Fatalf("the console may call %q, want %s (the published S3 port) and not %s", csp, public, vars["VETTED_S3_ENDPOINT"])
		}

		tok, err := a.Dev.Mint(auth.Claims{Subject: auth.DevSubject("admin@vetted.local"), Email: "admin@vetted.local", EmailVerified: true,
			Groups: []string{ports.PlatformAdminGroup}, TTL: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		_, acct := serveJSON(t, h, "POST", "/accounts", tok, map[string]any{"account": "Acme", "users": []string{"admin@vetted.local"}})
		q := "?account-id=" + acct["id"].(string)
		_, saved := serveJSON(t, h, "POST", "/vendor-lists"+q+"&operation=save-vendors", tok, map[string]any{"vendors": []string{"Slack"}})
		q += "&vendor-list-id=" + saved["list"].(map[string]any)["id"].(string)
		_, asm := serveJSON(t, h, "POST", "/vendor-assessments"+q, tok, map[string]any{"vendor_name": "Slack"})
		_, up := serveJSON(t, h, "GET", "/vendor-assessments/documents/upload-url"+q+"&assessment-id="+asm["id"].(string)+
			"&file-name=soc2.pdf&content-type="+url.QueryEscape("application/pdf"), tok, nil)
		if u, err := url.Parse(up["upload_url"].(string)); err != nil || u.Scheme+"://"+u.Host != public {
			t.Fatalf("upload URL %v, want one on %s", up["upload_url"], public)
		}
	})
}
