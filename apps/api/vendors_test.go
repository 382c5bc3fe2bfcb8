package api_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/dircache"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// org is an environment with one organization whose verified owner saved
// Slack and Zoom on master-list.
type org struct {
	env    *apitest.Env
	acct   string
	owner  string // owner's token
	admin  string // platform admin's token
	master string // master-list id
	vendor map[string]string
}

func newOrg(t *testing.T) *org {
	t.Helper()
	env := apitest.New(t)
	o := &org{env: env, vendor: map[string]string{}}
	o.acct = env.NewAccount(t, "Acme", "owner@acme.test")
	o.owner = env.Token("owner@acme.test", apitest.Verified())
	o.admin = env.Token("ops@platform.test", apitest.Admin(), apitest.Verified())
	res := env.SaveVendors(t, o.owner, o.acct, "Slack", "Zoom")
	o.master = res["list"].(map[string]any)["id"].(string)
	for _, a := range res["added"].([]any) {
		m := a.(map[string]any)
		o.vendor[m["vendor_name"].(string)] = m["vendor_id"].(string)
	}
	return o
}

// sendRaw sends a request with exactly the given headers and body (no
// bearer token unless headers carry one) to a path or an absolute URL.
func sendRaw(t *testing.T, env *apitest.Env, method, target string, headers map[string]string, body io.Reader) *apitest.Resp {
	t.Helper()
	if strings.HasPrefix(target, "/") {
		target = env.URL + target
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatalf("request: %v", err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := env.Client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return &apitest.Resp{Status: res.StatusCode, Header: res.Header, Body: b}
}

// mustProblem asserts an RFC 9457 refusal with the status, whose text
// mentions every word.
func mustProblem(t *testing.T, r *apitest.Resp, status int, words ...string) {
	t.Helper()
	apitest.Must(t, r, status)
	if ct := r.Header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("status %d with Content-Type %q, want application/problem+json: %s", status, ct, r.Body)
	}
	for _, w := range words {
		if !strings.Contains(r.String(), w) {
			t.Fatalf("problem does not mention %q: %s", w, r.Body)
		}
	}
}

func TestVendorDirectoryReads(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	// Reads are open to any authenticated user, member of nothing.
	anyone := env.Token("someone@else.test")

	var all struct {
		Vendors []map[string]any `json:"vendors"`
	}
	apitest.Must(t, env.Do(t, "GET", "/vendors/all", anyone, nil), 200).JSON(t, &all)
	if len(all.Vendors) != 2 {
		t.Fatalf("directory has %d vendors, want 2: %v", len(all.Vendors), all.Vendors)
	}
	for _, v := range all.Vendors {
		for _, k := range []string{"id", "name", "website_url", "domain", "aliases", "is_custom", "created_at"} {
			if _, ok := v[k]; !ok {
				t.Fatalf("directory entry lacks %s: %v", k, v)
			}
		}
	}

	// A custom vendor by name (case-insensitive) and by id: 200, empty groups.
	byName := apitest.Must(t, env.Do(t, "GET", "/vendor/sLaCk", anyone, nil), 200).Map(t)
	byID := apitest.Must(t, env.Do(t, "GET", "/vendor/"+o.vendor["Slack"], anyone, nil), 200).Map(t)
	if byName["id"] != o.vendor["Slack"] || byID["name"] != "Slack" || byName["is_custom"] != true {
		t.Fatalf("GET by name %v, by id %v", byName, byID)
	}
	for _, g := range []string{"company", "security", "privacy", "maturity", "scores", "enrichment"} {
		if _, ok := byName[g].(map[string]any); !ok {
			t.Fatalf("custom vendor lacks group %s: %v", g, byName)
		}
	}
	if len(byName["enrichment"].(map[string]any)) != 0 || byName["company"].(map[string]any)["company_description"] != "" {
		t.Fatalf("custom vendor has content: %v", byName)
	}
	if _, ok := byName["latest_grc_assessment"]; ok {
		t.Fatal("latest_grc_assessment present although there is none")
	}
	if _, ok := byName["vendor_profile_id"]; ok {
		t.Fatal("custom vendor has a vendor_profile_id")
	}

	si := apitest.Must(t, env.Do(t, "GET", "/vendor/Slack/security-instances", anyone, nil), 200).Map(t)
	if si["vendor_id"] != o.vendor["Slack"] || len(si["instances"].([]any)) != 0 {
		t.Fatalf("security-instances = %v", si)
	}
	inc := apitest.Must(t, env.Do(t, "GET", "/vendor/Slack/incidents", anyone, nil), 200).Map(t)
	if len(inc["incidents"].([]any)) != 0 {
		t.Fatalf("incidents = %v", inc)
	}

	// Unknown vendors are 404 on every read.
	for _, p := range []string{"/vendor/Nope", "/vendor/Nope/security-instances", "/vendor/Nope/incidents", "/vendor/0190a8a0-0000-7000-8000-000000000000"} {
		mustProblem(t, env.Do(t, "GET", p, anyone, nil), 404)
	}
	mustProblem(t, env.Do(t, "GET", "/vendors/all", "", nil), 401)
}

func TestEnrichRun(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	env.Drain(t) // save-vendors queued its own enrichment of the custom vendors
	base := env.Enricher.Calls("Slack")

	var started struct {
		RunID  string           `json:"run_id"`
		Status string           `json:"status"`
		Jobs   []map[string]any `json:"jobs"`
	}
	apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{
		"vendors": []string{"Slack"}, "enrichmentSections": []string{"basic", "logo"}}), 202).JSON(t, &started)
	if started.RunID == "" || started.Status != "queued" || len(started.Jobs) != 1 || started.Jobs[0]["vendor_name"] != "Slack" || started.Jobs[0]["job_id"] == "" {
		t.Fatalf("enrich answer = %+v", started)
	}
	// The run route and the vendor routes share /vendor/: both resolve.
	run := apitest.Must(t, env.Do(t, "GET", "/vendor/enrich/"+started.RunID, o.admin, nil), 200).Map(t)
	if run["kind"] != "enrich" || run["status"] != "queued" || run["counts"].(map[string]any)["queued"] != 1.0 {
		t.Fatalf("run before drain = %v", run)
	}
	if secs := run["sections"].([]any); len(secs) != 2 || secs[0] != "basic" || secs[1] != "logo" {
		t.Fatalf("sections = %v", secs)
	}
	env.Drain(t)
	run = apitest.Must(t, env.Do(t, "GET", "/vendor/enrich/"+started.RunID, o.admin, nil), 200).Map(t)
	counts := run["counts"].(map[string]any)
	if run["status"] != "done" || counts["done"] != 1.0 || counts["total"] != 1.0 {
		t.Fatalf("run after drain = %v", run)
	}
	for _, k := range []string{"run_id", "jobs", "created_at", "updated_at"} {
		if _, ok := run[k]; !ok {
			t.Fatalf("run lacks %s: %v", k, run)
		}
	}
	v := apitest.Must(t, env.Do(t, "GET", "/vendor/Slack", o.owner, nil), 200).Map(t)
	if v["is_custom"] != false || v["vendor_profile_id"] == nil || v["company"].(map[string]any)["company_description"] != "Enriched Slack" {
		t.Fatalf("enriched vendor = %v", v)
	}
	if st := v["enrichment"].(map[string]any)["basic"].(map[string]any)["status"]; st != "done" {
		t.Fatalf("basic section status %v", st)
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor/Slack/security-instances", o.owner, nil), 200)

	// createOnly skips vendors that have a profile; unknown names are added.
	var again struct {
		RunID string           `json:"run_id"`
		Jobs  []map[string]any `json:"jobs"`
	}
	apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{"vendors": []string{"Slack", "Figma"}, "createOnly": true}), 202).JSON(t, &again)
	status := map[string]any{}
	for _, j := range again.Jobs {
		status[j["vendor_name"].(string)] = j["status"]
	}
	if status["Slack"] != "skipped" || status["Figma"] != "queued" {
		t.Fatalf("createOnly jobs = %v", again.Jobs)
	}
	env.Drain(t)
	if n := env.Enricher.Calls("Slack") - base; n != 1 {
		t.Fatalf("Slack enriched %d times by the runs, want 1 (createOnly skips it)", n)
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor/Figma", o.owner, nil), 200)

	// Bad bodies, unknown runs, a run of the other kind.
	mustProblem(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{"vendors": []string{"Slack"}, "enrichmentSections": []string{"everything"}}), 422, "enrichmentSections")
	mustProblem(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{"vendors": []string{}}), 422, "vendors")
	mustProblem(t, env.Do(t, "GET", "/vendor/enrich/0190a8a0-0000-7000-8000-000000000000", o.admin, nil), 404)
	bf := apitest.Must(t, env.Do(t, "POST", "/vendors/incident-backfill", o.admin, map[string]any{"vendors": []string{"Slack"}}), 202).Map(t)
	mustProblem(t, env.Do(t, "GET", "/vendor/enrich/"+bf["run_id"].(string), o.admin, nil), 404)
}

