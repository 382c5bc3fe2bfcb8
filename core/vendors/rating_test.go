package vendors_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
)

var scanAt = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// scan builds instances of the given codes, each with its own source.
func scan(t testing.TB, codes ...string) []vendors.SecurityInstance {
	t.Helper()
	out := make([]vendors.SecurityInstance, 0, len(codes))
	for _, c := range codes {
		in, err := vendors.NewSecurityInstance(uuid.New(), uuid.Nil, c, "observed "+c, "src:"+c, scanAt)
		if err != nil {
			t.Fatalf("NewSecurityInstance(%s): %v", c, err)
		}
		out = append(out, in)
	}
	return out
}

// notChecked lists the not-checked codes of every check except keep.
func notChecked(keep ...string) []string {
	var out []string
	for _, c := range vendors.Checks() {
		if !slices.Contains(keep, c.Name) {
			out = append(out, c.Name+vendors.NotCheckedSuffix)
		}
	}
	return out
}

func TestCatalog(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	rated := map[string]bool{}
	for _, w := range vendors.RatingWeights() {
		rated[w.Domain] = true
	}
	for _, c := range vendors.Checks() {
		if !rated[c.Category] {
			t.Errorf("check %s: category %q is not a rated domain", c.Name, c.Category)
		}
		if len(c.Codes) == 0 || c.Title == "" {
			t.Errorf("check %s has no codes or no title", c.Name)
		}
		for _, code := range append(slices.Clone(c.Codes), c.Name+vendors.NotCheckedSuffix) {
			if seen[code] {
				t.Errorf("code %s listed twice", code)
			}
			seen[code] = true
			info, ok := vendors.LookupCode(code)
			if !ok || info.Check != c.Name || info.Category != c.Category || info.Title == "" {
				t.Errorf("LookupCode(%s) = %+v, %v", code, info, ok)
			}
			wantKind := vendors.KindFinding
			if info.Severity == "positive" || vendors.IsNotChecked(code) {
				wantKind = vendors.KindSignal
			}
			if info.Kind != wantKind || !slices.Contains(vendors.SeverityValues(), info.Severity) {
				t.Errorf("%s: kind %s severity %s", code, info.Kind, info.Severity)
			}
		}
		if info, _ := vendors.LookupCode(c.Name + vendors.NotCheckedSuffix); info.Severity != "info" {
			t.Errorf("%s not-checked severity = %s, want info", c.Name, info.Severity)
		}
	}
	// The codes of issue 12 are part of the API.
	want := []string{
		"https_missing", "http_not_redirected", "hsts_missing", "hsts_short_max_age", "hsts_preload_ready", "csp_missing", "csp_unsafe",
		"x_frame_options_missing", "x_content_type_options_missing", "server_version_disclosed", "security_txt_missing",
		"security_txt_expired", "security_txt_present", "tls_cert_expired", "tls_cert_expiring_soon", "tls_cert_untrusted",
		"tls_cert_hostname_mismatch", "tls_protocol_weak", "spf_missing", "spf_softfail", "spf_permissive", "spf_malformed",
		"dmarc_missing", "dmarc_policy_none", "dmarc_enforced", "mta_sts_missing", "mta_sts_enforced", "caa_missing", "caa_present",
		"privacy_policy_found", "terms_found", "trust_center_found", "status_page_found",
		// The second catalog (issue 25).
		"dnssec_missing", "dkim_missing", "dkim_revoked", "dkim_weak_key", "spf_too_many_lookups", "dmarc_partial", "cookie_insecure",
		"exposed_git", "exposed_env", "exposed_server_status", "mixed_content", "tls_chain_incomplete", "tls_weak_key", "tls_weak_signature",
	}
	var got []string
	for _, c := range vendors.Checks() {
		got = append(got, c.Codes...)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("catalog codes =\n%v\nwant\n%v", got, want)
	}
	if vendors.IsNotChecked("spf_missing") || !vendors.IsNotChecked("spf_not_checked") || vendors.IsNotChecked("nothing_not_checked") {
		t.Fatal("IsNotChecked misreads codes")
	}
}

