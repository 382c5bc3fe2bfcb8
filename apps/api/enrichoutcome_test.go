package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// enrichmentCounts reads vetted_enrichments_total by result.
func enrichmentCounts(t *testing.T, e *apitest.Env) map[string]float64 {
	t.Helper()
	mfs, err := e.App.Metrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != "vetted_enrichments_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "result" {
					out[l.GetValue()] = m.GetCounter().GetValue()
				}
			}
		}
	}
	return out
}

// An enrichment that finds nothing (a vendor with no website) makes no
// profile: the vendor stays custom, as save-vendors answered; the run's job
// is failed with the reason; the metric counts it "failed", not "ok"; and
// it is logged once, at INFO, with the reason. A vendor that is found is
// counted "ok" and has its profile.
func TestEnrichmentThatFindsNothingLeavesTheVendorCustom(t *testing.T) {
	t.Parallel()
	env, logs := newLogged(t)
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test")
	admin := env.Token("ops@platform.test", apitest.Admin())
	env.Enricher.Fail("Nowhere Labs", "no website known")

	saved := env.SaveVendors(t, owner, acct, "Nowhere Labs", "Slack")
	for _, a := range saved["added"].([]any) {
		if a.(map[string]any)["is_custom"] != true {
			t.Fatalf("save-vendors added %v, want custom vendors", a)
		}
	}
	env.Drain(t)

	custom := func(name string) bool {
		t.Helper()
		v := apitest.Must(t, env.Do(t, "GET", "/vendor/"+name, owner, nil), http.StatusOK).Map(t)
		return v["is_custom"] == true
	}
	if !custom("Nowhere Labs") {
		t.Fatal("a vendor whose enrichment found nothing turned is_custom false after save-vendors answered true")
	}
	if custom("Slack") {
		t.Fatal("an enriched vendor is still custom")
	}
	list := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+acct+"&vendor-list=master-list", owner, nil), http.StatusOK).Map(t)
	for _, e := range list["vendors"].([]any) {
		m := e.(map[string]any)
		if want := m["vendor_name"] == "Nowhere Labs"; m["is_custom"] != want {
			t.Fatalf("list entry %v: is_custom %v, want %v", m["vendor_name"], m["is_custom"], want)
		}
	}
	if got := enrichmentCounts(t, env); got["failed"] != 1 || got["ok"] != 1 || len(got) != 2 {
		t.Fatalf("vetted_enrichments_total %v; want failed 1, ok 1", got)
	}

	// Logged once, at INFO, with the vendor and the reason; the run id it
	// names shows the job failed with the same reason.
	var lines []map[string]any
	for _, l := range strings.Split(logs.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(l), &rec) == nil && rec["msg"] == "enrichment failed" {
			lines = append(lines, rec)
		}
	}
	const reason = "basic, additional, maturity, security, privacy, logo: no website known" // in vendor.SectionValues order
	if len(lines) != 1 || lines[0]["level"] != "INFO" || lines[0]["vendor"] != "Nowhere Labs" || lines[0]["reason"] != reason {
		t.Fatalf("enrichment failed log lines %v; want one at INFO for Nowhere Labs with reason %q", lines, reason)
	}
	run := apitest.Must(t, env.Do(t, "GET", "/vendor/enrich/"+lines[0]["run_id"].(string), admin, nil), http.StatusOK).Map(t)
	for _, j := range run["jobs"].([]any) {
		job := j.(map[string]any)
		switch job["vendor_name"] {
		case "Nowhere Labs":
			if job["status"] != "failed" || job["error"] != reason {
				t.Fatalf("job of Nowhere Labs %v; want failed with %q", job, reason)
			}
		case "Slack":
			if job["status"] != "done" {
				t.Fatalf("job of Slack %v", job)
			}
		}
	}

	// createOnly tries it again (it has no profile), and still makes none.
	apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", admin, map[string]any{"vendors": []string{"Nowhere Labs", "Slack"}, "createOnly": true}), http.StatusAccepted)
	env.Drain(t)
	if n := env.Enricher.Calls("Nowhere Labs"); n != 2 || !custom("Nowhere Labs") {
		t.Fatalf("Nowhere Labs enriched %d times (want 2), custom %v", n, custom("Nowhere Labs"))
	}
}

// The same with the real enricher, which discovers websites: a vendor
// saved by name whose website cannot be found (no candidate domain exists
// here) is not failed but needs a website: its web sections and its list
// entry say needs_website, its profile keeps the discovery's evidence, and
// it is not counted as a failed enrichment. Nothing leaves the machine:
// the test's resolver answers every name NXDOMAIN.
func TestRealEnricherMarksAVendorWithoutWebsiteNeedsWebsite(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfiguredEnricher())
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test")
	env.SaveVendors(t, owner, acct, "Nowhere Labs")
	env.Drain(t)
	var v struct {
		WebsiteURL       string                           `json:"website_url"`
		WebsiteSource    string                           `json:"website_source"`
		WebsiteDiscovery *api.WebsiteDiscoveryJSON        `json:"website_discovery"`
		Enrichment       map[string]api.SectionStatusJSON `json:"enrichment"`
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor/Nowhere Labs", owner, nil), http.StatusOK).JSON(t, &v)
	d := v.WebsiteDiscovery
	if v.WebsiteURL != "" || v.WebsiteSource != "" || d == nil || d.Website != "" || len(d.Candidates) == 0 || d.Candidates[0].Verdict != "unresolvable" {
		t.Fatalf("vendor without a website after enrichment: %+v", v)
	}
	for _, sec := range []string{"basic", "security", "privacy", "logo"} {
		if st := v.Enrichment[sec]; st.Status != "needs_website" {
			t.Errorf("%s section %+v, want needs_website", sec, st)
		}
	}
	list := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+acct+"&vendor-list=master-list", owner, nil), http.StatusOK).Map(t)
	entries := list["vendors"].([]any)
	if len(entries) != 1 || entries[0].(map[string]any)["enrichment_status"] != "needs_website" {
		t.Fatalf("list entries %v, want Nowhere Labs needs_website", entries)
	}
	if got := enrichmentCounts(t, env); got["failed"] != 0 {
		t.Fatalf("vetted_enrichments_total %v; want no failure", got)
	}
}