// TestVendorNamedLikeARoute checks the static /vendor/enrich segment does not
// hide a vendor called Enrich from GET.
func TestVendorNamedLikeARoute(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	o.env.SaveVendors(t, o.owner, o.acct, "Slack", "Zoom", "Enrich")
	v := apitest.Must(t, o.env.Do(t, "GET", "/vendor/enrich", o.owner, nil), 200).Map(t)
	if v["name"] != "Enrich" {
		t.Fatalf("GET /vendor/enrich = %v", v)
	}
}

func TestPatchVendor(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	patch := func(body string, contentType string) *apitest.Resp {
		return sendRaw(t, env, "PATCH", "/vendor/Slack", map[string]string{"Authorization": "Bearer " + o.admin, "Content-Type": contentType}, strings.NewReader(body))
	}
	pending := env.Pending(t)
	// A merge patch creates the profile of a custom vendor; no enrichment runs.
	r := apitest.Must(t, patch(`{"company":{"industry":"Collaboration","founded_year":2009},"security":{"external_signals":{"hsts":true}}}`, "application/merge-patch+json"), 200).Map(t)
	if r["is_custom"] != false || r["vendor_profile_id"] == nil || r["company"].(map[string]any)["industry"] != "Collaboration" {
		t.Fatalf("patched = %v", r)
	}
	if hsts := r["security"].(map[string]any)["external_signals"].(map[string]any)["hsts"]; hsts != true {
		t.Fatalf("nested merge lost: %v", r["security"])
	}
	// Other fields stay; plain application/json works too.
	r = apitest.Must(t, patch(`{"company":{"primary_product":"Chat"}}`, "application/json"), 200).Map(t)
	if c := r["company"].(map[string]any); c["industry"] != "Collaboration" || c["founded_year"] != 2009.0 || c["primary_product"] != "Chat" {
		t.Fatalf("after second patch company = %v", c)
	}
	// Outside the whitelist: 422 naming the field, nothing changes.
	mustProblem(t, patch(`{"company":{"industry":"X","secret_rating":1}}`, "application/merge-patch+json"), 422, "company.secret_rating")
	mustProblem(t, patch(`{"scores":{"risk_score":1}}`, "application/merge-patch+json"), 422, "scores")
	mustProblem(t, patch(`{"company":{"founded_year":"old"}}`, "application/merge-patch+json"), 422, "company")
	got := apitest.Must(t, env.Do(t, "GET", "/vendor/Slack", o.owner, nil), 200).Map(t)
	if got["company"].(map[string]any)["industry"] != "Collaboration" || got["scores"].(map[string]any)["risk_score"] != nil {
		t.Fatalf("a refused patch changed the profile: %v", got)
	}
	mustProblem(t, patch(`{"company":{"industry":"X"}}`, "text/plain"), 415)
	mustProblem(t, sendRaw(t, env, "PATCH", "/vendor/Nope", map[string]string{"Authorization": "Bearer " + o.admin, "Content-Type": "application/json"}, strings.NewReader(`{}`)), 404)
	if n := env.Enricher.Calls("Slack"); n != 0 {
		t.Fatalf("PATCH ran enrichment %d times", n)
	}
	if n := env.Pending(t); n != pending {
		t.Fatalf("PATCH queued work: %d outbox messages pending, %d before", n, pending)
	}
}