func TestNewSecurityInstance(t *testing.T) {
	t.Parallel()
	id, vid := uuid.New(), uuid.New()
	in, err := vendors.NewSecurityInstance(id, vid, "dmarc_policy_none", "_dmarc.acme.test: v=DMARC1; p=none", "dns:_dmarc.acme.test?type=TXT", scanAt.In(time.FixedZone("x", 3600)))
	if err != nil {
		t.Fatal(err)
	}
	want := vendors.SecurityInstance{ID: id, VendorID: vid, Kind: "finding", Category: "email_security", Code: "dmarc_policy_none",
		Title: "DMARC policy is none (monitoring only)", Severity: "low", Evidence: "_dmarc.acme.test: v=DMARC1; p=none",
		Source: "dns:_dmarc.acme.test?type=TXT", ObservedAt: scanAt}
	if in != want || in.ObservedAt.Location() != time.UTC {
		t.Fatalf("instance = %+v\nwant %+v", in, want)
	}
	nc, err := vendors.NewSecurityInstance(id, vid, "caa_not_checked", "DNS timeout", "dns:acme.test?type=CAA", scanAt)
	if err != nil || nc.Kind != "signal" || nc.Severity != "info" || nc.Category != "dns_health" {
		t.Fatalf("not-checked instance = %+v, %v", nc, err)
	}
	for _, tc := range []struct{ code, evidence, field string }{
		{"spf_record_missing", "x", "Code"},
		{"hsts_missing", " ", "Evidence"},
	} {
		_, err := vendors.NewSecurityInstance(id, vid, tc.code, tc.evidence, "", scanAt)
		if fs := core.Failures(err); !errors.Is(err, core.ErrInvalid) || len(fs) == 0 || fs[0].Field != tc.field {
			t.Errorf("NewSecurityInstance(%q, %q) err = %v, want invalid %s", tc.code, tc.evidence, err, tc.field)
		}
	}
}

func TestRate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		codes     []string
		score     int // -1: no rating
		domains   map[string]int
		weights   map[string]float64
		recommend string
		risk      []string
	}{
		{name: "no instances", codes: nil, score: -1},
		{name: "codes outside the catalog", codes: nil, score: -1},
		{name: "nothing could run", codes: notChecked(), score: -1},
		{
			name: "everything passed with every positive", score: 100, recommend: "approve", risk: []string{},
			codes: []string{"hsts_preload_ready", "security_txt_present", "dmarc_enforced", "mta_sts_enforced", "caa_present",
				"privacy_policy_found", "terms_found", "trust_center_found", "status_page_found"},
			domains: map[string]int{"application_security": 100, "network_security": 100, "email_security": 100, "dns_health": 100, "compliance": 100, "privacy": 100},
		},
		{
			// app 100-20+min(5,10)=85; network 85; email 100-5+min(5,2)=97; dns 95;
			// compliance 100-(20+10 gaps)+min(5,15)=75; privacy 100.
			// (43*85+26*85+9*97+10*95+6*75+6*100)/100 = 87.38.
			name: "a mixed scan", score: 87, recommend: "approve_with_conditions",
			risk: []string{"application_security", "network_security", "email_security", "dns_health"},
			codes: []string{"hsts_missing", "csp_missing", "security_txt_present", "tls_cert_expiring_soon", "spf_softfail",
				"dmarc_enforced", "caa_missing", "privacy_policy_found", "terms_found"},
			domains: map[string]int{"application_security": 85, "network_security": 85, "email_security": 97, "dns_health": 95, "compliance": 75, "privacy": 100},
			weights: map[string]float64{"application_security": 0.43, "network_security": 0.26, "email_security": 0.09, "dns_health": 0.1, "compliance": 0.06, "privacy": 0.06},
		},
		{
			// Only email and DNS could run: email 100-15+min(5,7)=90, dns 100;
			// (9*90+10*100)/19 = 95.26.
			name: "only the DNS checks ran", score: 95, recommend: "approve_with_conditions", risk: []string{"email_security"},
			codes:   append(notChecked("spf", "dmarc", "caa"), "spf_missing", "dmarc_enforced", "caa_present"),
			domains: map[string]int{"email_security": 90, "dns_health": 100},
			weights: map[string]float64{"email_security": 0.4737, "dns_health": 0.5263},
		},
		{
			// network 100-40-25 = 35; app 100-25-15-15 = 45; the rest pass
			// with gaps: compliance 40, privacy 50; email, dns 100.
			// (43*45+26*35+9*100+10*100+6*40+6*50)/100 = 52.85.
			name: "critical finding", score: 53, recommend: "reject",
			risk:    []string{"application_security", "network_security"},
			codes:   []string{"tls_cert_expired", "tls_cert_untrusted", "https_missing", "http_not_redirected", "hsts_missing"},
			domains: map[string]int{"application_security": 45, "network_security": 35, "email_security": 100, "dns_health": 100, "compliance": 40, "privacy": 50},
		},
		{
			// The second catalog: app 100-40-25-15-5-5 = 10; network
			// 100-15-15-15 = 55; email 100-5-15-5+min(5,12) = 80; dns 95;
			// compliance 40, privacy 50 (gaps).
			// (43*10+26*55+9*80+10*95+6*40+6*50)/100 = 40.7.
			name: "the second catalog", score: 41, recommend: "reject",
			risk: []string{"application_security", "network_security", "email_security", "dns_health"},
			codes: []string{"exposed_env", "exposed_git", "exposed_server_status", "cookie_insecure", "mixed_content",
				"tls_chain_incomplete", "tls_weak_key", "tls_weak_signature", "dkim_missing", "spf_too_many_lookups", "dmarc_partial",
				"dmarc_enforced", "dnssec_missing"},
			domains: map[string]int{"application_security": 10, "network_security": 55, "email_security": 80, "dns_health": 95, "compliance": 40, "privacy": 50},
		},
		{
			name: "a domain floors at zero", score: -2, recommend: "reject",
			codes: append(notChecked("tls_certificate", "tls_protocol"), "tls_cert_expired", "tls_cert_untrusted", "tls_cert_hostname_mismatch", "tls_protocol_weak"),
			risk:  []string{"network_security"}, domains: map[string]int{"network_security": 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			is := scan(t, tc.codes...)
			if tc.name == "codes outside the catalog" {
				is = []vendors.SecurityInstance{{Code: "spf_record_missing", Kind: "finding", Severity: "high", Category: "email_security"}}
			}
			r := vendors.Rate(is)
			if tc.score == -1 {
				if r.Score != nil || r.Domains != nil {
					t.Fatalf("rating = %v %+v, want none", *r.Score, r.Domains)
				}
				return
			}
			want := tc.score
			if want == -2 {
				want = 0
			}
			if r.Score == nil || *r.Score != want {
				t.Fatalf("score = %v, want %d (domains %+v)", r.Score, want, r.Domains)
			}
			got := map[string]int{}
			var sum float64
			for _, d := range r.Domains {
				got[d.Domain] = d.Score
				sum += d.Weight
				if w, ok := tc.weights[d.Domain]; ok && d.Weight != w {
					t.Errorf("%s weight = %v, want %v", d.Domain, d.Weight, w)
				}
			}
			if len(got) != len(tc.domains) {
				t.Errorf("domains = %v, want %v", got, tc.domains)
			}
			for d, s := range tc.domains {
				if got[d] != s {
					t.Errorf("%s = %d, want %d", d, got[d], s)
				}
			}
			if sum < 0.999 || sum > 1.001 {
				t.Errorf("effective weights sum to %v", sum)
			}
			var rated float64
			for _, w := range vendors.RatingWeights() {
				if _, ok := got[w.Domain]; ok {
					rated += float64(w.Weight) / 100
				}
			}
			if r.Coverage < rated-0.0001 || r.Coverage > rated+0.0001 {
				t.Errorf("coverage = %v, want %v", r.Coverage, rated)
			}
			if rec := vendors.Recommend(*r.Score, r.Worst, r.Coverage); rec != tc.recommend {
				t.Errorf("recommendation = %s, want %s", rec, tc.recommend)
			}
			if !slices.Equal(r.RiskCategories, tc.risk) {
				t.Errorf("risk categories = %v, want %v", r.RiskCategories, tc.risk)
			}
		})
	}
}

