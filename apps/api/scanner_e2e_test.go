package api_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/enrich/scantest"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// scanView is the part of GET /vendor/{id_or_name} the scan fills.
type scanView struct {
	ID       string       `json:"id"`
	Security api.Security `json:"security"`
	Privacy  api.Privacy  `json:"privacy"`
	Scores   struct {
		SecurityRating *int     `json:"security_rating"`
		RiskScore      *int     `json:"risk_score"`
		Grade          string   `json:"grade"`
		RiskCategories []string `json:"risk_categories"`
	} `json:"scores"`
	Enrichment map[string]struct {
		Status string `json:"status"`
		Error  string `json:"error"`
	} `json:"enrichment"`
	GRC *api.GRCAssessment `json:"latest_grc_assessment"`
}

// TestScanEndToEnd enriches two vendors of the fixture world through the
// API with the real scanner, twice: the security instances carry the
// findings with their evidence, the scores, grade and latest GRC
// assessment are the model's over exactly those instances, and the second
// scan replaced the latest assessment and kept the first in the history.
func TestScanEndToEnd(t *testing.T) {
	t.Parallel()
	clock := apitest.NewTestClock(t)
	w := scantest.Start(t, clock.Now, scantest.Good("good.test"), scantest.Weak("weak.test"))
	env := apitest.New(t, apitest.WithClock(clock), apitest.WithConfiguredEnricher(), apitest.WithConfig(func(c *app.Config) {
		c.ScanResolver, c.ScanRootCAs, c.FetchAllowPrivate = w.Resolver, w.CAFile, true
		c.ScanTimeout, c.ScanDNSTimeout, c.ScanConcurrency = 5*time.Second, time.Second, 2
	}))
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	admin := env.Token("ops@platform.test", apitest.Admin(), apitest.Verified())
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=save-vendors&account-id="+acct, owner, map[string]any{
		"vendors": []map[string]string{{"vendor_name": "Good Co", "website_url": "https://good.test"}, {"vendor_name": "Weak Co", "website_url": "https://weak.test/"}},
	}), 200)
	env.Drain(t) // the first scan: save-vendors enriches new vendors
	apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", admin, map[string]any{"vendors": []string{"Good Co", "Weak Co"}}), 202)
	env.Drain(t)

	wantWeak := []string{"tls_protocol_weak", "http_not_redirected", "hsts_missing", "csp_missing", "x_frame_options_missing",
		"x_content_type_options_missing", "server_version_disclosed", "security_txt_missing", "spf_missing", "dmarc_missing",
		"mta_sts_missing", "caa_missing", "dnssec_missing", "dkim_missing"}
	ratings := map[string]int{}
	for name, want := range map[string][]string{"Weak Co": wantWeak, "Good Co": {"hsts_preload_ready", "security_txt_present",
		"dmarc_enforced", "mta_sts_enforced", "caa_present", "privacy_policy_found", "terms_found", "trust_center_found", "status_page_found"}} {
		path := "/vendor/" + url.PathEscape(name)
		var list struct {
			VendorID    string `json:"vendor_id"`
			ChecksRun   int    `json:"checks_run"`
			ChecksTotal int    `json:"checks_total"`
			Instances   []struct {
				ID, Kind, Category, Code, Title, Severity, Evidence, Source string
				ObservedAt                                                  time.Time `json:"observed_at"`
			} `json:"instances"`
		}
		apitest.Must(t, env.Do(t, "GET", path+"/security-instances", owner, nil), 200).JSON(t, &list)
		var codes []string
		var is []vendors.SecurityInstance
		for _, in := range list.Instances {
			codes = append(codes, in.Code)
			if in.Evidence == "" || in.Source == "" || in.ObservedAt.IsZero() || in.Kind == "" || in.Category == "" || in.Title == "" {
				t.Errorf("%s: incomplete instance %+v", name, in)
			}
			is = append(is, vendors.SecurityInstance{ID: uuid.MustParse(in.ID), Kind: in.Kind, Category: in.Category, Code: in.Code,
				Title: in.Title, Severity: in.Severity, Evidence: in.Evidence, Source: in.Source, ObservedAt: in.ObservedAt})
		}
		if !slices.Equal(slices.Sorted(slices.Values(codes)), slices.Sorted(slices.Values(want))) {
			t.Fatalf("%s instances = %v, want %v", name, codes, want)
		}
		if n := len(vendors.Checks()); list.ChecksRun != n || list.ChecksTotal != n {
			t.Errorf("%s: checks_run %d of checks_total %d, want all %d ran", name, list.ChecksRun, list.ChecksTotal, n)
		}

		var v scanView
		apitest.Must(t, env.Do(t, "GET", path, owner, nil), 200).JSON(t, &v)
		r := vendors.Rate(is)
		s := v.Scores
		if s.SecurityRating == nil || *s.SecurityRating != *r.Score || *s.RiskScore != 100-*r.Score || s.Grade != vendors.Grade(*r.Score) ||
			!slices.Equal(s.RiskCategories, r.RiskCategories) {
			t.Fatalf("%s scores = %+v, the model over its instances says %d %v", name, s, *r.Score, r.RiskCategories)
		}
		g := v.GRC
		if g == nil || g.AggregateScore != *r.Score || g.Grade != s.Grade || g.Recommendation != vendors.Recommend(*r.Score, r.Worst, r.Coverage) ||
			len(g.DomainScores) != len(r.Domains) || len(g.EvidenceSummaries) == 0 || len(g.Citations) == 0 {
			t.Fatalf("%s latest_grc_assessment = %+v", name, g)
		}
		for i, d := range g.DomainScores {
			if d.Domain != r.Domains[i].Domain || d.Score != r.Domains[i].Score || d.Weight != r.Domains[i].Weight || !slices.Equal(d.Findings, r.Domains[i].Findings) {
				t.Errorf("%s domain %+v, want %+v", name, d, r.Domains[i])
			}
		}
		if st := v.Enrichment["security"]; st.Status != "done" {
			t.Errorf("%s security section = %+v", name, st)
		}
		if st := v.Enrichment["scores"]; st.Status != "done" {
			t.Errorf("%s scores section = %+v", name, st)
		}
		ratings[name] = *r.Score

		var past []vendors.GRCAssessment
		if err := env.Store.View(context.Background(), func(ctx context.Context, tx stores.Tx) error {
			var err error
			past, err = tx.Profiles().GRCAssessments(ctx, uuid.MustParse(v.ID))
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if len(past) != 2 || !past[0].AssessedAt.Equal(g.AssessedAt) || !past[1].AssessedAt.Before(g.AssessedAt) {
			t.Errorf("%s GRC history = %d assessments, want the latest and the first scan's", name, len(past))
		}
	}
	if ratings["Good Co"] != 100 || ratings["Weak Co"] >= 70 {
		t.Errorf("ratings = %v, want Good Co 100 and Weak Co under 70", ratings)
	}

	var good scanView
	apitest.Must(t, env.Do(t, "GET", "/vendor/Good%20Co", owner, nil), 200).JSON(t, &good)
	if good.Security.TrustCenterURL != "https://trust.good.test/" || good.Security.StatusPageURL != "https://status.good.test/" ||
		good.Privacy.PrivacyPolicyURL != "https://good.test/legal/privacy" {
		t.Errorf("links = %q %q %q", good.Security.TrustCenterURL, good.Security.StatusPageURL, good.Privacy.PrivacyPolicyURL)
	}
	if sig := good.Security.ExternalSignals; sig.DNSSEC == nil || !*sig.DNSSEC || sig.TLS == nil || !*sig.TLS {
		t.Errorf("external signals = %+v", sig)
	}
}

// TestScanWithoutRating: a vendor whose domain does not exist (a resolver
// that answers "no such host") gets a not-checked signal per check and no
// rating, not an F; a vendor without a website whose website discovery
// finds none is never scanned: it needs a website (its web sections say
// so, with the discovery's evidence). Asking for the scores section alone
// does not invent a rating either.
func TestScanWithoutRating(t *testing.T) {
	t.Parallel()
	clock := apitest.NewTestClock(t)
	w := scantest.Start(t, clock.Now)
	env := apitest.New(t, apitest.WithClock(clock), apitest.WithConfiguredEnricher(), apitest.WithConfig(func(c *app.Config) {
		c.ScanResolver, c.FetchAllowPrivate, c.ScanDNSTimeout = w.Resolver, true, time.Second
	}))
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	admin := env.Token("ops@platform.test", apitest.Admin(), apitest.Verified())
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=save-vendors&account-id="+acct, owner, map[string]any{
		"vendors": []any{map[string]string{"vendor_name": "Gone Co", "website_url": "https://gone.test"}, "Nosite Co"},
	}), 200)
	env.Drain(t)
	apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", admin, map[string]any{"vendors": []string{"Gone Co", "Nosite Co"}, "enrichmentSections": []string{"scores"}}), 202)
	env.Drain(t)
	for name, want := range map[string]struct{ status, reason string }{
		"Gone Co":   {"failed", "no security check could run"},
		"Nosite Co": {"skipped", "no security scan yet"}, // nothing scanned, nothing rated
	} {
		var v scanView
		apitest.Must(t, env.Do(t, "GET", "/vendor/"+url.PathEscape(name), owner, nil), 200).JSON(t, &v)
		if v.Scores.SecurityRating != nil || v.Scores.RiskScore != nil || v.Scores.Grade != "" || v.GRC != nil {
			t.Errorf("%s scores = %+v, grc %+v: want no rating", name, v.Scores, v.GRC)
		}
		if st := v.Enrichment["scores"]; st.Status != want.status || !strings.Contains(st.Error, want.reason) {
			t.Errorf("%s scores section = %+v, want %s: %s", name, st, want.status, want.reason)
		}
		if st := v.Enrichment["security"]; name == "Gone Co" && st.Status != "failed" {
			t.Errorf("%s security section = %+v", name, st)
		}
		if st := v.Enrichment["security"]; name == "Nosite Co" && st.Status != vendors.StatusNeedsWebsite {
			t.Errorf("%s security section = %+v, want needs_website", name, st)
		}
		list := apitest.Must(t, env.Do(t, "GET", "/vendor/"+url.PathEscape(name)+"/security-instances", owner, nil), 200).Map(t)
		is := list["instances"].([]any)
		if list["checks_run"] != float64(0) || list["checks_total"] != float64(len(vendors.Checks())) {
			t.Errorf("%s: checks_run %v of %v, want none ran", name, list["checks_run"], list["checks_total"])
		}
		if name == "Nosite Co" {
			if len(is) != 0 {
				t.Errorf("Nosite Co instances = %v", is)
			}
			continue
		}
		if len(is) != len(vendors.Checks()) {
			t.Fatalf("Gone Co: %d instances, want one per check", len(is))
		}
		for _, in := range is {
			m := in.(map[string]any)
			if !vendors.IsNotChecked(m["code"].(string)) || !strings.Contains(m["evidence"].(string), "gone.test does not exist (NXDOMAIN)") {
				t.Errorf("Gone Co instance %v", m)
			}
		}
	}
}
