package api_test

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// Whatever JSON (or not) a client posts to the list operations, the API
// answers without a server error, and a refused request or a dry run
// changes nothing.
func FuzzListOperationBodies(f *testing.F) {
	for _, s := range []struct{ op, body string }{
		{"save-vendors", `{"vendors":["Slack",{"vendor_name":"Figma","website_url":"https://figma.com"}]}`},
		{"save-vendors", `{"vendors":[]}`},
		{"save-vendors", `{"vendors":[{"vendor_name":""},null,3,{"website_url":"x"}]}`},
		{"save-vendors", `{"vendors":"Slack"}`},
		{"import-csv", `{"csv":"vendor_name,product_name\nZoom,Meetings\n","row_offset":0,"row_limit":100}`},
		{"import-csv", `{"csv":"vendor_name,compliance_approval_status\nZoom,maybe\n","dry_run":true}`},
		{"import-csv", `{"csv":"","row_limit":501}`},
		{"import-csv", `{"csv":"vendor_name\n\"x","row_offset":-1}`},
		{"alerts-enabled", `{"vendor-id":"not-a-uuid","alerts_enabled":true}`},
		{"", `{}`},
		{"save-vendors", `not json`},
		{"import-csv", `{"csv":1e999}`},
	} {
		f.Add(s.op, []byte(s.body))
	}
	env := apitest.New(f)
	acct := env.NewAccount(f, "Fuzz Org", "owner@fuzz.test")
	tok := env.Token("owner@fuzz.test", apitest.Verified())
	env.SaveVendors(f, tok, acct, "Slack", "Zoom")
	f.Fuzz(func(t *testing.T, op string, body []byte) {
		method, path := http.MethodPost, "/vendor-lists?account-id="+acct+"&operation="+op
		if op == "alerts-enabled" {
			method = http.MethodPatch
			path += "&vendor-list=master-list"
		}
		before := listState(t, env, acct, tok)
		req, err := http.NewRequest(method, env.URL+path, bytes.NewReader(body))
		if err != nil {
			return // an operation name that is not a valid query
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tok)
		res, err := env.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode >= 500 {
			t.Fatalf("%s %s %q: %d %s", method, path, body, res.StatusCode, out)
		}
		dry := op == "import-csv" && bytes.Contains(body, []byte(`"dry_run":true`))
		if (res.StatusCode >= 400 || dry) && listState(t, env, acct, tok) != before {
			t.Fatalf("%s %q answered %d and changed the list", path, body, res.StatusCode)
		}
	})
}
