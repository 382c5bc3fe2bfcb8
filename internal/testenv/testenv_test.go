package testenv_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/internal/testenv"
)

// TestUnavailableRecordsTheSkip runs Unavailable in a subtest and checks
// that the subtest was skipped and the skip recorded.
func TestUnavailableRecordsTheSkip(t *testing.T) {
	log := filepath.Join(t.TempDir(), "skips")
	t.Setenv(testenv.SkipLog, log)
	t.Setenv("CI", "")
	var skipped bool
	t.Run("needs a server", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		testenv.Unavailable(t, "PostgreSQL", "VETTED_TEST_DATABASE_URL", "Docker does not answer")
		t.Error("Unavailable returned")
	})
	if !skipped {
		t.Fatal("the subtest was not skipped")
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "PostgreSQL|VETTED_TEST_DATABASE_URL|TestUnavailableRecordsTheSkip/needs_a_server\n"
	if string(b) != want {
		t.Fatalf("recorded %q, want %q", b, want)
	}
	if strings.Count(string(b), "\n") != 1 {
		t.Fatal("more than one line")
	}
}
