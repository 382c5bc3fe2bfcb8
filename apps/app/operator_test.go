package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/internal/testenv"

	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/ports/memstore"
)

// TestMemoryStoreWritesNothing builds the app as VETTED_STORE=memory with a
// data directory and uses it, evidence upload included: nothing appears in
// the data directory (no dev secret, no blobs, no database), and the
// temporary directory the blobs lived in is gone once the app closes.
func TestMemoryStoreWritesNothing(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the blobs' temporary directory goes
	dataDir := filepath.Join(t.TempDir(), "data")
	cfg, err := app.FromLookup(lookup(map[string]string{"VETTED_STORE": "memory", "VETTED_DATA_DIR": dataDir}))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("use", func(t *testing.T) {
		env := apitest.New(t, apitest.WithConfig(func(c *app.Config) {
			c.Store, c.DataDir, c.AuthDevSecret, c.SigningKey = cfg.Store, cfg.DataDir, "", ""
		}))
		if env.App.EphemeralDevSecret == "" {
			t.Fatal("no dev secret kept in memory for serve to print")
		}
		acct := env.NewAccount(t, "Acme", "owner@acme.test")
		owner := env.Token("owner@acme.test", apitest.Verified())
		master := env.SaveVendors(t, owner, acct, "Slack")["list"].(map[string]any)["id"].(string)
		asm := apitest.Must(t, env.Do(t, "POST", "/vendor-assessments?account-id="+acct+"&vendor-list-id="+master, owner,
			map[string]any{"vendor_name": "Slack"}), 201).Map(t)["id"].(string)
		var up struct {
			UploadURL string            `json:"upload_url"`
			Method    string            `json:"method"`
			Headers   map[string]string `json:"headers"`
		}
		apitest.Must(t, env.Do(t, "GET", "/vendor-assessments/documents/upload-url?account-id="+acct+"&vendor-list-id="+master+
			"&assessment-id="+asm+"&file-name=soc2.pdf&content-type="+url.QueryEscape("application/pdf"), owner, nil), 200).JSON(t, &up)
		body := []byte("%PDF-1.7 evidence")
		req, err := http.NewRequest(up.Method, up.UploadURL, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range up.Headers {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("upload: %d", res.StatusCode)
		}
		if entries, _ := os.ReadDir(tmp); len(entries) == 0 {
			t.Fatal("the upload went nowhere the test can see (no temporary blob directory)")
		}
	})
	if _, err := os.Stat(dataDir); !errors.Is(err, os.ErrNotExist) {
		entries, _ := os.ReadDir(dataDir)
		t.Fatalf("the memory store made its data directory %s (err %v), holding %v", dataDir, err, entries)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) != 0 {
		t.Fatalf("the blobs' temporary directory outlived the app: %v", entries)
	}
	if _, err := app.LoadDevSecret(cfg); err == nil || !strings.Contains(err.Error(), "memory store") {
		t.Fatalf("vetted token on the memory store: %v, want an error saying the secret lives in the serving process", err)
	}
}

// TestDevSecretWarningSaysWhereItCameFrom: the first start generates the
// dev secret, a restart reuses it, and the warning says which, as does the
// memory store's.
func TestDevSecretWarningSaysWhereItCameFrom(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"VETTED_DATA_DIR": dir}
	warning := func() string {
		c, err := app.FromLookup(lookup(env))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range c.Warnings(lookup(env)) {
			if strings.Contains(w, "dev tokens are on") {
				return w
			}
		}
		t.Fatalf("no dev token warning for %v", env)
		return ""
	}
	if w := warning(); !strings.Contains(w, "generated now") {
		t.Fatalf("first start: %q", w)
	}
	var logs bytes.Buffer
	build(t, embedded(dir), app.Overrides{Store: memstore.New(), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if !strings.Contains(logs.String(), "generated now") {
		t.Fatalf("first start's log:\n%s", logs.String())
	}
	w := warning()
	if strings.Contains(w, "generated") || !strings.Contains(w, "kept in "+filepath.Join(dir, app.DevSecretFile)+" since the first start") {
		t.Fatalf("restart: %q, want it to say the kept secret is reused", w)
	}
	logs.Reset()
	build(t, embedded(dir), app.Overrides{Store: memstore.New(), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if strings.Contains(logs.String(), "generated") {
		t.Fatalf("restart's log says generated:\n%s", logs.String())
	}
	env["VETTED_STORE"] = "memory"
	if w := warning(); !strings.Contains(w, "this process only") {
		t.Fatalf("memory store: %q", w)
	}
}

// TestSlowBodyWithinTheLimit sends an import body slower than huma's own
// 5 s body timeout allowed (the default is 60 s): it is accepted; with
// VETTED_HTTP_BODY_TIMEOUT below the time it takes, the same body is 408.
func TestSlowBodyWithinTheLimit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		timeout string
		want    int
	}{
		{"the default leaves a minute", "", http.StatusOK},
		{"a shorter setting refuses it", "1s", http.StatusRequestTimeout},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := app.FromLookup(lookup(map[string]string{"VETTED_HTTP_BODY_TIMEOUT": tt.timeout}))
			if err != nil {
				t.Fatal(err)
			}
			env := apitest.New(t, apitest.WithConfig(func(c *app.Config) { c.HTTPBodyTimeout = cfg.HTTPBodyTimeout }))
			acct := env.NewAccount(t, "Acme", "owner@acme.test")
			owner := env.Token("owner@acme.test", apitest.Verified())
			status := slowImport(t, env.URL+"/vendor-lists?operation=import-csv&account-id="+acct, owner, 6*time.Second)
			if status != tt.want {
				t.Fatalf("a body sent over 6 s: %d, want %d", status, tt.want)
			}
		})
	}
}

