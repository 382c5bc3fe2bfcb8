package app_test

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/app"
)

func lookup(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

func TestFromLookupDefaults(t *testing.T) {
	t.Parallel()
	c, err := app.FromLookup(lookup(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTPAddr != "127.0.0.1:8080" || c.PublicURL != "http://127.0.0.1:8080" || c.AdminAddr != "" ||
		c.LogFormat != "text" || c.LogLevel != slog.LevelInfo || !c.MigrateOnStart || c.PollInterval != 15*time.Minute ||
		c.RateLimit != 100 || c.RateBurst != 200 {
		t.Fatalf("defaults: %+v", c)
	}
	// Secrets left unset are made (and, on SQLite, kept) by Build.
	if c.Store != app.StoreSQLite || c.SigningKey != "" || c.AuthDevSecret != "" {
		t.Fatalf("defaults: store %q, secrets generated before Build", c.Store)
	}
	if _, err := app.FromLookup(lookup(map[string]string{"VETTED_STORE": "mongo"})); !errors.Is(err, app.ErrConfig) {
		t.Fatalf("VETTED_STORE=mongo: %v, want ErrConfig", err)
	}
	if _, err := app.FromLookup(lookup(map[string]string{"VETTED_STORE": "postgres"})); !errors.Is(err, app.ErrConfig) {
		t.Fatalf("VETTED_STORE=postgres without a database URL: %v, want ErrConfig", err)
	}
}

func TestFromLookupValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		env   map[string]string
		check func(app.Config) bool
	}{
		{"public URL from an all-interfaces address names localhost", map[string]string{"VETTED_HTTP_ADDR": ":19006"},
			func(c app.Config) bool { return c.PublicURL == "http://localhost:19006" }},
		{"rate limit and burst", map[string]string{"VETTED_RATE_LIMIT": "5", "VETTED_RATE_BURST": "7"},
			func(c app.Config) bool { return c.RateLimit == 5 && c.RateBurst == 7 }},
		{"public URL from 0.0.0.0", map[string]string{"VETTED_HTTP_ADDR": "0.0.0.0:80"},
			func(c app.Config) bool { return c.PublicURL == "http://localhost:80" }},
		{"public URL from [::]", map[string]string{"VETTED_HTTP_ADDR": "[::]:8080"},
			func(c app.Config) bool { return c.PublicURL == "http://localhost:8080" }},
		{"explicit public URL loses its trailing slash", map[string]string{"VETTED_PUBLIC_URL": "https://vetted.example.com/"},
			func(c app.Config) bool { return c.PublicURL == "https://vetted.example.com" }},
		{"booleans", map[string]string{"VETTED_MIGRATE_ON_START": "false", "VETTED_S3_CREATE_BUCKET": "1"},
			func(c app.Config) bool { return !c.MigrateOnStart && c.S3CreateBucket }},
		{"log settings", map[string]string{"VETTED_LOG_FORMAT": "JSON", "VETTED_LOG_LEVEL": "debug"},
			func(c app.Config) bool { return c.LogFormat == "json" && c.LogLevel == slog.LevelDebug }},
		{"body timeout", map[string]string{"VETTED_HTTP_BODY_TIMEOUT": "2m"},
			func(c app.Config) bool { return c.HTTPBodyTimeout == 2*time.Minute }},
		{"body timeout default", map[string]string{},
			func(c app.Config) bool {
				return c.HTTPBodyTimeout == app.DefaultHTTPBodyTimeout && app.DefaultHTTPBodyTimeout == time.Minute
			}},
		{"shutdown timeout", map[string]string{"VETTED_SHUTDOWN_TIMEOUT": "90s"},
			func(c app.Config) bool { return c.ShutdownTimeout == 90*time.Second }},
		{"shutdown timeout default", map[string]string{},
			func(c app.Config) bool { return c.ShutdownTimeout == 20*time.Second }},
		{"admin address", map[string]string{"VETTED_ADMIN_ADDR": "127.0.0.1:9090"},
			func(c app.Config) bool { return c.AdminAddr == "127.0.0.1:9090" }},
		{"URLs", map[string]string{"VETTED_DATABASE_URL": "postgres://u:p@db:5432/vetted", "VETTED_REDIS_URL": "redis://r:6379/0"},
			func(c app.Config) bool { return c.DatabaseURL != "" && c.RedisURL == "redis://r:6379/0" }},
		{"JWKS max-age", map[string]string{"VETTED_AUTH_JWKS_MAX_AGE": "2m"},
			func(c app.Config) bool { return c.AuthJWKSMaxAge == 2*time.Minute }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := app.FromLookup(lookup(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(c) {
				t.Fatalf("unexpected config %+v", c)
			}
		})
	}
}

func TestFromLookupRejects(t *testing.T) {
	t.Parallel()
	tests := []struct {
		k, v string
	}{
		{"VETTED_MIGRATE_ON_START", "maybe"},
		{"VETTED_S3_PATH_STYLE", "yes please"},
		{"VETTED_HTTP_ADDR", "8080"},
		{"VETTED_HTTP_ADDR", "localhost:http-ish"},
		{"VETTED_HTTP_ADDR", "127.0.0.1:70000"},
		{"VETTED_ADMIN_ADDR", "nowhere"},
		{"VETTED_PUBLIC_URL", "vetted.example.com"},
		{"VETTED_PUBLIC_URL", "ftp://vetted.example.com"},
		{"VETTED_PUBLIC_URL", "https://vetted.example.com/?x=1"},
		{"VETTED_DATABASE_URL", "mysql://db/vetted"},
		{"VETTED_DATABASE_URL", "postgres:///vetted"},
		{"VETTED_REDIS_URL", "127.0.0.1:6379"},
		{"VETTED_SMTP_URL", "mail.example.com:25"},
		{"VETTED_AUTH_JWKS_URL", "not a url"},
		{"VETTED_AUTH_JWKS_MAX_AGE", "soon"},
		{"VETTED_AUTH_JWKS_MAX_AGE", "5s"},
		{"VETTED_AUTH_JWKS_MAX_AGE", "2h"},
		{"VETTED_LOG_FORMAT", "xml"},
		{"VETTED_LOG_LEVEL", "chatty"},
		{"VETTED_WORKER_CONCURRENCY", "0"},
		{"VETTED_RATE_LIMIT", "fast"},
		{"VETTED_POLL_INTERVAL", "15"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"},
		{"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"},
		{"VETTED_HTTP_BODY_TIMEOUT", "0s"},
		{"VETTED_HTTP_BODY_TIMEOUT", "slow"},
		{"VETTED_SHUTDOWN_TIMEOUT", "20"},
		{"VETTED_SHUTDOWN_TIMEOUT", "0s"},
		{"VETTED_SHUTDOWN_TIMEOUT", "-5s"},
		{"VETTED_AUTH_DEV_SECRET", "too-short"},
	}
	for _, tt := range tests {
		t.Run(tt.k+"="+tt.v, func(t *testing.T) {
			t.Parallel()
			_, err := app.FromLookup(lookup(map[string]string{tt.k: tt.v}))
			if !errors.Is(err, app.ErrConfig) || !strings.Contains(err.Error(), tt.k) {
				t.Fatalf("err = %v, want an ErrConfig naming %s", err, tt.k)
			}
		})
	}
}

func TestFromLookupReportsEveryError(t *testing.T) {
	t.Parallel()
	_, err := app.FromLookup(lookup(map[string]string{"VETTED_MIGRATE_ON_START": "maybe", "VETTED_LOG_LEVEL": "loud"}))
	if err == nil || !strings.Contains(err.Error(), "VETTED_MIGRATE_ON_START") || !strings.Contains(err.Error(), "VETTED_LOG_LEVEL") {
		t.Fatalf("err = %v, want both variables named", err)
	}
}

func TestFromLookupRedactsPasswords(t *testing.T) {
	t.Parallel()
	_, err := app.FromLookup(lookup(map[string]string{"VETTED_DATABASE_URL": "mysql://u:hunter2@db/x"}))
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("err = %v, want an error without the password", err)
	}
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	env := map[string]string{"VETTED_HTTP_ADDR": ":8080", "VETTED_STORE": "memory"}
	c, err := app.FromLookup(lookup(env))
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(c.Warnings(lookup(env)), "\n")
	for _, want := range []string{"VETTED_PUBLIC_URL", "VETTED_SIGNING_KEY", "VETTED_AUTH_DEV_SECRET"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings do not mention %s:\n%s", want, w)
		}
	}
	// SQLite keeps a generated signing key in the data directory: no warning.
	c, _ = app.FromLookup(lookup(map[string]string{}))
	if w := strings.Join(c.Warnings(lookup(map[string]string{})), "\n"); strings.Contains(w, "VETTED_SIGNING_KEY") {
		t.Errorf("SQLite warns about the signing key it keeps:\n%s", w)
	}
	env = map[string]string{"VETTED_HTTP_ADDR": ":8080", "VETTED_PUBLIC_URL": "https://v.example.com", "VETTED_SIGNING_KEY": "k", "VETTED_AUTH_DEV_SECRET": "secret-0123456789abcdef"}
	c, _ = app.FromLookup(lookup(env))
	if w := c.Warnings(lookup(env)); len(w) != 0 {
		t.Fatalf("unexpected warnings: %v", w)
	}
}

// TestLoadServe is the one validation of serve and check-config: the
// settings that are each valid but cannot start together are refused by
// it, with ErrConfig naming what to set.
func TestLoadServe(t *testing.T) {
	t.Parallel()
	const secret = "explicit-secret-0123456789"
	for _, tt := range []struct {
		name string
		env  map[string]string
		ok   bool
	}{
		{"nothing set", nil, true},
		{"all interfaces with no secret", map[string]string{"VETTED_HTTP_ADDR": ":8080"}, false},
		{"all interfaces with a secret", map[string]string{"VETTED_HTTP_ADDR": ":8080", "VETTED_AUTH_DEV_SECRET": secret}, true},
		{"all interfaces with a JWKS URL", map[string]string{"VETTED_HTTP_ADDR": ":8080", "VETTED_AUTH_JWKS_URL": "https://idp.example.com/jwks.json"}, true},
		{"memory on a LAN address", map[string]string{"VETTED_STORE": "memory", "VETTED_HTTP_ADDR": "192.168.1.20:8080"}, false},
		{"PostgreSQL with no secret", map[string]string{"VETTED_DATABASE_URL": "postgres://db/vetted"}, false},
		{"PostgreSQL with a secret", map[string]string{"VETTED_DATABASE_URL": "postgres://db/vetted", "VETTED_AUTH_DEV_SECRET": secret}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := app.LoadServe(lookup(tt.env))
			if tt.ok != (err == nil) {
				t.Fatalf("LoadServe = %v, want ok %v", err, tt.ok)
			}
			if err != nil && (!errors.Is(err, app.ErrConfig) || !strings.Contains(err.Error(), "VETTED_AUTH_DEV_SECRET")) {
				t.Fatalf("err = %v, want an ErrConfig naming VETTED_AUTH_DEV_SECRET", err)
			}
		})
	}
}

