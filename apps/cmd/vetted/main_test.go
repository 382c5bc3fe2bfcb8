// The command's tests live in package main: a main package cannot be
// imported by an external test package.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

func testEnv(vars map[string]string) (env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return env{stdout: &out, stderr: &errb, lookup: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }}, &out, &errb
}

func TestEveryCommandHasHelp(t *testing.T) {
	t.Parallel()
	for _, c := range commands() {
		for _, flagName := range []string{"--help", "-h", "-help"} {
			t.Run(c.name+flagName, func(t *testing.T) {
				t.Parallel()
				// A bad environment proves that --help acts before reading it.
				e, out, errb := testEnv(map[string]string{"VETTED_MIGRATE_ON_START": "maybe"})
				if err := run(context.Background(), []string{c.name, flagName}, e); err != nil {
					t.Fatalf("%s %s: %v", c.name, flagName, err)
				}
				if !strings.HasPrefix(out.String(), "usage: vetted "+c.name) || !strings.Contains(out.String(), "-help") {
					t.Errorf("help of %s:\n%s", c.name, out)
				}
				if len(c.env()) > 0 && !strings.Contains(out.String(), "environment:") {
					t.Errorf("help of %s lists no environment:\n%s", c.name, out)
				}
				if errb.Len() != 0 {
					t.Errorf("help wrote to stderr: %s", errb)
				}
			})
		}
	}
}

func TestHelpListsFlagsAndVariables(t *testing.T) {
	t.Parallel()
	tests := map[string][]string{
		"serve":   {"VETTED_HTTP_ADDR", "VETTED_ADMIN_ADDR", "VETTED_LOG_FORMAT", "OTEL_EXPORTER_OTLP_ENDPOINT"},
		"token":   {"-email", "-admin", "-ttl", "VETTED_AUTH_DEV_SECRET"},
		"import":  {"-file", "-account", "-list", "-dry-run", "-base", "-token", "VETTED_API_URL", "VETTED_TOKEN"},
		"migrate": {"VETTED_DATABASE_URL"},
	}
	for name, wants := range tests {
		e, out, _ := testEnv(nil)
		if err := run(context.Background(), []string{"help", name}, e); err != nil {
			t.Fatal(err)
		}
		for _, w := range wants {
			if !strings.Contains(out.String(), w) {
				t.Errorf("help of %s lacks %s", name, w)
			}
		}
	}
}

func TestBadCommandLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{nil, "no command"},
		{[]string{"serve", "--port", "1"}, "-port"},
		{[]string{"serve", "now"}, `unexpected argument "now"`},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"token"}, "--email is required"},
		{[]string{"token", "--email", "a@b.c", "--ttl", "-1h"}, "--ttl must be positive"},
		{[]string{"token", "--email", "a@b.c", "--ttl", "0s"}, "--ttl must be positive"},
		{[]string{"import", "--file", "x.csv"}, "--account are required"},
	}
	for _, tt := range tests {
		e, _, _ := testEnv(nil)
		err := run(context.Background(), tt.args, e)
		var ue usageError
		if !errors.As(err, &ue) || exitCode(err) != 2 || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run %q = %v; want a usage error (exit 2) mentioning %q", tt.args, err, tt.want)
		}
	}
}

func TestServeRefusesABadEnvironmentBeforeListening(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"serve", "worker", "migrate"} {
		e, _, _ := testEnv(map[string]string{"VETTED_MIGRATE_ON_START": "maybe", "VETTED_HTTP_ADDR": "127.0.0.1:1"})
		err := run(context.Background(), []string{cmd}, e)
		if err == nil || !strings.Contains(err.Error(), "VETTED_MIGRATE_ON_START") || exitCode(err) != 1 {
			t.Errorf("%s with a bad boolean = %v; want a configuration error", cmd, err)
		}
	}
}

