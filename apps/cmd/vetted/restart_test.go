package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/internal/testenv"
)

// syncBuffer is a log sink goroutines write while the test reads it.
type syncBuffer = testenv.Buffer

var printedToken = regexp.MustCompile(`export TOKEN=(\S+)`)

// embeddedEnv sets the environment of `make run` on dataDir, whatever the
// test runner's environment says, and returns the listen address.
func embeddedEnv(t *testing.T, dataDir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	for _, k := range []string{"VETTED_STORE", "VETTED_DATABASE_URL", "VETTED_REDIS_URL", "VETTED_S3_ENDPOINT", "VETTED_SMTP_URL",
		"VETTED_AUTH_DEV_SECRET", "VETTED_AUTH_JWKS_URL", "VETTED_AUTH_ISSUER", "VETTED_AUTH_AUDIENCE", "VETTED_SIGNING_KEY", "VETTED_PUBLIC_URL"} {
		t.Setenv(k, "")
	}
	t.Setenv("VETTED_DATA_DIR", dataDir)
	t.Setenv("VETTED_HTTP_ADDR", addr)
	return addr
}

// serveUntil runs `vetted serve` until the returned stop is called, and
// returns the admin token it printed.
func serveUntil(t *testing.T) (token string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve"}, env{stdout: &stdout, stderr: io.Discard, lookup: os.LookupEnv})
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if m := printedToken.FindStringSubmatch(stdout.String()); m != nil {
			token = m[1]
			break
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("serve stopped: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve printed no token:\n%s", stdout.String())
		}
	}
	return token, func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	}
}

// mint runs `vetted token` with args and returns the token it printed.
func mint(t *testing.T, args ...string) string {
	t.Helper()
	var stdout bytes.Buffer
	if err := run(context.Background(), append([]string{"token"}, args...), env{stdout: &stdout, stderr: io.Discard, lookup: os.LookupEnv}); err != nil {
		t.Fatalf("vetted token %s: %v", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(stdout.String())
}

func request(t *testing.T, method, url, token string, body any) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestRestartKeepsDataAndTokens is `make run`, write, Ctrl-C, `make run`:
// the account and list are still there, the token printed by the first run
// still works, and `vetted token` mints tokens that the server takes for
// the same users (the printed admin's e-mail included).
func TestRestartKeepsDataAndTokens(t *testing.T) {
	addr := embeddedEnv(t, t.TempDir())
	base := "http://" + addr

	oldToken, stop := serveUntil(t)
	status, body := request(t, http.MethodPost, base+"/accounts", oldToken,
		map[string]any{"account": "Acme", "users": []string{"admin@vetted.local", "bob@acme.test"}})
	if status != http.StatusCreated {
		t.Fatalf("create account: %d %s", status, body)
	}
	var acc struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(body), &acc); err != nil {
		t.Fatal(err)
	}
	if status, body := request(t, http.MethodPost, base+"/vendor-lists?account-id="+acc.ID+"&vendor-list=Critical", oldToken, nil); status != http.StatusCreated {
		t.Fatalf("create list: %d %s", status, body)
	}
	stop()

	_, stop = serveUntil(t)
	defer stop()
	status, body = request(t, http.MethodGet, base+"/accounts", oldToken, nil)
	if status != http.StatusOK || !strings.Contains(body, `"Acme"`) {
		t.Fatalf("accounts with the token of the first run: %d %s", status, body)
	}
	status, body = request(t, http.MethodGet, base+"/vendor-lists?account-id="+acc.ID, oldToken, nil)
	if status != http.StatusOK || !strings.Contains(body, `"Critical"`) {
		t.Fatalf("lists after the restart: %d %s", status, body)
	}
	for _, args := range [][]string{{"--email", "bob@acme.test"}, {"--email", "Bob@Acme.test"}, {"--email", "admin@vetted.local", "--admin"}} {
		status, body = request(t, http.MethodGet, base+"/accounts", mint(t, args...), nil)
		if status != http.StatusOK || !strings.Contains(body, `"Acme"`) {
			t.Fatalf("accounts with vetted token %s: %d %s", strings.Join(args, " "), status, body)
		}
	}
}