// TestPatchVendorNullRemoves checks RFC 7396: null removes a value, at the
// top of a group and nested.
func TestPatchVendorNullRemoves(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	apitest.Must(t, env.Do(t, "PATCH", "/vendor/Slack", o.admin, map[string]any{"company": map[string]any{"industry": "Chat"},
		"security": map[string]any{"external_signals": map[string]any{"hsts": true}}}), 200)
	r := apitest.Must(t, env.Do(t, "PATCH", "/vendor/Slack", o.admin, map[string]any{"company": map[string]any{"industry": nil},
		"security": map[string]any{"external_signals": map[string]any{"hsts": nil}}}), 200).Map(t)
	if c := r["company"].(map[string]any); c["industry"] != "" {
		t.Fatalf("null did not clear company.industry: %v", c)
	}
	if h := r["security"].(map[string]any)["external_signals"].(map[string]any)["hsts"]; h != nil {
		t.Fatalf("null did not clear security.external_signals.hsts: %v", h)
	}
}

// TestPatchVendorAliases: aliases, a top-level member of the PATCH, set the
// directory entry's aliases that GET answers; alone they make no profile;
// a wrong list is 422 naming body.aliases (Patch.aliases in the core);
// platform admins only.
func TestPatchVendorAliases(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	mustProblem(t, env.Do(t, "PATCH", "/vendor/Zoom", o.owner, map[string]any{"aliases": []string{"Zoom Video"}}), 403)
	r := apitest.Must(t, env.Do(t, "PATCH", "/vendor/Zoom", o.admin, map[string]any{"aliases": []string{" Zoom Video ", "zoom video", "Zoom Communications"}}), 200).Map(t)
	if got := r["aliases"]; !reflect.DeepEqual(got, []any{"Zoom Video", "Zoom Communications"}) || r["is_custom"] != true {
		t.Fatalf("patched = %v", r)
	}
	got := apitest.Must(t, env.Do(t, "GET", "/vendor/Zoom", o.owner, nil), 200).Map(t)
	if !reflect.DeepEqual(got["aliases"], []any{"Zoom Video", "Zoom Communications"}) || got["is_custom"] != true {
		t.Fatalf("GET after the patch = %v", got)
	}
	mustProblem(t, env.Do(t, "PATCH", "/vendor/Zoom", o.admin, map[string]any{"aliases": []string{"ok", ""}}), 422, "body.aliases")
	mustProblem(t, env.Do(t, "PATCH", "/vendor/Zoom", o.admin, map[string]any{"aliases": "Zoom"}), 422, "body.aliases")
	mustProblem(t, env.Do(t, "PATCH", "/vendor/Zoom", o.admin, map[string]any{"aliases": []string{strings.Repeat("z", 201)}}), 422, "body.aliases")
	r = apitest.Must(t, env.Do(t, "PATCH", "/vendor/Zoom", o.admin, map[string]any{"aliases": nil, "company": map[string]any{"industry": "Video"}}), 200).Map(t)
	if got := r["aliases"]; !reflect.DeepEqual(got, []any{}) || r["is_custom"] != false || r["company"].(map[string]any)["industry"] != "Video" {
		t.Fatalf("cleared with a group = %v", r)
	}
}

