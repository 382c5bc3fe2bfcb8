package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeBlock is the first ```sh block after the README heading.
func readmeBlock(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README has no %q", heading)
	}
	_, rest, _ = strings.Cut(rest, "```sh\n")
	block, _, ok := strings.Cut(rest, "```")
	if !ok {
		t.Fatalf("README: no sh block after %q", heading)
	}
	return block
}

// TestWalkThroughThenImport follows the README as a new user does: `make
// run` (serve on the embedded default), the walk-through with curl and jq
// as written, then `vetted import --list Critical` as the command line
// section shows it, which needs the list the walk-through made; and
// examples/walkthrough.sh, which says which account keeps Critical.
func TestWalkThroughThenImport(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the walk-through needs %s", tool)
		}
	}
	base := "http://" + embeddedEnv(t, t.TempDir())
	// Enrichment of the walk-through's vendors asks a DNS server on a
	// loopback port where none answers: nothing leaves this machine.
	dead, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("VETTED_SCAN_RESOLVER", dead.LocalAddr().String())
	_ = dead.Close()
	t.Setenv("VETTED_SCAN_DNS_TIMEOUT", "100ms")
	token, stop := serveUntil(t)
	defer stop()

	walk := readmeBlock(t, "## A walk-through with curl")
	if !strings.HasPrefix(walk, "B=http://127.0.0.1:8080\n") {
		t.Fatalf("the walk-through does not start with B=http://127.0.0.1:8080:\n%s", walk)
	}
	walk = "set -e\nB=" + base + strings.TrimPrefix(walk, "B=http://127.0.0.1:8080") + "\necho \"ACC=$ACC\" >&2\n"
	script := filepath.Join(t.TempDir(), "walk.sh")
	if err := os.WriteFile(script, []byte(walk), 0o600); err != nil {
		t.Fatal(err)
	}
	acc := runScript(t, token, "bash", script)

	csv := filepath.Join(t.TempDir(), "vendors.csv")
	if err := os.WriteFile(csv, []byte("vendor_name,product_name\nNotion,Docs\nLinear,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	importInto := func(acc string) {
		t.Helper()
		var out, errb bytes.Buffer
		e := env{stdout: &out, stderr: &errb, lookup: os.LookupEnv}
		if err := run(context.Background(), []string{"import", "--file", csv, "--account", acc, "--list", "Critical",
			"--base", base, "--token", token, "--quiet"}, e); err != nil {
			t.Fatalf("vetted import --list Critical after the walk-through: %v\n%s", err, errb.String())
		}
	}
	importInto(acc)
	if code, body := request(t, "GET", base+"/vendor-lists?account-id="+acc+"&vendor-list=Critical", token, nil); code != 200 ||
		!strings.Contains(body, `"Notion"`) || !strings.Contains(body, `"Linear"`) {
		t.Fatalf("Critical after the import: %d %s", code, body)
	}

	// examples/walkthrough.sh: the same calls and more, against base.
	importInto(runScript(t, token, "bash", "../../../examples/walkthrough.sh", base))
}

var accountLine = regexp.MustCompile(`(?m)^(?:ACC=|account )([0-9a-f-]{36})\b`)

// runScript runs a walk-through with TOKEN set and returns the account it
// names on stderr.
func runScript(t *testing.T, token string, name string, args ...string) string {
	t.Helper()
	var errb bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "TOKEN="+token)
	cmd.Stdout, cmd.Stderr = io.Discard, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, errb.String())
	}
	m := accountLine.FindStringSubmatch(errb.String())
	if m == nil {
		t.Fatalf("%v names no account:\n%s", args, errb.String())
	}
	return m[1]
}
