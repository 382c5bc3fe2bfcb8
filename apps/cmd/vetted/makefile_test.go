package main

import (
	"os/exec"
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
