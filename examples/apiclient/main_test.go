package main

import (
	"context"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// The generated client drives a real API end to end.
func TestRunAgainstTheAPI(t *testing.T) {
	env := apitest.New(t)
	token := env.Token("admin@example.test", apitest.Admin(), apitest.Verified())
	var out strings.Builder
	if err := run(context.Background(), env.URL, token, "Client Example Org", &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	for _, want := range []string{
		`created account "Client Example Org"`,
		"master-list now has 2 vendors (2 added), 2 queued for enrichment",
		"dashboard: 2 vendors, 2 followed, 1 active assessments",
	} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %q:\n%s", want, out.String())
		}
	}
	if err := run(context.Background(), env.URL, "", "x", &out); err == nil {
		t.Fatal("run without a token must fail")
	}
}
