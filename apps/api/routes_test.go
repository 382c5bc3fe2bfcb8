package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// /vendor/enrich/{run_id} matches only a UUID: every other path under
// /vendor/enrich/ is the vendor named "enrich", whose sub-resources are
// all reachable by name; a vendor named like a run id is reachable by its
// name too, and runs stay reachable by theirs.
func TestEveryVendorNameIsReachable(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	const uuidName = "0190a8a0-0000-7000-8000-00000000abcd"
	res := env.SaveVendors(t, o.owner, o.acct, "Slack", "Zoom", "Enrich", uuidName)
	ids := map[string]string{}
	for _, a := range res["added"].([]any) {
		m := a.(map[string]any)
		ids[m["vendor_name"].(string)] = m["vendor_id"].(string)
	}
	if ids["Enrich"] == "" || ids[uuidName] == "" {
		t.Fatalf("save-vendors added %v", ids)
	}

	for _, name := range []string{"enrich", "Enrich", uuidName} {
		// A live incident recorded by hand, by name, and read back by name.
		apitest.Must(t, env.Do(t, "POST", "/vendor/"+name+"/incidents", o.admin, map[string]any{"title": "Outage of " + name, "backfilled": true}), http.StatusCreated)
		got := apitest.Must(t, env.Do(t, "GET", "/vendor/"+name+"/incidents", o.owner, nil), http.StatusOK).String()
		if !strings.Contains(got, "Outage of "+name) {
			t.Fatalf("GET /vendor/%s/incidents = %s", name, got)
		}
		si := apitest.Must(t, env.Do(t, "GET", "/vendor/"+name+"/security-instances", o.owner, nil), http.StatusOK).Map(t)
		v := apitest.Must(t, env.Do(t, "GET", "/vendor/"+name, o.owner, nil), http.StatusOK).Map(t)
		if want := ids[v["name"].(string)]; want == "" || v["id"] != want || si["vendor_id"] != want {
			t.Fatalf("GET /vendor/%s = %v (security-instances of %v); want the vendor %s", name, v["name"], si["vendor_id"], want)
		}
	}
	// By id, the same vendors.
	for name, id := range ids {
		v := apitest.Must(t, env.Do(t, "GET", "/vendor/"+id, o.owner, nil), http.StatusOK).Map(t)
		if v["name"] != name {
			t.Fatalf("GET /vendor/%s = %v, want %s", id, v["name"], name)
		}
	}

	// Runs: a UUID after /vendor/enrich/ is a run id.
	started := apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{"vendors": []string{"Slack"}}), http.StatusAccepted).Map(t)
	run := apitest.Must(t, env.Do(t, "GET", "/vendor/enrich/"+started["run_id"].(string), o.admin, nil), http.StatusOK).Map(t)
	if run["run_id"] != started["run_id"] {
		t.Fatalf("run = %v", run)
	}
	mustProblem(t, env.Do(t, "GET", "/vendor/enrich/"+uuidName, o.admin, nil), http.StatusNotFound)
	// Not a UUID, not a sub-resource of a vendor: no route.
	apitest.Must(t, env.Do(t, "GET", "/vendor/enrich/nothing-here", o.admin, nil), http.StatusNotFound)
}

// TestUnroutedRequestsAnswerProblems: a path no route has is a
// problem+json 404, a method a path's routes do not take is a problem+json
// 405 whose Allow header lists the methods they do take; the console, the
// docs and the routes themselves answer as before.
func TestUnroutedRequestsAnswerProblems(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	for _, path := range []string{"/nope", "/vendor-lists/nope", "/vendor/enrich/nothing-here/x", "/openapi.txt"} {
		mustProblem(t, env.Do(t, "GET", path, o.owner, nil), http.StatusNotFound)
		mustProblem(t, env.Do(t, "POST", path, "", map[string]any{}), http.StatusNotFound)
	}
	for _, c := range []struct{ method, path, allow string }{
		{"DELETE", "/healthz", "GET"},
		{"PUT", "/accounts", "GET, POST, DELETE"},
		{"PATCH", "/review-policy?account-id=" + o.acct, "GET, PUT"},
		{"POST", "/vendor/Slack", "GET, PATCH, DELETE"},
		{"DELETE", "/docs", "GET, HEAD"},
	} {
		r := env.Do(t, c.method, c.path, o.owner, nil)
		mustProblem(t, r, http.StatusMethodNotAllowed, "Allow")
		if got := r.Header.Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
	// What has a route keeps it.
	apitest.Must(t, env.Do(t, "GET", "/healthz", "", nil), http.StatusOK)
	apitest.Must(t, env.Do(t, "GET", "/docs", "", nil), http.StatusOK)
	apitest.Must(t, env.Do(t, "GET", "/openapi.json", "", nil), http.StatusOK)
	if r := apitest.Must(t, env.Do(t, "GET", "/app/vendors", "", nil), http.StatusOK); !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Errorf("the console's page answered %q", r.Header.Get("Content-Type"))
	}
}
