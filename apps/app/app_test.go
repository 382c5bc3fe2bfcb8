package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/adapters/mailbox"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// crashHelperDir, when set, makes the test binary the process that the
// outbox crash test kills (see TestMain).
const crashHelperDir = "VETTED_TEST_CRASH_HELPER_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashHelperDir); dir != "" {
		if err := writeThenWait(dir); err != nil {
			fmt.Fprintln(os.Stderr, "crash helper:", err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// embedded is the configuration of the embedded default on dir, as FromEnv
// would make it with only VETTED_DATA_DIR set.
func embedded(dir string) app.Config {
	return app.Config{HTTPAddr: "127.0.0.1:8080", PublicURL: "http://127.0.0.1:8080", DataDir: dir,
		Store: app.StoreSQLite, AuthGroupsClaim: "cognito:groups", RateLimit: -1, WorkerConcurrency: 2}
}

func build(t *testing.T, cfg app.Config, ov app.Overrides) *app.App {
	t.Helper()
	if ov.Logger == nil {
		ov.Logger = quiet
	}
	a, err := app.Build(context.Background(), cfg, ov)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	return a
}

func adminToken(dev *auth.Dev) (string, error) {
	const email = "admin@vetted.local"
	return dev.Mint(auth.Claims{Subject: auth.DevSubject(email), Email: email, EmailVerified: true,
		Groups: []string{ports.PlatformAdminGroup}, TTL: time.Hour})
}

func call(url, method, token string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return 0, nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

func TestStoreSelection(t *testing.T) {
	for _, c := range []struct {
		name, store, url string
		want             string
		fails            bool
	}{
		{"nothing set is SQLite", "", "", app.StoreSQLite, false},
		{"a database URL is PostgreSQL", "", "postgres://db/vetted", app.StorePostgres, false},
		{"memory on request", "memory", "", app.StoreMemory, false},
		{"sqlite on request, even with a database URL", "SQLite", "postgres://db/vetted", app.StoreSQLite, false},
		{"postgres without a URL", "postgres", "", "", true},
		{"an unknown store", "oracle", "", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("VETTED_STORE", c.store)
			t.Setenv("VETTED_DATABASE_URL", c.url)
			cfg, err := app.FromEnv()
			if c.fails {
				if err == nil {
					t.Fatalf("got store %q, want an error", cfg.Store)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Store != c.want {
				t.Fatalf("store %q, want %q", cfg.Store, c.want)
			}
		})
	}
}

// TestDevSecretIsKept checks that without a configured secret the first
// start makes one, private to its owner, that the next start and vetted
// token (LoadDevSecret) use too: a token minted before a restart still
// verifies after it.
func TestDevSecretIsKept(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cfg := embedded(dir)
	if _, err := app.LoadDevSecret(cfg); err == nil {
		t.Fatal("LoadDevSecret found a secret before any server ran")
	}
	first := build(t, cfg, app.Overrides{Store: memstore.New()})
	tok, err := adminToken(first.Dev)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, app.DevSecretFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("dev secret file mode %v, want 0600", fi.Mode().Perm())
	}
	second := build(t, cfg, app.Overrides{Store: memstore.New()})
	if _, err := second.Dev.Verify(context.Background(), tok); err != nil {
		t.Fatalf("a token of the first start does not verify after a restart: %v", err)
	}
	secret, err := app.LoadDevSecret(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cli, err := auth.NewDev([]byte(secret), auth.DevOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cliTok, err := adminToken(cli)
	if err != nil {
		t.Fatal(err)
	}
	id, err := second.Dev.Verify(context.Background(), cliTok)
	if err != nil {
		t.Fatalf("a token minted with LoadDevSecret does not verify: %v", err)
	}
	if id.Subject != auth.DevSubject("admin@vetted.local") {
		t.Fatalf("subject %q", id.Subject)
	}
}

// TestDevTokensNeedAnExplicitSecret checks where a generated secret is
// refused: on PostgreSQL and on any address others can reach.
func TestDevTokensNeedAnExplicitSecret(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		edit    func(*app.Config)
		refused bool
	}{
		{"loopback IPv4", func(*app.Config) {}, false},
		{"localhost", func(c *app.Config) { c.HTTPAddr = "localhost:8080" }, false},
		{"loopback IPv6", func(c *app.Config) { c.HTTPAddr = "[::1]:8080" }, false},
		{"all interfaces", func(c *app.Config) { c.HTTPAddr = ":8080" }, true},
		{"any address", func(c *app.Config) { c.HTTPAddr = "0.0.0.0:8080" }, true},
		{"a LAN address", func(c *app.Config) { c.HTTPAddr = "192.168.1.20:8080" }, true},
		{"PostgreSQL", func(c *app.Config) { c.Store, c.DatabaseURL = app.StorePostgres, "postgres://db/vetted" }, true},
		{"PostgreSQL with the secret set", func(c *app.Config) {
			c.Store, c.DatabaseURL, c.AuthDevSecret = app.StorePostgres, "postgres://db/vetted", "explicit-secret-0123456789"
		}, false},
		{"all interfaces with the secret set", func(c *app.Config) {
			c.HTTPAddr, c.AuthDevSecret = ":8080", "explicit-secret-0123456789"
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := embedded(t.TempDir())
			c.edit(&cfg)
			a, err := app.Build(context.Background(), cfg, app.Overrides{Store: memstore.New(), Logger: quiet})
			if err == nil {
				_ = a.Close(context.Background())
			}
			if c.refused != (err != nil) {
				t.Fatalf("refused: %v (err %v), want %v", err != nil, err, c.refused)
			}
			if c.refused && !strings.Contains(err.Error(), "VETTED_AUTH_DEV_SECRET") {
				t.Fatalf("the refusal does not say what to set: %v", err)
			}
			if _, statErr := os.Stat(filepath.Join(cfg.DataDir, app.DevSecretFile)); c.refused && statErr == nil {
				t.Fatal("a refused start generated a secret")
			}
		})
	}
}

func TestDevTokensWarn(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	build(t, embedded(t.TempDir()), app.Overrides{Store: memstore.New(), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "dev tokens are on") {
		t.Fatalf("no warning that dev tokens are on in:\n%s", logs.String())
	}
}

// writeThenWait is the crashing process: it builds the embedded app on dir
// without serving it, so the outbox relay never runs, creates an account
// with two members through the API (two member mails in the outbox), says
// so on stdout and waits to be killed.
func writeThenWait(dir string) error {
	a, err := app.Build(context.Background(), embedded(dir), app.Overrides{Logger: quiet})
	if err != nil {
		return err
	}
	srv := httptest.NewServer(a.Server.Handler())
	tok, err := adminToken(a.Dev)
	if err != nil {
		return err
	}
	status, body, err := call(srv.URL+"/accounts", http.MethodPost, tok,
		map[string]any{"account": "Acme", "users": []string{"ann@acme.test", "bob@acme.test"}})
	if err != nil {
		return err
	}
	if status != http.StatusCreated {
		return fmt.Errorf("create account: %d %s", status, body)
	}
	fmt.Println("written")
	select {}
}

// TestOutboxSurvivesACrash kills (SIGKILL) a process that wrote two member
// mails to the outbox before its relay ran, starts the app again on the
// same data directory and relays: each mail is delivered, once, even when
// the relay runs again.
func TestOutboxSurvivesACrash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashHelperDir+"="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "written" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("crash helper said %q; stderr:\n%s", line, stderr.String())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	mail := mailbox.New()
	a := build(t, embedded(dir), app.Overrides{Mailer: mail})
	ctx := context.Background()
	pending := func() int {
		var n int
		if err := a.Store.View(ctx, func(ctx context.Context, tx stores.Tx) (err error) {
			n, err = tx.Outbox().Pending(ctx)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := pending(); n != 2 {
		t.Fatalf("%d messages pending after the crash, want the 2 member mails", n)
	}
	for range 2 {
		if _, err := a.Relay.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if err := a.Jobs.Wait(ctx); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]int{}
	for _, m := range mail.Sent() {
		got[m.To]++
	}
	if len(mail.Sent()) != 2 || got["ann@acme.test"] != 1 || got["bob@acme.test"] != 1 {
		t.Fatalf("mails sent after the restart: %v, want one to each member", got)
	}
	if n := pending(); n != 0 {
		t.Fatalf("%d messages still pending", n)
	}
}
