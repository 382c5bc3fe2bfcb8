package vendor_test

import (
	"testing"

	"github.com/vetted-dev/vetted/core/vendor"
)

func TestEnrichmentOutcome(t *testing.T) {
	t.Parallel()
	noSite := vendor.SectionStatus{Status: "failed", Error: "no website known"}
	done := vendor.SectionStatus{Status: "done"}
	skipped := vendor.SectionStatus{Status: "skipped", Error: "no public source"}
	all := []vendor.Section{vendor.SectionBasic, vendor.SectionLogo, vendor.SectionSecurity, vendor.SectionPrivacy, vendor.SectionMaturity}
	tests := []struct {
		name            string
		requested       []vendor.Section
		states          map[vendor.Section]vendor.SectionStatus
		outcome, reason string
	}{
		{"no website", all, map[vendor.Section]vendor.SectionStatus{vendor.SectionBasic: noSite, vendor.SectionLogo: noSite,
			vendor.SectionSecurity: noSite, vendor.SectionPrivacy: noSite, vendor.SectionMaturity: skipped},
			vendor.OutcomeFailed, "basic, logo, security, privacy: no website known"},
		{"all done or skipped", all, map[vendor.Section]vendor.SectionStatus{vendor.SectionBasic: done, vendor.SectionLogo: done,
			vendor.SectionSecurity: done, vendor.SectionPrivacy: done, vendor.SectionMaturity: skipped}, vendor.OutcomeOK, ""},
		{"some failed", all, map[vendor.Section]vendor.SectionStatus{vendor.SectionBasic: done, vendor.SectionLogo: {Status: "failed", Error: "HTTP 404"},
			vendor.SectionSecurity: {Status: "failed"}, vendor.SectionPrivacy: {Status: "failed", Error: "HTTP 404"}},
			vendor.OutcomePartial, "logo, privacy: HTTP 404; security: failed"},
		{"a failure of a section not requested is an earlier run's", []vendor.Section{vendor.SectionBasic},
			map[vendor.Section]vendor.SectionStatus{vendor.SectionBasic: done, vendor.SectionLogo: noSite}, vendor.OutcomeOK, ""},
		{"only skipped", []vendor.Section{vendor.SectionMaturity, vendor.SectionAdditional}, map[vendor.Section]vendor.SectionStatus{vendor.SectionMaturity: skipped, vendor.SectionAdditional: skipped},
			vendor.OutcomeSkipped, "maturity, additional: no public source"},
		{"nothing requested", nil, nil, vendor.OutcomeSkipped, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			outcome, reason := vendor.EnrichmentOutcome(tt.requested, tt.states)
			if outcome != tt.outcome || reason != tt.reason {
				t.Fatalf("EnrichmentOutcome = %q, %q; want %q, %q", outcome, reason, tt.outcome, tt.reason)
			}
		})
	}
}