func TestDeleteVendorKeepsEntryAndMemberships(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	apitest.Must(t, env.Do(t, "PATCH", "/vendor/Slack", o.admin, map[string]any{"company": map[string]any{"industry": "Chat"}}), 200)

	del := apitest.Must(t, env.Do(t, "DELETE", "/vendor/Slack", o.admin, nil), 200).Map(t)["deleted"].(map[string]any)
	if del["id"] != o.vendor["Slack"] || del["name"] != "Slack" || del["is_custom"] != true {
		t.Fatalf("deleted = %v", del)
	}
	v := apitest.Must(t, env.Do(t, "GET", "/vendor/Slack", o.owner, nil), 200).Map(t)
	if v["is_custom"] != true || v["company"].(map[string]any)["industry"] != "" {
		t.Fatalf("after delete GET = %v", v)
	}
	all := apitest.Must(t, env.Do(t, "GET", "/vendors/all", o.owner, nil), 200).Map(t)["vendors"].([]any)
	if len(all) != 2 {
		t.Fatalf("directory lost the entry: %v", all)
	}
	l := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list=master-list", o.owner, nil), 200).Map(t)
	if got := names(l["vendors"]); len(got) != 2 || got[0] != "Slack" {
		t.Fatalf("list memberships after delete: %v", got)
	}
	// Nothing left to delete.
	mustProblem(t, env.Do(t, "DELETE", "/vendor/Slack", o.admin, nil), 404)
	mustProblem(t, env.Do(t, "DELETE", "/vendor/Nope", o.admin, nil), 404)
}

