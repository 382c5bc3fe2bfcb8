package directory_test

import (
	"testing"

	"github.com/vetted-dev/vetted/core/directory"
)

func TestEnrichmentOutcome(t *testing.T) {
	t.Parallel()
	noSite := directory.SectionStatus{Status: "failed", Error: "no website known"}
	done := directory.SectionStatus{Status: "done"}
	skipped := directory.SectionStatus{Status: "skipped", Error: "no public source"}
	all := []directory.Section{directory.SectionBasic, directory.SectionLogo, directory.SectionSecurity, directory.SectionPrivacy, directory.SectionMaturity}
	tests := []struct {
		name            string
		requested       []directory.Section
		states          map[directory.Section]directory.SectionStatus
		outcome, reason string
	}{
		{"no website", all, map[directory.Section]directory.SectionStatus{directory.SectionBasic: noSite, directory.SectionLogo: noSite,
			directory.SectionSecurity: noSite, directory.SectionPrivacy: noSite, directory.SectionMaturity: skipped},
			directory.OutcomeFailed, "basic, logo, security, privacy: no website known"},
		{"all done or skipped", all, map[directory.Section]directory.SectionStatus{directory.SectionBasic: done, directory.SectionLogo: done,
			directory.SectionSecurity: done, directory.SectionPrivacy: done, directory.SectionMaturity: skipped}, directory.OutcomeOK, ""},
		{"some failed", all, map[directory.Section]directory.SectionStatus{directory.SectionBasic: done, directory.SectionLogo: {Status: "failed", Error: "HTTP 404"},
			directory.SectionSecurity: {Status: "failed"}, directory.SectionPrivacy: {Status: "failed", Error: "HTTP 404"}},
			directory.OutcomePartial, "logo, privacy: HTTP 404; security: failed"},
		{"a failure of a section not requested is an earlier run's", []directory.Section{directory.SectionBasic},
			map[directory.Section]directory.SectionStatus{directory.SectionBasic: done, directory.SectionLogo: noSite}, directory.OutcomeOK, ""},
		{"only skipped", []directory.Section{directory.SectionMaturity, directory.SectionAdditional}, map[directory.Section]directory.SectionStatus{directory.SectionMaturity: skipped, directory.SectionAdditional: skipped},
			directory.OutcomeSkipped, "maturity, additional: no public source"},
		{"nothing requested", nil, nil, directory.OutcomeSkipped, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			outcome, reason := directory.EnrichmentOutcome(tt.requested, tt.states)
			if outcome != tt.outcome || reason != tt.reason {
				t.Fatalf("EnrichmentOutcome = %q, %q; want %q, %q", outcome, reason, tt.outcome, tt.reason)
			}
		})
	}
}