func TestRecommend(t *testing.T) {
	t.Parallel()
	tests := []struct {
		score    int
		worst    string
		coverage float64
		want     string
	}{
		{100, "", 1, "approve"},
		{80, "low", 0.5, "approve"},
		{100, "", 0.49, "approve_with_conditions"},
		{79, "", 1, "approve_with_conditions"},
		{95, "medium", 1, "approve_with_conditions"},
		{99, "high", 1, "escalate"},
		{99, "critical", 1, "escalate"},
		{59, "", 1, "escalate"},
		{59, "critical", 1, "reject"},
		{39, "", 1, "reject"},
	}
	for _, tc := range tests {
		if got := vendors.Recommend(tc.score, tc.worst, tc.coverage); got != tc.want {
			t.Errorf("Recommend(%d, %q, %v) = %s, want %s", tc.score, tc.worst, tc.coverage, got, tc.want)
		}
	}
}

// TestRateIsMonotone checks on random scans that one more finding, or one
// positive fewer, never raises a domain score or the rating.
func TestRateIsMonotone(t *testing.T) {
	t.Parallel()
	var findings, positives []string
	for _, c := range vendors.Checks() {
		for _, code := range c.Codes {
			if info, _ := vendors.LookupCode(code); info.Kind == vendors.KindFinding {
				findings = append(findings, code)
			} else {
				positives = append(positives, code)
			}
		}
	}
	rng := rand.New(rand.NewPCG(12, 2026))
	pick := func(from []string) []string {
		var out []string
		for _, c := range from {
			if rng.IntN(3) == 0 {
				out = append(out, c)
			}
		}
		return out
	}
	less := func(worse, better vendors.Rating) string {
		if *worse.Score > *better.Score {
			return "rating"
		}
		for _, w := range worse.Domains {
			for _, b := range better.Domains {
				if w.Domain == b.Domain && w.Score > b.Score {
					return w.Domain
				}
			}
		}
		return ""
	}
	for i := range 2000 {
		base := append(pick(findings), pick(positives)...)
		// Some checks could not run; their codes leave the scan.
		var skip []string
		for _, c := range vendors.Checks() {
			if rng.IntN(6) == 0 {
				skip = append(skip, c.Name)
			}
		}
		keep := func(codes []string) []string {
			var out []string
			for _, code := range codes {
				info, _ := vendors.LookupCode(code)
				if !slices.Contains(skip, info.Check) {
					out = append(out, code)
				}
			}
			for _, s := range skip {
				out = append(out, s+vendors.NotCheckedSuffix)
			}
			return out
		}
		cur := keep(base)
		r := vendors.Rate(scan(t, cur...))
		if r.Score == nil {
			continue
		}
		for _, f := range findings {
			info, _ := vendors.LookupCode(f)
			if slices.Contains(cur, f) || slices.Contains(skip, info.Check) {
				continue
			}
			if d := less(vendors.Rate(scan(t, append(slices.Clone(cur), f)...)), r); d != "" {
				t.Fatalf("case %d: adding %s to %v raised %s", i, f, cur, d)
			}
		}
		for j, c := range cur {
			if info, _ := vendors.LookupCode(c); info.Severity != "positive" {
				continue
			}
			fewer := append(slices.Clone(cur[:j]), cur[j+1:]...)
			if d := less(vendors.Rate(scan(t, fewer...)), r); d != "" {
				t.Fatalf("case %d: removing %s from %v raised %s", i, c, cur, d)
			}
		}
	}
}