func TestRecordIncident(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	pub := env.Clock.Date(0, 0, -2).Add(-time.Hour) // 2026-11-20T08:00 unshifted
	in := apitest.Must(t, env.Do(t, "POST", "/vendor/Slack/incidents", o.admin, map[string]any{
		"title": "Data exposure", "summary": "Tokens leaked", "incident_type": "breach", "affected_service": "API",
		"potentially_impacted_data": []string{"tokens"}, "status": "investigating", "severity": "high",
		"url": "https://status.slack.test/1", "source": "statuspage", "external_id": "inc-1", "published_at": pub,
	}), 201).Map(t)
	want := map[string]any{"vendor_id": o.vendor["Slack"], "title": "Data exposure", "summary": "Tokens leaked", "incident_type": "breach",
		"affected_service": "API", "status": "investigating", "severity": "high", "url": "https://status.slack.test/1",
		"source": "statuspage", "external_id": "inc-1", "published_at": pub.Format(time.RFC3339), "backfilled": false}
	for k, v := range want {
		if in[k] != v {
			t.Fatalf("incident %s = %v, want %v (%v)", k, in[k], v, in)
		}
	}
	list := apitest.Must(t, env.Do(t, "GET", "/vendor/Slack/incidents", o.owner, nil), 200).Map(t)["incidents"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["id"] != in["id"] {
		t.Fatalf("incidents = %v", list)
	}
	// Defaults, the same external id again, bad input, unknown vendor.
	d := apitest.Must(t, env.Do(t, "POST", "/vendor/Zoom/incidents", o.admin, map[string]any{"title": "Outage"}), 201).Map(t)
	if d["severity"] != "medium" || d["status"] != "open" || d["source"] != "manual" {
		t.Fatalf("defaults = %v", d)
	}
	mustProblem(t, env.Do(t, "POST", "/vendor/Slack/incidents", o.admin, map[string]any{"title": "Again", "source": "statuspage", "external_id": "inc-1"}), 409)
	mustProblem(t, env.Do(t, "POST", "/vendor/Slack/incidents", o.admin, map[string]any{"title": "X", "severity": "apocalyptic"}), 422, "severity")
	mustProblem(t, env.Do(t, "POST", "/vendor/Slack/incidents", o.admin, map[string]any{"summary": "no title"}), 422, "title")
	mustProblem(t, env.Do(t, "POST", "/vendor/Nope/incidents", o.admin, map[string]any{"title": "X"}), 404)
}

// TestIncidentBackfillCountsWhatItFound: a backfill run's status says how
// many incidents its sources returned for its vendors (incidents_found)
// and how many of them were new (incidents_created); each job says the
// same of its vendor. An enrichment run has neither.
func TestIncidentBackfillCountsWhatItFound(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	env.Incidents.Add("Slack", vendors.Incident{Title: "Outage one", Source: "feed", ExternalID: "s-1", PublishedAt: env.Clock.Now().AddDate(0, -2, 0)})
	env.Incidents.Add("Slack", vendors.Incident{Title: "Outage two", Source: "feed", ExternalID: "s-2", PublishedAt: env.Clock.Now().AddDate(0, -1, 0)})
	env.Incidents.Add("Zoom", vendors.Incident{Title: "Zoom down", Source: "feed", ExternalID: "z-1", PublishedAt: env.Clock.Now().AddDate(0, -1, 0)})
	backfill := func() map[string]any {
		t.Helper()
		bf := apitest.Must(t, env.Do(t, "POST", "/vendors/incident-backfill", o.admin, map[string]any{"vendors": []string{"Slack", "Zoom"}}), 202).Map(t)
		env.Drain(t)
		return apitest.Must(t, env.Do(t, "GET", "/vendors/incident-backfill/"+bf["run_id"].(string), o.admin, nil), 200).Map(t)
	}
	jobs := func(run map[string]any) map[string][2]any {
		out := map[string][2]any{}
		for _, j := range run["jobs"].([]any) {
			m := j.(map[string]any)
			out[m["vendor_name"].(string)] = [2]any{m["found"], m["created"]}
		}
		return out
	}
	run := backfill()
	if run["status"] != "done" || run["incidents_found"] != 3.0 || run["incidents_created"] != 3.0 {
		t.Fatalf("first backfill = %v", run)
	}
	if j := jobs(run); j["Slack"] != [2]any{2.0, 2.0} || j["Zoom"] != [2]any{1.0, 1.0} {
		t.Fatalf("first backfill's jobs = %v", j)
	}
	// Again: the same incidents are found, none is new.
	run = backfill()
	if run["incidents_found"] != 3.0 || run["incidents_created"] != 0.0 {
		t.Fatalf("second backfill = %v", run)
	}
	if j := jobs(run); j["Slack"] != [2]any{2.0, nil} || j["Zoom"] != [2]any{1.0, nil} { // created is omitted when 0
		t.Fatalf("second backfill's jobs = %v", j)
	}
	en := apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{"vendors": []string{"Slack"}}), 202).Map(t)
	enrich := apitest.Must(t, env.Do(t, "GET", "/vendor/enrich/"+en["run_id"].(string), o.admin, nil), 200).Map(t)
	if _, ok := enrich["incidents_found"]; ok {
		t.Fatalf("an enrichment run counts incidents: %v", enrich)
	}
}

