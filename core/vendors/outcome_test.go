package vendors_test

import (
	"testing"

	"github.com/vetted-dev/vetted/core/vendors"
)

func TestEnrichmentOutcome(t *testing.T) {
	t.Parallel()
	noSite := vendors.SectionStatus{Status: "failed", Error: "no website known"}
	done := vendors.SectionStatus{Status: "done"}
	skipped := vendors.SectionStatus{Status: "skipped", Error: "no public source"}
	all := []vendors.Section{vendors.SectionBasic, vendors.SectionLogo, vendors.SectionSecurity, vendors.SectionPrivacy, vendors.SectionMaturity}
	tests := []struct {
		name            string
		requested       []vendors.Section
		states          map[vendors.Section]vendors.SectionStatus
		outcome, reason string
	}{
		{"no website", all, map[vendors.Section]vendors.SectionStatus{vendors.SectionBasic: noSite, vendors.SectionLogo: noSite,
			vendors.SectionSecurity: noSite, vendors.SectionPrivacy: noSite, vendors.SectionMaturity: skipped},
			vendors.OutcomeFailed, "basic, logo, security, privacy: no website known"},
		{"all done or skipped", all, map[vendors.Section]vendors.SectionStatus{vendors.SectionBasic: done, vendors.SectionLogo: done,
			vendors.SectionSecurity: done, vendors.SectionPrivacy: done, vendors.SectionMaturity: skipped}, vendors.OutcomeOK, ""},
		{"some failed", all, map[vendors.Section]vendors.SectionStatus{vendors.SectionBasic: done, vendors.SectionLogo: {Status: "failed", Error: "HTTP 404"},
			vendors.SectionSecurity: {Status: "failed"}, vendors.SectionPrivacy: {Status: "failed", Error: "HTTP 404"}},
			vendors.OutcomePartial, "logo, privacy: HTTP 404; security: failed"},
		{"a failure of a section not requested is an earlier run's", []vendors.Section{vendors.SectionBasic},
			map[vendors.Section]vendors.SectionStatus{vendors.SectionBasic: done, vendors.SectionLogo: noSite}, vendors.OutcomeOK, ""},
		{"only skipped", []vendors.Section{vendors.SectionMaturity, vendors.SectionAdditional}, map[vendors.Section]vendors.SectionStatus{vendors.SectionMaturity: skipped, vendors.SectionAdditional: skipped},
			vendors.OutcomeSkipped, "maturity, additional: no public source"},
		{"nothing requested", nil, nil, vendors.OutcomeSkipped, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			outcome, reason := vendors.EnrichmentOutcome(tt.requested, tt.states)
			if outcome != tt.outcome || reason != tt.reason {
				t.Fatalf("EnrichmentOutcome = %q, %q; want %q, %q", outcome, reason, tt.outcome, tt.reason)
			}
		})
	}
}