// TestDescribeStore names the store serve opens, for check-config and the
// start line alike.
func TestDescribeStore(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		env         map[string]string
		store, blob string
	}{
		{map[string]string{"VETTED_DATA_DIR": "/srv/v"}, "SQLite at /srv/v/vetted.db", "local disk under /srv/v/blobs"},
		{map[string]string{"VETTED_STORE": "memory", "VETTED_DATA_DIR": "/srv/v"}, "memory (nothing is written to disk", "temporary directory removed on exit"},
		{map[string]string{"VETTED_DATABASE_URL": "postgres://u:pw@db/v"}, "PostgreSQL postgres://u:xxxxx@db/v", "local disk under .data/blobs"},
		{map[string]string{"VETTED_S3_ENDPOINT": "https://s3.example.com", "VETTED_STORE": "memory"}, "memory", "S3 https://s3.example.com bucket vetted-evidence"},
	} {
		c, err := app.FromLookup(lookup(tt.env))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.DescribeStore(); !strings.HasPrefix(got, tt.store) {
			t.Errorf("%v: store %q, want %q", tt.env, got, tt.store)
		}
		if got := c.DescribeEvidence(); !strings.Contains(got, tt.blob) {
			t.Errorf("%v: evidence %q, want %q", tt.env, got, tt.blob)
		}
	}
}

// TestWorkerEnvVars: the worker's help lists no setting of the HTTP
// listener or of sign-in, which it does not read, and keeps the rest.
func TestWorkerEnvVars(t *testing.T) {
	t.Parallel()
	names := map[string]bool{}
	for _, v := range app.WorkerEnvVars() {
		names[v.Name] = true
	}
	for _, serveOnly := range []string{"VETTED_HTTP_ADDR", "VETTED_HTTP_BODY_TIMEOUT", "VETTED_CORS_ORIGINS", "VETTED_RATE_LIMIT", "VETTED_AUTH_DEV_SECRET", "VETTED_AUTH_JWKS_URL"} {
		if names[serveOnly] {
			t.Errorf("the worker lists %s", serveOnly)
		}
	}
	for _, used := range []string{"VETTED_REDIS_URL", "VETTED_DATABASE_URL", "VETTED_SMTP_URL", "VETTED_SIGNING_KEY", "VETTED_PUBLIC_URL", "VETTED_WORKER_CONCURRENCY", "VETTED_SCAN_TIMEOUT"} {
		if !names[used] {
			t.Errorf("the worker does not list %s", used)
		}
	}
}
