package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/app"
)

// readmeSettings are the variables the README's Configuration table names:
// `VETTED_X` or `VETTED_X=value`, and `_Y` after `VETTED_S3_ENDPOINT` in a
// row stands for VETTED_S3_Y (the first two words of the row's first name).
func readmeSettings(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Configuration\n")
	if !ok {
		t.Fatal("README has no Configuration section")
	}
	sec, _, _ = strings.Cut(sec, "\n## ")
	names := map[string]bool{}
	tok := regexp.MustCompile("`((?:VETTED|OTEL)?_[A-Z0-9_]+)[`=]")
	for _, line := range strings.Split(sec, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		prefix := ""
		for _, m := range tok.FindAllStringSubmatch(line, -1) {
			name := m[1]
			if strings.HasPrefix(name, "_") {
				name = prefix + name
			} else if prefix == "" {
				w := strings.SplitN(name, "_", 3)
				prefix = w[0] + "_" + w[1]
			}
			names[name] = true
		}
	}
	return names
}

// TestREADMEListsEverySetting: every variable serve reads (app.EnvVars,
// what --help and check-config list) is in the README's Configuration
// table.
func TestREADMEListsEverySetting(t *testing.T) {
	t.Parallel()
	listed := readmeSettings(t)
	for _, v := range app.EnvVars() {
		if !listed[v.Name] {
			t.Errorf("the README's Configuration table does not list %s (%s)", v.Name, v.Meaning)
		}
	}
}