func TestApplyRating(t *testing.T) {
	t.Parallel()
	p := vendors.NewProfile(uuid.New(), uuid.New(), scanAt)
	p.Scores.BreachHistory = []vendors.Breach{{Date: "2020-01-01", Description: "kept"}}
	is := scan(t, "hsts_missing", "dmarc_enforced", "caa_not_checked", "dnssec_not_checked")
	g := p.ApplyRating(is, scanAt)
	if g == nil || p.LatestGRC == nil {
		t.Fatal("no assessment")
	}
	s := p.Scores
	if s.SecurityRating == nil || s.RiskScore == nil || *s.SecurityRating+*s.RiskScore != 100 || s.Grade != vendors.Grade(*s.SecurityRating) {
		t.Fatalf("scores = %+v", s)
	}
	if len(s.BreachHistory) != 1 || !slices.Equal(s.RiskCategories, []string{"application_security"}) {
		t.Fatalf("scores = %+v", s)
	}
	if g.AggregateScore != *s.SecurityRating || g.Grade != s.Grade || !g.AssessedAt.Equal(scanAt) || g.Recommendation != "approve_with_conditions" {
		t.Fatalf("assessment = %+v", g)
	}
	var domains []string
	for _, d := range g.DomainScores {
		domains = append(domains, d.Domain)
		if d.Domain == "application_security" && !slices.Equal(d.Findings, []string{"hsts_missing"}) {
			t.Errorf("application findings = %v", d.Findings)
		}
	}
	if slices.Contains(domains, "dns_health") {
		t.Errorf("dns_health rated although none of its checks ran: %v", domains)
	}
	joined := strings.Join(g.EvidenceSummaries, "\n")
	for _, want := range []string{"observed hsts_missing", "CAA records (RFC 8659) not checked: observed caa_not_checked", "dns_health not rated", "Privacy policy link on the home page: none found (-50 in privacy)"} {
		if !strings.Contains(joined, want) {
			t.Errorf("summaries lack %q:\n%s", want, joined)
		}
	}
	var urls []string
	for _, c := range g.Citations {
		urls = append(urls, c.URL)
		if c.Title == "" || !c.RetrievedAt.Equal(scanAt) {
			t.Errorf("citation %+v", c)
		}
	}
	if !slices.Equal(urls, []string{"src:hsts_missing", "src:caa_not_checked", "src:dnssec_not_checked", "src:dmarc_enforced"}) {
		t.Errorf("citations = %v", urls)
	}
	g.DomainScores[0].Findings[0] = "scribbled"
	if p.LatestGRC.DomainScores[0].Findings[0] == "scribbled" {
		t.Fatal("the returned assessment shares memory with the profile's")
	}

	// A later scan that could run nothing clears the rating.
	if g := p.ApplyRating(scan(t, notChecked()...), scanAt.Add(time.Hour)); g != nil {
		t.Fatalf("assessment without any check = %+v", g)
	}
	if p.Scores.SecurityRating != nil || p.Scores.RiskScore != nil || p.Scores.Grade != "" || p.LatestGRC != nil || len(p.Scores.RiskCategories) != 0 {
		t.Fatalf("scores after a blind scan = %+v, grc %+v", p.Scores, p.LatestGRC)
	}
}