func TestIncidentBackfill(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	subscribeConfirmed(t, o, "master-list", "owner@acme.test")
	// Published before the clock's start: since (10 months before) keeps
	// the old one (9 months) and leaves the ancient one (almost 3 years).
	since := env.Clock.Date(0, -10, 0)
	env.Incidents.Add("Slack", vendors.Incident{Title: "Old outage", Source: "feed", ExternalID: "old-1", PublishedAt: env.Clock.Date(0, -9, 0)})
	env.Incidents.Add("Slack", vendors.Incident{Title: "Ancient outage", Source: "feed", ExternalID: "old-0", PublishedAt: env.Clock.Date(-2, -9, 0)})
	env.Drain(t)
	env.Mail.Reset()

	bf := apitest.Must(t, env.Do(t, "POST", "/vendors/incident-backfill", o.admin, map[string]any{"vendors": []string{"slack"}, "since": since.Format(time.DateOnly)}), 202).Map(t)
	if bf["run_id"] == "" || bf["status"] != "queued" {
		t.Fatalf("backfill answer = %v", bf)
	}
	env.Drain(t)
	run := apitest.Must(t, env.Do(t, "GET", "/vendors/incident-backfill/"+bf["run_id"].(string), o.admin, nil), 200).Map(t)
	jobs := run["jobs"].([]any)
	if run["kind"] != "incident-backfill" || run["status"] != "done" || len(jobs) != 1 || jobs[0].(map[string]any)["created"] != 1.0 {
		t.Fatalf("backfill run = %v", run)
	}
	ins := apitest.Must(t, env.Do(t, "GET", "/vendor/Slack/incidents", o.owner, nil), 200).Map(t)["incidents"].([]any)
	if len(ins) != 1 || ins[0].(map[string]any)["backfilled"] != true || ins[0].(map[string]any)["title"] != "Old outage" {
		t.Fatalf("backfilled incidents = %v", ins)
	}
	if sent := env.Mail.Sent(); len(sent) != 0 {
		t.Fatalf("a backfill sent %d mails", len(sent))
	}

	// Without a body: the whole directory; a date-time since; bad input.
	all := apitest.Must(t, env.Do(t, "POST", "/vendors/incident-backfill", o.admin, nil), 202).Map(t)
	run = apitest.Must(t, env.Do(t, "GET", "/vendors/incident-backfill/"+all["run_id"].(string), o.admin, nil), 200).Map(t)
	if run["counts"].(map[string]any)["total"] != 2.0 {
		t.Fatalf("directory-wide backfill = %v", run)
	}
	apitest.Must(t, env.Do(t, "POST", "/vendors/incident-backfill", o.admin, map[string]any{"since": since.Format(time.RFC3339)}), 202)
	mustProblem(t, env.Do(t, "POST", "/vendors/incident-backfill", o.admin, map[string]any{"since": "last tuesday"}), 422, "since")
	mustProblem(t, env.Do(t, "POST", "/vendors/incident-backfill", o.admin, map[string]any{"vendors": []string{"Nope"}}), 404)
	mustProblem(t, env.Do(t, "GET", "/vendors/incident-backfill/"+runIDOf(t, env, o.admin), o.admin, nil), 404)
}

// runIDOf starts an enrichment run and returns its id.
func runIDOf(t *testing.T, env *apitest.Env, admin string) string {
	t.Helper()
	return apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", admin, map[string]any{"vendors": []string{"Slack"}}), 202).Map(t)["run_id"].(string)
}

