package vendors_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
)

func TestParseSections(t *testing.T) {
	t.Parallel()
	all := []vendors.Section{
		vendors.SectionBasic, vendors.SectionAdditional, vendors.SectionMaturity, vendors.SectionSecurity,
		vendors.SectionPrivacy, vendors.SectionLogo, vendors.SectionScores,
	}
	tests := []struct {
		name    string
		in      []string
		want    []vendors.Section
		invalid bool
	}{
		{name: "nil means all", in: nil, want: all},
		{name: "empty means all", in: []string{}, want: all},
		{name: "subset keeps order given", in: []string{"scores", "basic"}, want: []vendors.Section{vendors.SectionScores, vendors.SectionBasic}},
		{name: "case and spaces", in: []string{" Security ", "PRIVACY"}, want: []vendors.Section{vendors.SectionSecurity, vendors.SectionPrivacy}},
		{name: "dedupe", in: []string{"logo", "Logo", "logo"}, want: []vendors.Section{vendors.SectionLogo}},
		{name: "unknown", in: []string{"basic", "financials"}, invalid: true},
		{name: "blank", in: []string{""}, invalid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := vendors.ParseSections(tt.in)
			if tt.invalid {
				if !errors.Is(err, core.ErrInvalid) {
					t.Fatalf("err = %v, want ErrInvalid", err)
				}
				if !strings.Contains(err.Error(), strings.Join(vendors.SectionValues(), ", ")) {
					t.Fatalf("error %q does not list the allowed sections", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseSections(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestGrade(t *testing.T) {
	t.Parallel()
	tests := []struct {
		score int
		want  string
	}{
		{100, "A"}, {90, "A"}, {89, "B"}, {80, "B"}, {79, "C"}, {70, "C"},
		{69, "D"}, {60, "D"}, {59, "F"}, {0, "F"}, {-1, "F"},
	}
	for _, tt := range tests {
		if got := vendors.Grade(tt.score); got != tt.want {
			t.Errorf("Grade(%d) = %q, want %q", tt.score, got, tt.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// patch parses a JSON object into the form ApplyPatch takes.
func patch(t *testing.T, s string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("bad test patch %s: %v", s, err)
	}
	return m
}

var (
	created = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	patched = time.Date(2026, 2, 1, 9, 30, 0, 0, time.FixedZone("CET", 3600))
)

// sample builds a fresh profile with values in every patchable group, with
// slices and pointers that a patch could write through.
func sample() vendors.Profile {
	p := vendors.NewProfile(uuid.New(), uuid.New(), created)
	p.Company = vendors.Company{
		CompanyDescription: "Chat for teams",
		Industry:           "Software",
		FoundedYear:        ptr(2009),
		EmployeeCount:      ptr(2500),
		Alias:              []string{"Slack", "Slack HQ"},
		WebsiteURL:         "https://slack.com",
	}
	p.Security = vendors.Security{
		ComplianceCertifications: []string{"SOC 2", "ISO 27001"},
		TrustCenterURL:           "https://slack.com/trust",
		ExternalSignals:          vendors.ExternalSignals{TLS: ptr(true), HSTS: ptr(true), SPF: ptr(false), TLSExpiresAt: "2027-01-01"},
	}
	p.Privacy = vendors.Privacy{DataCollected: []string{"email"}, GDPRCompliant: ptr(true)}
	p.Maturity = vendors.Maturity{CompanyType: "public", PopularityIndex: ptr(90)}
	p.Scores = vendors.Scores{SecurityRating: ptr(85), Grade: "B"}
	return p
}

func TestApplyPatchMerges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		patch string
		check func(t *testing.T, before, after vendors.Profile)
	}{
		{
			name:  "company fields replaced, others kept",
			patch: `{"company":{"industry":"Collaboration","founded_year":2010,"alias":["Slack Technologies"]}}`,
			check: func(t *testing.T, before, after vendors.Profile) {
				want := before.Company
				want.Industry, want.FoundedYear, want.Alias = "Collaboration", ptr(2010), []string{"Slack Technologies"}
				if !reflect.DeepEqual(after.Company, want) {
					t.Fatalf("company = %+v, want %+v", after.Company, want)
				}
			},
		},
		{
			name:  "security, privacy and maturity in one patch",
			patch: `{"security":{"status_page_url":"https://status.slack.com"},"privacy":{"gdpr_compliant":false,"data_collected":["email","name"]},"maturity":{"funding_round":"IPO"}}`,
			check: func(t *testing.T, before, after vendors.Profile) {
				if after.Security.StatusPageURL != "https://status.slack.com" || after.Security.TrustCenterURL != before.Security.TrustCenterURL {
					t.Fatalf("security = %+v", after.Security)
				}
				if after.Privacy.GDPRCompliant == nil || *after.Privacy.GDPRCompliant || !reflect.DeepEqual(after.Privacy.DataCollected, []string{"email", "name"}) {
					t.Fatalf("privacy = %+v", after.Privacy)
				}
				if after.Maturity.FundingRound != "IPO" || after.Maturity.CompanyType != "public" {
					t.Fatalf("maturity = %+v", after.Maturity)
				}
			},
		},
		{
			name:  "nested external_signals merge",
			patch: `{"security":{"external_signals":{"spf":true,"dmarc":true}}}`,
			check: func(t *testing.T, before, after vendors.Profile) {
				want := before.Security.ExternalSignals
				want.SPF, want.DMARC = ptr(true), ptr(true)
				if !reflect.DeepEqual(after.Security.ExternalSignals, want) {
					t.Fatalf("external_signals = %+v, want %+v", after.Security.ExternalSignals, want)
				}
			},
		},
		{
			name:  "null removes a pointer field",
			patch: `{"company":{"employee_count":null}}`,
			check: func(t *testing.T, _, after vendors.Profile) {
				if after.Company.EmployeeCount != nil {
					t.Fatalf("employee_count = %v, want removed", *after.Company.EmployeeCount)
				}
			},
		},
		{
			name:  "null removes a string field",
			patch: `{"company":{"industry":null}}`,
			check: func(t *testing.T, _, after vendors.Profile) {
				if after.Company.Industry != "" {
					t.Fatalf("industry = %q, want removed", after.Company.Industry)
				}
			},
		},
		{
			name:  "null removes a list",
			patch: `{"company":{"alias":null}}`,
			check: func(t *testing.T, _, after vendors.Profile) {
				if len(after.Company.Alias) != 0 {
					t.Fatalf("alias = %q, want removed", after.Company.Alias)
				}
			},
		},
		{
			name:  "null removes a nested signal",
			patch: `{"security":{"external_signals":{"hsts":null,"tls_expires_at":null}}}`,
			check: func(t *testing.T, before, after vendors.Profile) {
				want := before.Security.ExternalSignals
				want.HSTS, want.TLSExpiresAt = nil, ""
				if !reflect.DeepEqual(after.Security.ExternalSignals, want) {
					t.Fatalf("external_signals = %+v, want %+v", after.Security.ExternalSignals, want)
				}
			},
		},
		{
			name:  "scores and enrichment untouched",
			patch: `{"company":{"logo":"https://cdn/x.png"}}`,
			check: func(t *testing.T, before, after vendors.Profile) {
				if !reflect.DeepEqual(after.Scores, before.Scores) || after.ID != before.ID || after.VendorID != before.VendorID || !after.CreatedAt.Equal(before.CreatedAt) {
					t.Fatalf("patch changed more than company: %+v", after)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before, p := sample(), sample()
			p.ID, p.VendorID = before.ID, before.VendorID
			if err := p.ApplyPatch(patch(t, tt.patch), patched); err != nil {
				t.Fatalf("ApplyPatch: %v", err)
			}
			if !p.UpdatedAt.Equal(patched) || p.UpdatedAt.Location() != time.UTC {
				t.Fatalf("UpdatedAt = %v, want %v in UTC", p.UpdatedAt, patched)
			}
			tt.check(t, before, p)
		})
	}
}

func TestApplyPatchRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		patch string
		names []string // each must appear in the error
	}{
		{"unknown group", `{"financials":{"revenue":1}}`, []string{"financials"}},
		{"scores group", `{"scores":{"security_rating":100}}`, []string{"scores"}},
		{"enrichment group", `{"enrichment":{"basic":{"status":"done"}}}`, []string{"enrichment"}},
		{"unknown field", `{"company":{"ceo":"x"}}`, []string{"company.ceo"}},
		{"unknown fields in two groups", `{"company":{"ceo":"x"},"privacy":{"dpo":"y"}}`, []string{"company.ceo", "privacy.dpo"}},
		{"group not an object", `{"company":"Slack"}`, []string{"company"}},
		{"wrong type", `{"company":{"founded_year":"two thousand"}}`, []string{"company"}},
		{"wrong type in list", `{"privacy":{"data_collected":"email"}}`, []string{"privacy"}},
		{"unknown nested signal", `{"security":{"external_signals":{"rce":true}}}`, []string{"security"}},
		// A valid change to one group must not survive a bad one in another.
		{"good then bad", `{"company":{"founded_year":1999,"alias":["X"],"industry":"Y"},"security":{"external_signals":{"tls":false}},"zzz":{}}`, []string{"zzz"}},
		{"good and bad in one group", `{"company":{"founded_year":1999,"alias":["X"],"employee_count":"many"}}`, []string{"company"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before, p := sample(), sample()
			p.ID, p.VendorID = before.ID, before.VendorID
			err := p.ApplyPatch(patch(t, tt.patch), patched)
			if !errors.Is(err, core.ErrInvalid) {
				t.Fatalf("err = %v, want ErrInvalid", err)
			}
			fs := core.Failures(err)
			if len(fs) == 0 {
				t.Fatalf("err = %T, want a *core.Error", err)
			}
			for _, n := range tt.names {
				found := false
				for _, f := range fs {
					if f.Field == "Patch."+n {
						found = true
					}
				}
				if !found {
					t.Fatalf("error %q does not name %q", err, n)
				}
			}
			if !reflect.DeepEqual(p, before) {
				t.Fatalf("a failed patch changed the profile:\n got %+v\nwant %+v", p, before)
			}
		})
	}
}

func TestNewIncident(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	got, err := vendors.NewIncident(vendors.Incident{ID: id, Title: "  Credential leak  "})
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Credential leak" || got.Severity != "medium" || got.Status != "open" || got.Source != "manual" || got.ExternalID != id.String() {
		t.Fatalf("defaults: %+v", got)
	}
	if got.PotentiallyImpactedData == nil || len(got.PotentiallyImpactedData) != 0 {
		t.Fatalf("PotentiallyImpactedData = %#v, want empty non-nil", got.PotentiallyImpactedData)
	}
	kept, err := vendors.NewIncident(vendors.Incident{ID: id, Title: "x", Severity: "critical", Status: "resolved", Source: "feed", ExternalID: "CVE-1", PotentiallyImpactedData: []string{"email"}})
	if err != nil {
		t.Fatal(err)
	}
	if kept.Severity != "critical" || kept.Status != "resolved" || kept.Source != "feed" || kept.ExternalID != "CVE-1" || len(kept.PotentiallyImpactedData) != 1 {
		t.Fatalf("given values not kept: %+v", kept)
	}

	tests := []struct {
		name  string
		in    vendors.Incident
		field string
	}{
		{"empty title", vendors.Incident{Title: " "}, "Incident.Title"},
		{"long title", vendors.Incident{Title: strings.Repeat("x", 501)}, "Incident.Title"},
		{"long multibyte title", vendors.Incident{Title: strings.Repeat("é", 501)}, "Incident.Title"},
		{"bad severity", vendors.Incident{Title: "x", Severity: "severe"}, "Incident.Severity"},
		{"positive is no incident severity", vendors.Incident{Title: "x", Severity: "positive"}, "Incident.Severity"},
		{"severity case", vendors.Incident{Title: "x", Severity: "HIGH"}, "Incident.Severity"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := vendors.NewIncident(tt.in)
			fs := core.Failures(err)
			if !errors.Is(err, core.ErrInvalid) || len(fs) == 0 || fs[0].Field != tt.field {
				t.Fatalf("err = %v, want a validation error on %s", err, tt.field)
			}
		})
	}
	for _, sev := range []string{"critical", "high", "medium", "low", "info"} {
		if _, err := vendors.NewIncident(vendors.Incident{Title: "x", Severity: sev}); err != nil {
			t.Errorf("severity %q: %v", sev, err)
		}
	}
	for _, title := range []string{strings.Repeat("x", 500), strings.Repeat("é", 500)} {
		if _, err := vendors.NewIncident(vendors.Incident{Title: title}); err != nil {
			t.Errorf("500-character title: %v", err)
		}
	}
}

func TestEnrichmentStatus(t *testing.T) {
	st := func(ss ...string) map[vendors.Section]vendors.SectionStatus {
		m := map[vendors.Section]vendors.SectionStatus{}
		for i, s := range ss {
			m[vendors.Section(vendors.SectionValues()[i])] = vendors.SectionStatus{Status: s}
		}
		return m
	}
	cases := []struct {
		has  bool
		secs map[vendors.Section]vendors.SectionStatus
		want string
	}{
		{false, st("done"), ""},
		{true, nil, ""},
		{true, st("done", "skipped"), "done"},
		{true, st("done", "failed"), "failed"},
		{true, st("failed", "queued"), "queued"},
		{true, st("queued", "running", "failed"), "running"},
	}
	for _, c := range cases {
		if got := vendors.EnrichmentStatus(c.has, c.secs); got != c.want {
			t.Fatalf("EnrichmentStatus(%v, %v) = %q, want %q", c.has, c.secs, got, c.want)
		}
	}
}