// slowImport posts a small CSV import (a dry run) in pieces spread over
// about d, and returns the status.
func slowImport(t *testing.T, target, token string, d time.Duration) int {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	csv := `{"dry_run": true, "csv": "vendor_name,website_url\nSlack,https://slack.com\nZoom,https://zoom.us\n"}`
	pr, pw := io.Pipe()
	go func() {
		const pieces = 12
		step := (len(csv) + pieces - 1) / pieces
		for i := 0; i < len(csv); i += step {
			if _, err := pw.Write([]byte(csv[i:min(i+step, len(csv))])); err != nil {
				return
			}
			time.Sleep(d / pieces)
		}
		_ = pw.Close()
	}()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, u.String(), pr)
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = int64(len(csv))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("slow import: %v", err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Logf("answer: %s", b)
	}
	return res.StatusCode
}

// TestReadyWaitsForTheSchema: an API process on PostgreSQL that does not
// migrate at start (the Kubernetes setup, where a Job does) is not ready
// until the database has every migration its binary needs; then it is.
func TestReadyWaitsForTheSchema(t *testing.T) {
	t.Parallel()
	dbURL := pgtest.NewDatabase(t)
	cfg := embedded(t.TempDir())
	cfg.Store, cfg.DatabaseURL, cfg.MigrateOnStart, cfg.AuthDevSecret = app.StorePostgres, dbURL, false, "explicit-secret-0123456789"
	a := build(t, cfg, app.Overrides{})
	srv := httptest.NewServer(a.Server.Handler())
	defer srv.Close()
	ready := func() (int, string) {
		res, err := http.Get(srv.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if status, body := ready(); status != http.StatusServiceUnavailable || !strings.Contains(body, `"location":"schema"`) {
		t.Fatalf("before the migrations: %d %s, want 503 naming the schema", status, body)
	}
	if err := app.Migrate(context.Background(), cfg, quiet); err != nil {
		t.Fatal(err)
	}
	if status, body := ready(); status != http.StatusOK {
		t.Fatalf("after the migrations: %d %s", status, body)
	}
}

// TestRedisLogsAreJSON: with a JSON log, what go-redis says when Redis is
// down (a dial that fails, on /readyz's ping) comes out as JSON records
// through the app's logger, not as plain text.
func TestRedisLogsAreJSON(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing answers there now
	var logs syncBuffer
	cfg := embedded(t.TempDir())
	cfg.RedisURL = "redis://" + addr + "/0"
	a := build(t, cfg, app.Overrides{Store: memstore.New(), Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	srv := httptest.NewServer(a.Server.Handler())
	defer srv.Close()
	res, err := http.Get(srv.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("/readyz with Redis down: %d", res.StatusCode)
	}
	var fromRedis bool
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		fromRedis = fromRedis || rec["component"] == "go-redis"
	}
	if !fromRedis {
		t.Fatalf("go-redis's notice is not in the app's log:\n%s", logs.String())
	}
}

// syncBuffer is a log sink goroutines write while the test reads it.
type syncBuffer = testenv.Buffer