func TestCheckConfig(t *testing.T) {
	t.Parallel()
	e, out, _ := testEnv(map[string]string{"VETTED_HTTP_ADDR": ":19006", "VETTED_DATABASE_URL": "postgres://u:hunter2@db:5432/v",
		"VETTED_AUTH_DEV_SECRET": "explicit-secret-0123456789"})
	if err := run(context.Background(), []string{"check-config"}, e); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"public URL      http://localhost:19006", "warning: VETTED_HTTP_ADDR=:19006", "configuration is valid", "PostgreSQL postgres://u:xxxxx@db:5432/v",
		"incident feeds  news https://www.bleepingcomputer.com/feed/"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("check-config output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out.String(), "hunter2") {
		t.Errorf("check-config printed a password:\n%s", out)
	}
	e, _, _ = testEnv(map[string]string{"VETTED_PUBLIC_URL": "vetted.example.com", "VETTED_S3_PATH_STYLE": "sometimes"})
	err := run(context.Background(), []string{"check-config"}, e)
	if err == nil || !strings.Contains(err.Error(), "VETTED_PUBLIC_URL") || !strings.Contains(err.Error(), "VETTED_S3_PATH_STYLE") {
		t.Fatalf("check-config = %v; want both bad variables named", err)
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	e, out, _ := testEnv(nil)
	if err := run(context.Background(), []string{"version"}, e); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"vetted ", "module ", "commit ", "go     go1.", "api    "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
}

func TestImportCommandEndToEnd(t *testing.T) {
	t.Parallel()
	api := apitest.New(t)
	acc := api.NewAccount(t, "Acme", "owner@acme.test")
	tok := api.Token("owner@acme.test")
	var csv strings.Builder
	csv.WriteString("vendor_name,product_name\n")
	for i := range 1300 {
		fmt.Fprintf(&csv, "Vendor %d,Product %d\n", i, i)
	}
	file := filepath.Join(t.TempDir(), "vendors.csv")
	if err := os.WriteFile(file, []byte(csv.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	// Flags, with the progress bar.
	e, out, errb := testEnv(nil)
	if err := run(context.Background(), []string{"import", "--file", file, "--account", acc, "--base", api.URL, "--token", tok}, e); err != nil {
		t.Fatalf("import: %v\n%s", err, errb)
	}
	if !strings.Contains(out.String(), "1300 rows imported in 3 requests") || !strings.Contains(out.String(), "vendors added:        1300") {
		t.Errorf("summary:\n%s", out)
	}
	if !strings.Contains(errb.String(), "1300/1300") {
		t.Errorf("progress bar did not reach 1300/1300:\n%q", errb)
	}

	// The environment instead of flags; a dry run that finds nothing new.
	e, out, _ = testEnv(map[string]string{envAPIURL: api.URL, envToken: tok})
	if err := run(context.Background(), []string{"import", "--file", file, "--account", acc, "--dry-run", "--quiet", "--json"}, e); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"vendors_added": 0`) || !strings.Contains(out.String(), `"dry_run": true`) {
		t.Errorf("JSON summary:\n%s", out)
	}
}

// helpOf runs `vetted <name> --help` and returns what it printed.
func helpOf(t *testing.T, name string) string {
	t.Helper()
	e, out, _ := testEnv(nil)
	if err := run(context.Background(), []string{name, "--help"}, e); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// helpLine returns the help line of variable v.
func helpLine(help, v string) string {
	for _, l := range strings.Split(help, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), v+" ") {
			return l
		}
	}
	return ""
}

func TestHelpTexts(t *testing.T) {
	t.Parallel()
	worker := helpOf(t, "worker")
	for _, serveOnly := range []string{"VETTED_HTTP_ADDR", "VETTED_HTTP_BODY_TIMEOUT", "VETTED_CORS_ORIGINS", "VETTED_RATE_LIMIT", "VETTED_AUTH_DEV_SECRET", "VETTED_AUTH_JWKS_URL"} {
		if helpLine(worker, serveOnly) != "" {
			t.Errorf("worker --help lists the serve-only %s", serveOnly)
		}
	}
	if l := helpLine(worker, "VETTED_REDIS_URL"); !strings.Contains(l, "(required)") {
		t.Errorf("worker --help: %q, want VETTED_REDIS_URL required", l)
	}
	migrate := helpOf(t, "migrate")
	if l := helpLine(migrate, "VETTED_DATABASE_URL"); !strings.Contains(l, "(required)") || strings.Contains(l, "SQLite") {
		t.Errorf("migrate --help: %q, want VETTED_DATABASE_URL required, with no SQLite default", l)
	}
	serve := helpOf(t, "serve")
	// One description of the scan timeout, the scanner's own
	// (docs/security-scanner.md, README): it bounds each connection,
	// handshake and fetch, not a vendor's whole scan.
	if l := helpLine(serve, "VETTED_SCAN_TIMEOUT"); !strings.Contains(l, "each connection, TLS handshake and fetch") {
		t.Errorf("serve --help: %q", l)
	}
	doc, err := os.ReadFile("../../../docs/security-scanner.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "| `VETTED_SCAN_TIMEOUT` | bound of each connection, handshake and fetch |") {
		t.Error("docs/security-scanner.md describes VETTED_SCAN_TIMEOUT otherwise than the help")
	}
	if l := helpLine(serve, "VETTED_HTTP_BODY_TIMEOUT"); !strings.Contains(l, "(default 60s)") {
		t.Errorf("serve --help: %q, want VETTED_HTTP_BODY_TIMEOUT with its default", l)
	}
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "`VETTED_HTTP_BODY_TIMEOUT`") {
		t.Error("README does not document VETTED_HTTP_BODY_TIMEOUT")
	}
}
