package incidents

import (
	"slices"
	"testing"
	"time"
)

func TestItems(t *testing.T) {
	n := newsItem(NewsItem{Title: " Hackers exploit CVE-2025-0282 and cve-2025-22457 ", URL: "https://a.test/1"}, fixedNow)
	if n.draft.PublishedAt != fixedNow || n.draft.ExternalID != "https://a.test/1" || n.draft.Source != "news" ||
		!slices.Contains(n.keys, "cve:CVE-2025-0282") || !slices.Contains(n.keys, "cve:CVE-2025-22457") {
		t.Fatalf("news item = %+v", n)
	}
	if nl := newsItem(NewsItem{Title: "No link"}, fixedNow); nl.draft.ExternalID == "" || nl.draft.URL != "" {
		t.Fatalf("a story without a link: %+v", nl.draft)
	}
	k := kevItem(KEVEntry{CVEID: "cve-2025-0282", VendorProject: "Ivanti", Product: "Connect Secure",
		VulnerabilityName: "Stack overflow", DateAdded: "2025-01-08"}, fixedNow)
	if k.draft.Title != "CVE-2025-0282: Stack overflow" || k.draft.ExternalID != "CVE-2025-0282" ||
		k.draft.URL != "https://nvd.nist.gov/vuln/detail/CVE-2025-0282" || !k.draft.PublishedAt.Equal(time.Date(2025, 1, 8, 0, 0, 0, 0, time.UTC)) ||
		slices.ContainsFunc(k.keys, func(s string) bool { return s[:6] == "title:" }) {
		t.Fatalf("kev item = %+v", k)
	}
	b := breachItem(Breach{Name: "Acme", Title: "Acme", AddedDate: "2026-03-01T10:00:00Z", BreachDate: "2026-01-01", DataClasses: []string{"Passwords"}}, fixedNow)
	if b.draft.Title != "Acme data breach" || !b.draft.PublishedAt.Equal(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)) ||
		!slices.Equal(b.draft.PotentiallyImpactedData, []string{"Passwords"}) || b.draft.ExternalID != "Acme" {
		t.Fatalf("breach item = %+v", b)
	}
	f := filingItem(Filing{FilerName: "Clorox Co /DE/"}, fixedNow)
	if f.draft.ExternalID == "" || f.draft.Severity != "high" || f.draft.IncidentType != TypeMaterialCyberFiling {
		t.Fatalf("filing item = %+v", f)
	}
}