// TestVendorAdminRoutes checks every platform-admin route refuses an
// organization owner with 403 and changes nothing, and serves a platform admin.
func TestVendorAdminRoutes(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	enrichRun := runIDOf(t, env, o.admin)
	backfillRun := apitest.Must(t, env.Do(t, "POST", "/vendors/incident-backfill", o.admin, nil), 202).Map(t)["run_id"].(string)
	env.Drain(t)
	cases := []struct {
		method, path string
		body         any
		ok           int
	}{
		{"POST", "/vendor/enrich", map[string]any{"vendors": []string{"Zoom"}}, 202},
		{"GET", "/vendor/enrich/" + enrichRun, nil, 200},
		{"PATCH", "/vendor/Zoom", map[string]any{"company": map[string]any{"industry": "Video"}}, 200},
		{"POST", "/vendor/Zoom/incidents", map[string]any{"title": "Outage", "backfilled": true}, 201},
		{"POST", "/vendors/incident-backfill", map[string]any{"vendors": []string{"Zoom"}}, 202},
		{"GET", "/vendors/incident-backfill/" + backfillRun, nil, 200},
		{"DELETE", "/vendor/Zoom", nil, 200},
	}
	member := env.Token("member@acme.test", apitest.Verified())
	env.AddMember(t, o.acct, o.owner, "member@acme.test", "member")
	env.Drain(t)
	zoomCalls := env.Enricher.Calls("Zoom")
	before := apitest.Must(t, env.Do(t, "GET", "/vendor/Zoom", o.owner, nil), 200).String()
	for _, c := range cases {
		for _, tok := range []string{o.owner, member} {
			mustProblem(t, env.Do(t, c.method, c.path, tok, c.body), 403)
		}
	}
	env.Drain(t)
	if after := apitest.Must(t, env.Do(t, "GET", "/vendor/Zoom", o.owner, nil), 200).String(); after != before {
		t.Fatalf("refused admin calls changed the vendor:\n%s\n%s", before, after)
	}
	if ins := apitest.Must(t, env.Do(t, "GET", "/vendor/Zoom/incidents", o.owner, nil), 200).Map(t)["incidents"].([]any); len(ins) != 0 {
		t.Fatalf("refused incident was stored: %v", ins)
	}
	if n := env.Enricher.Calls("Zoom") - zoomCalls; n != 0 {
		t.Fatalf("refused enrichment ran %d times", n)
	}
	for _, c := range cases {
		apitest.Must(t, env.Do(t, c.method, c.path, o.admin, c.body), c.ok)
	}
}

// TestVendorReadAfterWrite: GET /vendor may be served from memory
// (dircache.TTL), yet a change made through this process shows in
// the next read, by id and by name: a PATCH, a DELETE, an enrichment run.
func TestVendorReadAfterWrite(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	id := o.vendor["Slack"]
	industry := func(ref string) any {
		v := apitest.Must(t, env.Do(t, "GET", "/vendor/"+ref, o.owner, nil), 200).Map(t)
		return v["company"].(map[string]any)["industry"]
	}
	for _, want := range []string{"Chat", "Collaboration"} {
		industry(id)
		industry("Slack")
		apitest.Must(t, env.Do(t, "PATCH", "/vendor/Slack", o.admin, map[string]any{"company": map[string]any{"industry": want}}), 200)
		if got, byName := industry(id), industry("Slack"); got != want || byName != want {
			t.Fatalf("after PATCH industry=%s: by id %v, by name %v", want, got, byName)
		}
	}
	apitest.Must(t, env.Do(t, "DELETE", "/vendor/Slack", o.admin, nil), 200)
	if got := industry(id); got != "" {
		t.Fatalf("after DELETE: industry %v, want none", got)
	}
	description := func() any {
		v := apitest.Must(t, env.Do(t, "GET", "/vendor/Slack", o.owner, nil), 200).Map(t)
		return v["company"].(map[string]any)["company_description"]
	}
	if got := description(); got != "" {
		t.Fatalf("before enrichment: description %v", got)
	}
	run := apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{"vendors": []string{"Slack"}}), 202).Map(t)
	env.Drain(t)
	if r := apitest.Must(t, env.Do(t, "GET", "/vendor/enrich/"+run["run_id"].(string), o.admin, nil), 200).Map(t); r["status"] != "done" {
		t.Fatalf("run = %v", r)
	}
	if got := description(); got != "Enriched Slack" {
		t.Fatalf("after enrichment: description %v, want the enricher's", got)
	}
}

