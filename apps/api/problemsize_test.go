package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// TestHugeRefusalsAreSmall: a request of megabytes refused for its items
// answers a problem of a few kilobytes: the first bad items by place, one
// entry saying how many more, and no value sent back but short scalars
// (not the array, not the body).
func TestHugeRefusalsAreSmall(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	path := "/vendor-lists?operation=save-vendors&account-id=" + o.acct + "&vendor-list=master-list"
	long := strings.Repeat("x", 30)
	check := func(t *testing.T, res *apitest.Resp, want ...string) {
		t.Helper()
		if len(res.Body) > 8<<10 {
			t.Fatalf("answered %d bytes: %.600s", len(res.Body), res.String())
		}
		for _, w := range want {
			if !strings.Contains(res.String(), w) {
				t.Fatalf("answer does not say %q: %s", w, res.String())
			}
		}
		if strings.Contains(res.String(), long) {
			t.Fatalf("answer echoes the request's values: %.600s", res.String())
		}
	}

	// Too many items (2.4 MB): the length is refused, the array not echoed.
	var many []any
	for i := range 60000 {
		many = append(many, fmt.Sprintf("Vendor %06d %s", i, long))
	}
	many[3] = 12
	res := env.Do(t, "POST", path, o.owner, map[string]any{"vendors": many})
	mustProblem(t, res, http.StatusUnprocessableEntity)
	check(t, res, `"body.vendors"`, "5000", `"body.vendors[3]"`)

	// Thousands of bad items: the first 20 and how many more.
	bad := make([]any, 4000)
	for i := range bad {
		bad[i] = map[string]any{"vendor_name": i, "website_url": long}
	}
	res = env.Do(t, "POST", path, o.owner, map[string]any{"vendors": bad})
	mustProblem(t, res, http.StatusUnprocessableEntity)
	check(t, res, `"body.vendors[0].vendor_name"`, `"body.vendors[19].vendor_name"`, "and 3980 more")
	if strings.Contains(res.String(), `"body.vendors[20]`) {
		t.Fatalf("more than 20 failures listed: %.600s", res.String())
	}

	// Malformed JSON is not echoed either.
	raw := `{"vendors": ["` + strings.Repeat(long, 1000) + `"`
	res = sendRaw(t, env, "POST", path, map[string]string{"Authorization": "Bearer " + o.owner, "Content-Type": "application/json"}, strings.NewReader(raw))
	mustProblem(t, res, http.StatusBadRequest)
	check(t, res)
}
