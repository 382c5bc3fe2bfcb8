package incidents

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/core/vendors"
)

// MergeWindow is how close in time two items with the same folded title
// must be published to be one event. Items sharing a link or a CVE id are
// one event whenever they were published.
const MergeWindow = 72 * time.Hour

// The prefixes of an incident's keys (vendors.Incident.Keys).
const (
	keyURL    = "url:"
	keyCVE    = "cve:"
	keyTitle  = "title:"
	keySource = "source:"
)

// mergeKeys are the keys of an item: its link (normalized by
// normalizeURL), its CVE ids and its title folded for case, punctuation
// and spaces; empty parts give no key.
func mergeKeys(link, title string, cves []string) []string {
	var keys []string
	if u := normalizeURL(link); u != "" {
		keys = append(keys, keyURL+u)
	}
	for _, id := range cves {
		keys = append(keys, keyCVE+strings.ToUpper(id))
	}
	if t := FoldText(title); t != "" {
		keys = append(keys, keyTitle+t)
	}
	return keys
}

// normalizeURL makes the links of one page equal: scheme and host lower
// case, no fragment, no utm_ tracking parameters, no trailing slash.
func normalizeURL(raw string) string {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	u.Scheme, u.Host, u.Fragment, u.RawFragment = strings.ToLower(u.Scheme), strings.ToLower(u.Host), "", ""
	if u.Scheme == "http" {
		u.Scheme = "https" // one page served both ways is one page
	}
	q := u.Query()
	for k := range q {
		if strings.HasPrefix(strings.ToLower(k), "utm_") {
			q.Del(k)
		}
	}
	u.RawQuery = q.Encode()
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String()
}

// sameEvent reports whether an item with keys, published at, is the event
// of incident in: they share a link or a CVE id, or their titles are equal
// after folding and they were published within MergeWindow of each other.
func sameEvent(in vendors.Incident, keys []string, at time.Time) bool {
	for _, k := range keys {
		if !slices.Contains(in.Keys, k) {
			continue
		}
		if !strings.HasPrefix(k, keyTitle) {
			return true
		}
		if d := in.PublishedAt.Sub(at); d <= MergeWindow && d >= -MergeWindow {
			return true
		}
	}
	return false
}

// absorb merges an item into the incident of its event: the item's source
// entry is added unless the incident lists that source and link already,
// the keys are joined, the severity is the higher, a KEV item's product
// becomes the affected service, and the impacted data are joined. It
// reports whether in changed.
func absorb(in *vendors.Incident, it item, m VendorMatch) bool {
	before := len(in.Sources) + len(in.Keys) + len(in.PotentiallyImpactedData)
	oldSeverity, oldService := in.Severity, in.AffectedService
	entry := vendors.IncidentItem{Source: string(it.source), URL: it.draft.URL, PublishedAt: it.draft.PublishedAt}
	if !slices.ContainsFunc(in.Sources, func(e vendors.IncidentItem) bool { return e.Source == entry.Source && e.URL == entry.URL }) {
		in.Sources = append(in.Sources, entry)
	}
	in.Keys = union(in.Keys, append(slices.Clone(it.keys), keySource+string(it.source)))
	in.PotentiallyImpactedData = union(in.PotentiallyImpactedData, it.draft.PotentiallyImpactedData)
	in.Severity = higherSeverity(in.Severity, it.draft.Severity)
	if it.source == SourceKEV && m.AffectedService != "" {
		in.AffectedService = m.AffectedService
	}
	after := len(in.Sources) + len(in.Keys) + len(in.PotentiallyImpactedData)
	return after != before || in.Severity != oldSeverity || in.AffectedService != oldService
}

// union appends to a the elements of b it does not hold.
func union(a, b []string) []string {
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	return a
}