// TestVendorChangedElsewhere: a change another process makes (here,
// straight through the store, as the asynq worker would) is not seen while
// the view is fresh (dircache.TTL); past it the remembered view is
// answered once more while it is read again, and the next reads see the
// change; past dircache.MaxAge a view is never answered.
func TestVendorChangedElsewhere(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	id := uuid.MustParse(o.vendor["Slack"])
	apitest.Must(t, env.Do(t, "PATCH", "/vendor/Slack", o.admin, map[string]any{"company": map[string]any{"industry": "Chat"}}), 200)
	// Read by id and by name: the background reads take both kinds.
	industryOf := func(ref string) any {
		v := apitest.Must(t, env.Do(t, "GET", "/vendor/"+ref, o.owner, nil), 200).Map(t)
		return v["company"].(map[string]any)["industry"]
	}
	industry := func() any {
		byID, byName := industryOf(id.String()), industryOf("Slack")
		if byID != byName {
			return fmt.Sprintf("by id %v, by name %v", byID, byName)
		}
		return byID
	}
	elsewhere := func(to string) {
		t.Helper()
		err := env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
			p, err := tx.Profiles().Get(ctx, id)
			if err != nil {
				return err
			}
			p.Company.Industry = to
			return tx.Profiles().Save(ctx, p)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := industry(); got != "Chat" {
		t.Fatalf("industry %v, want Chat", got)
	}
	elsewhere("Collaboration")
	if got := industry(); got != "Chat" {
		t.Fatalf("within DirectoryTTL: industry %v, want the remembered Chat", got)
	}
	env.Clock.Advance(dircache.TTL)
	if got := industry(); got != "Chat" {
		t.Fatalf("just past DirectoryTTL: industry %v, want the remembered Chat while it is read again", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for industry() != "Collaboration" {
		if time.Now().After(deadline) {
			t.Fatal("the view read again in the background never showed the change")
		}
		time.Sleep(5 * time.Millisecond)
	}
	elsewhere("Video")
	env.Clock.Advance(dircache.MaxAge)
	if got := industry(); got != "Video" {
		t.Fatalf("past DirectoryMaxAge: industry %v, want Video at once", got)
	}
}

// TestVendorsAllPaged: without limit and cursor GET /vendors/all is the
// whole directory; with limit it is walked a page at a time by next_cursor,
// in the same order, each vendor once, with no cursor on the last page.
func TestVendorsAllPaged(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	env.SaveVendors(t, o.owner, o.acct, "Slack", "Zoom", "Figma", "asana", "Notion", "Box", "Miro")
	names := func(body map[string]any) []string {
		var out []string
		for _, v := range body["vendors"].([]any) {
			out = append(out, v.(map[string]any)["name"].(string))
		}
		return out
	}
	whole := apitest.Must(t, env.Do(t, "GET", "/vendors/all", o.owner, nil), 200).Map(t)
	if _, ok := whole["next_cursor"]; ok {
		t.Fatalf("the whole directory has a next_cursor: %v", whole)
	}
	var paged []string
	path := "/vendors/all?limit=3"
	for pages := 1; ; pages++ {
		if pages > 10 {
			t.Fatal("the pages never end")
		}
		body := apitest.Must(t, env.Do(t, "GET", path, o.owner, nil), 200).Map(t)
		got := names(body)
		if len(got) > 3 {
			t.Fatalf("a page of %d vendors, limit 3", len(got))
		}
		paged = append(paged, got...)
		next, ok := body["next_cursor"].(string)
		if !ok {
			break
		}
		path = "/vendors/all?limit=3&cursor=" + url.QueryEscape(next)
	}
	want := names(whole)
	slices.Sort(want) // pages are in byte order of names
	if strings.Join(paged, ",") != strings.Join(want, ",") || len(want) < 7 {
		t.Fatalf("pages gave %v, want %v", paged, want)
	}
	// A cursor alone gives a page of the default size.
	first := apitest.Must(t, env.Do(t, "GET", "/vendors/all?limit=1", o.owner, nil), 200).Map(t)
	rest := apitest.Must(t, env.Do(t, "GET", "/vendors/all?cursor="+url.QueryEscape(first["next_cursor"].(string)), o.owner, nil), 200).Map(t)
	if n := len(names(rest)); n != len(want)-1 {
		t.Fatalf("after the first vendor, a cursor alone gave %d vendors, want %d", n, len(want)-1)
	}
	mustProblem(t, env.Do(t, "GET", "/vendors/all?cursor=not%20a%20cursor!", o.owner, nil), 422, "query.cursor")
	mustProblem(t, env.Do(t, "GET", "/vendors/all?limit=0", o.owner, nil), 422, "limit")
	mustProblem(t, env.Do(t, "GET", "/vendors/all?limit=10001", o.owner, nil), 422, "limit")
}
