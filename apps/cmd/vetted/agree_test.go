package main

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// dockerfileEnv returns the environment of the Dockerfile's documented
// `docker run` example: the image's ENV settings, then the example's -e
// settings (a $(...) value, such as the generated secret, stands for 32 hex
// characters). It fails the test if the example does not run serve.
func dockerfileEnv(t *testing.T) (image, example map[string]string) {
	t.Helper()
	b, err := os.ReadFile("../../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	image = map[string]string{}
	inEnv := false
	var run string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "ENV ") {
			inEnv, line = true, strings.TrimPrefix(line, "ENV ")
		}
		if inEnv {
			for _, kv := range strings.Fields(strings.TrimSuffix(strings.TrimSpace(line), "\\")) {
				if k, v, ok := strings.Cut(kv, "="); ok {
					image[k] = v
				}
			}
			inEnv = strings.HasSuffix(strings.TrimSpace(line), "\\")
		}
		if strings.HasPrefix(line, "#") && strings.Contains(line, "docker run ") {
			run = line
		}
	}
	if len(image) == 0 || !strings.HasSuffix(strings.TrimSpace(run), " serve") {
		t.Fatalf("Dockerfile: image environment %v, example %q: want ENV settings and a docker run ... serve example", image, run)
	}
	example = maps.Clone(image)
	for _, m := range regexp.MustCompile(`-e (\w+)=(\S+)`).FindAllStringSubmatch(run, -1) {
		v := m[2]
		if strings.HasPrefix(v, "$(") {
			v = "0123456789abcdef0123456789abcdef"
		}
		example[m[1]] = v
	}
	return image, example
}

// serveOnce runs `vetted serve` with vars until it has printed its token
// (then stops it) or returned, and gives its log and its error.
func serveOnce(t *testing.T, vars map[string]string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	e := env{stdout: &stdout, stderr: &stderr, lookup: func(k string) (string, bool) { v, ok := vars[k]; return v, ok }}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, e) }()
	deadline := time.After(30 * time.Second)
	for !strings.Contains(stdout.String(), "export TOKEN=") {
		select {
		case err := <-done:
			return stderr.String(), err
		case <-deadline:
			t.Fatalf("serve neither started nor stopped:\n%s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	err := <-done
	return stderr.String(), err
}

// TestCheckConfigAndServeAgree: what check-config calls valid, serve
// starts; what serve refuses, check-config refuses too, naming the same
// variable; and when both accept, they name the same store. The
// Dockerfile's own example is one of the environments.
func TestCheckConfigAndServeAgree(t *testing.T) {
	image, example := dockerfileEnv(t)
	delete(image, "VETTED_AUTH_DEV_SECRET")
	const secret = "explicit-secret-0123456789"
	for _, tt := range []struct {
		name    string
		env     map[string]string
		ok      bool
		refuses string // the variable a refusal names
	}{
		{"make run: nothing set", map[string]string{}, true, ""},
		{"the Dockerfile's docker run example", example, true, ""},
		{"the image without a dev secret", image, false, "VETTED_AUTH_DEV_SECRET"},
		{"memory on loopback", map[string]string{"VETTED_STORE": "memory"}, true, ""},
		{"memory on all interfaces without a secret", map[string]string{"VETTED_STORE": "memory", "VETTED_HTTP_ADDR": ":0"}, false, "VETTED_AUTH_DEV_SECRET"},
		{"all interfaces with a secret", map[string]string{"VETTED_HTTP_ADDR": ":0", "VETTED_AUTH_DEV_SECRET": secret}, true, ""},
		{"PostgreSQL without a secret", map[string]string{"VETTED_DATABASE_URL": "postgres://127.0.0.1:1/vetted"}, false, "VETTED_AUTH_DEV_SECRET"},
		{"a dev secret too short", map[string]string{"VETTED_AUTH_DEV_SECRET": "short"}, false, "VETTED_AUTH_DEV_SECRET"},
		{"a body timeout of zero", map[string]string{"VETTED_HTTP_BODY_TIMEOUT": "0s"}, false, "VETTED_HTTP_BODY_TIMEOUT"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vars := maps.Clone(tt.env)
			dataDir := filepath.Join(t.TempDir(), "data")
			vars["VETTED_DATA_DIR"] = dataDir
			// Any free port, on the interfaces the environment names.
			host := "127.0.0.1"
			if a, ok := vars["VETTED_HTTP_ADDR"]; ok {
				host, _, _ = strings.Cut(a, ":")
			}
			vars["VETTED_HTTP_ADDR"] = host + ":0"

			e, out, _ := testEnv(vars)
			checkErr := run(context.Background(), []string{"check-config"}, e)
			log, serveErr := serveOnce(t, vars)
			if (checkErr == nil) != (serveErr == nil) {
				t.Fatalf("check-config: %v; serve: %v: they disagree", checkErr, serveErr)
			}
			if tt.ok != (serveErr == nil) {
				t.Fatalf("serve: %v, want ok %v", serveErr, tt.ok)
			}
			if !tt.ok {
				for _, err := range []error{checkErr, serveErr} {
					if !strings.Contains(err.Error(), tt.refuses) || exitCode(err) != 1 {
						t.Errorf("refusal %q does not name %s", err, tt.refuses)
					}
				}
				return
			}
			store := regexp.MustCompile(`(?m)^store +(.+)$`).FindStringSubmatch(out.String())
			if store == nil || !strings.Contains(log, store[1]) {
				t.Fatalf("check-config names the store %q; serve logged:\n%s", store, log)
			}
			if tt.env["VETTED_STORE"] == "memory" {
				if _, err := os.Stat(dataDir); !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("serve on the memory store made %s (%v)", dataDir, err)
				}
			} else if !strings.Contains(store[1], "SQLite at "+filepath.Join(dataDir, "vetted.db")) {
				t.Fatalf("check-config names the store %q, want SQLite in %s", store[1], dataDir)
			}
		})
	}
}
