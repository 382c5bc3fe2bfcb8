package enrich

import (
	"context"

	"github.com/vetted-dev/vetted/core/vendors"
)

// WebsiteFinder is a Discoverer as the core's vendors.WebsiteFinder: one
// discovery per vendor name with the same preferences for every vendor
// (the directory is global, so no one account's country domains apply).
type WebsiteFinder struct {
	D     *Discoverer
	Prefs DiscoverPrefs
}

var _ vendors.WebsiteFinder = WebsiteFinder{}

// FindWebsite discovers the website of the vendor called name and returns
// the evidence in the core's words.
func (f WebsiteFinder) FindWebsite(ctx context.Context, name vendors.Name) (vendors.WebsiteDiscovery, error) {
	d, err := f.D.Discover(ctx, name.String(), f.Prefs)
	if err != nil {
		return vendors.WebsiteDiscovery{}, err
	}
	out := vendors.WebsiteDiscovery{Website: d.Website, Domain: d.Domain, Confidence: d.Confidence, Threshold: d.Threshold,
		MatchText: d.Match.Text, MatchSource: string(d.Match.Source), Elapsed: d.Elapsed,
		Candidates: make([]vendors.WebsiteCandidate, 0, len(d.Candidates))}
	for _, c := range d.Candidates {
		out.Candidates = append(out.Candidates, vendors.WebsiteCandidate{Domain: c.Domain, URL: c.URL, Verdict: string(c.Verdict),
			Reason: c.Reason, Confidence: c.Confidence, MatchText: c.Match.Text, MatchSource: string(c.Match.Source), Chosen: c.Chosen})
	}
	return out, nil
}
