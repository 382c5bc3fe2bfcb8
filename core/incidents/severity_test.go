package incidents

import "testing"

func TestSeverityTable(t *testing.T) {
	for _, c := range []struct {
		name, got, want string
	}{
		{"kev", kevSeverity(KEVEntry{KnownRansomwareCampaignUse: "Unknown"}), "high"},
		{"kev with ransomware", kevSeverity(KEVEntry{KnownRansomwareCampaignUse: "Known"}), "critical"},
		{"breach of e-mails", breachSeverity(Breach{DataClasses: []string{"Email addresses", "Names"}}), "medium"},
		{"breach with passwords", breachSeverity(Breach{DataClasses: []string{"Email addresses", "Passwords"}}), "high"},
		{"breach with cards", breachSeverity(Breach{DataClasses: []string{"Credit cards"}}), "high"},
		{"breach with bank accounts", breachSeverity(Breach{DataClasses: []string{"Bank account numbers"}}), "high"},
		{"filing", filingItem(Filing{FilerName: "Acme Corp"}, fixedNow).draft.Severity, "high"},
		{"news", newsSeverity(FoldText("Okta says hackers accessed support files")), "medium"},
		{"news, ransomware", newsSeverity(FoldText("Ransomware gang hits Acme")), "high"},
		{"news, zero-day", newsSeverity(FoldText("Ivanti zero-day exploited")), "high"},
		{"news, actively exploited", newsSeverity(FoldText("Flaw actively exploited")), "high"},
		{"higher of two", higherSeverity("medium", "high"), "high"},
		{"higher of two, first", higherSeverity("critical", "high"), "critical"},
		{"unknown loses", higherSeverity("", "low"), "low"},
	} {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
}
