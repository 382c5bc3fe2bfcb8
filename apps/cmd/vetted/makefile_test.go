package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeRunExecsTheServer: `make run` builds the binary and replaces its
// shell with it (exec), so that the server is make's own child and a signal
// to make, or to the server's PID, stops it. `go run` would leave its child
// running when it is stopped.
func TestMakeRunExecsTheServer(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	for target, cmd := range map[string]string{"run": "serve", "worker": "worker"} {
		out, err := exec.Command("make", "-s", "-n", "-C", "../../..", target).CombinedOutput()
		if err != nil {
			t.Fatalf("make -n %s: %v\n%s", target, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		last := lines[len(lines)-1]
		if strings.Contains(string(out), "go run") || last != "exec ./bin/vetted "+cmd {
			t.Errorf("make %s runs:\n%s\nwant a build, then exec ./bin/vetted %s", target, out, cmd)
		}
		if !strings.Contains(string(out), "go build") || !strings.Contains(string(out), "-o bin/vetted") {
			t.Errorf("make %s does not build bin/vetted first:\n%s", target, out)
		}
	}
}

// TestSkipSummaryKeepsSuiteNamesWhole: the closing line of `make test`
// (SUMMARIZE_SKIPS) names each skipped suite whole, spaces and all ("Console
// in Chromium", which .ci/console.sh records), with its count and variable.
func TestSkipSummaryKeepsSuiteNamesWhole(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	log := filepath.Join(t.TempDir(), "skips")
	lines := "Console in Chromium|CHROMIUM|playwright\n" +
		"PostgreSQL|VETTED_TEST_DATABASE_URL|TestA\nPostgreSQL|VETTED_TEST_DATABASE_URL|TestB\n"
	if err := os.WriteFile(log, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	// --eval adds a target that runs the variable alone, as make test ends.
	cmd := exec.Command("make", "-s", "-C", "../../..", "--eval", "skip-summary: ; @$(SUMMARIZE_SKIPS)", "skip-summary")
	cmd.Env = append(os.Environ(), "VETTED_TEST_SKIPLOG="+log)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make: %v\n%s", err, out)
	}
	want := "== skipped for want of a server: Console in Chromium (1 test, CHROMIUM unset), " +
		"PostgreSQL (2 tests, VETTED_TEST_DATABASE_URL unset); bash .ci/run provides them all"
	if got := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("make test would end with\n%s\nwant\n%s", got, want)
	}
}
