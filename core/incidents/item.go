package incidents

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/core/vendors"
)

// item is one entry of a source made ready to become an incident: the
// incident it would be (without vendor, evidence or id) and the keys that
// merge it with the same event from other sources (mergeKeys).
type item struct {
	source Source
	draft  vendors.Incident
	keys   []string
}

// The incident types of the platform-wide sources.
const (
	TypeSecurityNews        = "security_news"
	TypeExploitedVuln       = "exploited_vulnerability"
	TypeDataBreach          = "data_breach"
	TypeMaterialCyberFiling = "material_cybersecurity_incident"
)

// cveID finds CVE ids in text.
var cveID = regexp.MustCompile(`(?i)\bCVE-\d{4}-\d{4,7}\b`)

// cvesIn returns the distinct CVE ids of texts, upper case, in order.
func cvesIn(texts ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range texts {
		for _, id := range cveID.FindAllString(t, -1) {
			id = strings.ToUpper(id)
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// published is t, or now when the source gave no time (an item without a
// date is news now), in UTC at the store's precision.
func published(t, now time.Time) time.Time {
	if t.IsZero() {
		t = now
	}
	return t.UTC().Truncate(time.Microsecond)
}

// parseDate reads the dates of the JSON sources: "2006-01-02" (KEV's
// dateAdded) or RFC 3339 (HIBP's AddedDate); zero when neither.
func parseDate(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// newsItem is a news story as an item.
func newsItem(n NewsItem, now time.Time) item {
	title := strings.TrimSpace(n.Title)
	ext := strings.TrimSpace(n.URL)
	if ext == "" {
		ext = "title:" + digest(FoldText(title))
	}
	d := vendors.Incident{Title: title, Summary: strings.TrimSpace(n.Summary), IncidentType: TypeSecurityNews,
		Severity: newsSeverity(FoldText(n.Title + " \n " + n.Summary)), URL: strings.TrimSpace(n.URL), Source: string(SourceNews),
		ExternalID: ext, PublishedAt: published(n.Published, now)}
	return item{source: SourceNews, draft: d, keys: mergeKeys(d.URL, d.Title, cvesIn(n.Title, n.Summary))}
}

// kevItem is a KEV entry as an item: its link is the CVE's NVD page.
func kevItem(e KEVEntry, now time.Time) item {
	id := strings.ToUpper(strings.TrimSpace(e.CVEID))
	title := strings.TrimSpace(e.VulnerabilityName)
	if title == "" {
		title = strings.TrimSpace(e.VendorProject + " " + e.Product + " vulnerability")
	}
	if id != "" {
		title = id + ": " + title
	}
	link := ""
	if id != "" {
		link = "https://nvd.nist.gov/vuln/detail/" + url.PathEscape(id)
	}
	d := vendors.Incident{Title: title, Summary: strings.TrimSpace(e.ShortDescription), IncidentType: TypeExploitedVuln,
		AffectedService: strings.TrimSpace(e.Product), Severity: kevSeverity(e), URL: link, Source: string(SourceKEV),
		ExternalID: id, PublishedAt: published(parseDate(e.DateAdded), now)}
	var cves []string
	if id != "" {
		cves = []string{id}
	}
	// The title of a KEV entry is CISA's, never a news headline: it merges
	// by CVE only.
	return item{source: SourceKEV, draft: d, keys: mergeKeys(d.URL, "", cves)}
}

// breachItem is a breach-list entry as an item: the data classes are the
// potentially impacted data, the link the entry on Have I Been Pwned.
func breachItem(b Breach, now time.Time) item {
	title := strings.TrimSpace(b.Title)
	if title == "" {
		title = strings.TrimSpace(b.Name)
	}
	at := parseDate(b.AddedDate)
	if at.IsZero() {
		at = parseDate(b.BreachDate)
	}
	d := vendors.Incident{Title: title + " data breach", Summary: strings.TrimSpace(b.Description), IncidentType: TypeDataBreach,
		PotentiallyImpactedData: append([]string{}, b.DataClasses...), Severity: breachSeverity(b),
		URL: "https://haveibeenpwned.com/Breach/" + url.PathEscape(strings.TrimSpace(b.Name)), Source: string(SourceBreach),
		ExternalID: strings.TrimSpace(b.Name), PublishedAt: published(at, now)}
	return item{source: SourceBreach, draft: d, keys: mergeKeys(d.URL, "", nil)}
}

// filingItem is an 8-K filing as an item.
func filingItem(f Filing, now time.Time) item {
	name := strings.TrimSpace(f.FilerName)
	d := vendors.Incident{Title: name + " reports a material cybersecurity incident (8-K item 1.05)", IncidentType: TypeMaterialCyberFiling,
		Severity: "high", URL: strings.TrimSpace(f.URL), Source: string(SourceFiling), ExternalID: strings.TrimSpace(f.URL),
		PublishedAt: published(f.Filed, now)}
	if d.ExternalID == "" {
		d.ExternalID = "filer:" + digest(FoldName(name)+" "+d.PublishedAt.Format(time.DateOnly))
	}
	return item{source: SourceFiling, draft: d, keys: mergeKeys(d.URL, "", nil)}
}

// digest is a short stable id of s.
func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:12])
}
