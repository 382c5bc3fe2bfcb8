// Package testenv decides what an integration test does when the server it
// needs was not given: under CI=true it fails, since CI must never pass by
// skipping; elsewhere it skips, and when VETTED_TEST_SKIPLOG names a file it
// appends a line saying which suite was skipped and why, so that make test
// can end with a one-line summary of what it did not run.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"testing"
)

// SkipLog is the variable naming the file skips are recorded in.
const SkipLog = "VETTED_TEST_SKIPLOG"

// Unavailable fails t under CI=true and skips it otherwise. suite names
// what is not tested (PostgreSQL, Redis ...), envVar the variable that would
// have named its server, and why says why no server was found instead.
func Unavailable(t testing.TB, suite, envVar, why string) {
	t.Helper()
	msg := fmt.Sprintf("%s unset and %s", envVar, why)
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true: %s: %s", suite, msg)
	}
	if path := os.Getenv(SkipLog); path != "" {
		if err := record(path, fmt.Sprintf("%s|%s|%s\n", suite, envVar, t.Name())); err != nil {
			t.Logf("testenv: record skip in %s: %v", path, err)
		}
	}
	t.Skipf("%s: %s", suite, msg)
}

// record appends one line; with O_APPEND a short write lands whole even when
// test binaries of several packages write at once.
func record(path, line string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(line)
	return errors.Join(err, f.Close())
}
