package incidents

import (
	"slices"
	"strings"

	"github.com/vetted-dev/vetted/core/vendors"
)

// The severity table of the platform-wide sources (docs/decisions/incidents.md):
//
//	KEV entry                                  high; critical when CISA knows of ransomware use
//	breach with passwords or financial data    high (the classes in sensitiveDataClasses)
//	other breach                               medium
//	8-K item 1.05 filing                       high
//	news                                       medium; high when it has a term of highNewsTerms
//
// An incident merged from several items has the highest of theirs.

// sensitiveDataClasses are the breach data classes (Have I Been Pwned's
// names, lower case) that make a breach high.
var sensitiveDataClasses = []string{
	"passwords", "auth tokens", "credit cards", "partial credit card data", "credit card cvv",
	"bank account numbers", "financial data", "financial transactions", "payment methods",
	"payment histories", "social security numbers", "government issued ids", "passport numbers",
	"security questions and answers", "pins",
}

// highNewsTerms in a story (folded) make its incident high.
var highNewsTerms = []string{
	"ransomware", "zero day", "0 day", "actively exploited", "supply chain attack",
	"extortion", "backdoor", "backdoored", "stolen credentials", "source code stolen",
}

func kevSeverity(e KEVEntry) string {
	if strings.EqualFold(strings.TrimSpace(e.KnownRansomwareCampaignUse), "known") {
		return "critical"
	}
	return "high"
}

func breachSeverity(b Breach) string {
	for _, c := range b.DataClasses {
		if slices.Contains(sensitiveDataClasses, strings.ToLower(strings.TrimSpace(c))) {
			return "high"
		}
	}
	return "medium"
}

// newsSeverity rates a story from its folded title and summary.
func newsSeverity(folded string) string {
	if firstPhrase(folded, highNewsTerms) != "" {
		return "high"
	}
	return "medium"
}

// higherSeverity returns the more severe of two incident severities.
func higherSeverity(a, b string) string {
	order := vendors.IncidentSeverityValues() // most severe first
	ia, ib := slices.Index(order, a), slices.Index(order, b)
	if ia < 0 || (ib >= 0 && ib < ia) {
		return b
	}
	return a
}
