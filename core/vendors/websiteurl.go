package vendors

import (
	"slices"
	"time"
)

// WebsiteSource is where a vendor's website came from.
type WebsiteSource string

// Website sources.
const (
	// WebsiteGiven: a user or an admin gave it (save-vendors, an import,
	// a PATCH). A given website always wins: discovery never replaces it.
	WebsiteGiven WebsiteSource = "given"
	// WebsiteDiscovered: website discovery chose it from the vendor's name.
	WebsiteDiscovered WebsiteSource = "discovered"
)

// WebsiteSourceValues lists the website sources.
func WebsiteSourceValues() []string { return []string{string(WebsiteGiven), string(WebsiteDiscovered)} }

// StatusNeedsWebsite is the state of the web sections (basic, security,
// privacy, logo) of a vendor known by name only whose website discovery
// found no candidate above its threshold: nothing failed, a person has to
// give the website. It is also the vendor's enrichment status on its lists.
const StatusNeedsWebsite = "needs_website"

// SectionStatusValues lists the states a profile section can have: a job's
// states (RunJobStatusValues) and needs_website.
func SectionStatusValues() []string {
	return []string{"queued", "running", "done", "failed", "skipped", StatusNeedsWebsite}
}

// WebSections are the sections read from the vendor's website: without a
// website they cannot run.
func WebSections() []Section {
	return []Section{SectionBasic, SectionSecurity, SectionPrivacy, SectionLogo}
}

// IsWebSection reports whether sec is read from the vendor's website.
func IsWebSection(sec Section) bool { return slices.Contains(WebSections(), sec) }

// WebsiteCandidate is one domain website discovery tried.
type WebsiteCandidate struct {
	Domain string
	// URL is the page read after redirects ("" when none was).
	URL string
	// Verdict and Reason say why it was kept or refused ("kept",
	// "parked", "name_mismatch", ...: the discoverer's words).
	Verdict    string
	Reason     string
	Confidence float64
	// MatchText and MatchSource are the name on its page that came closest
	// and where it was ("title", "og:site_name", ...).
	MatchText   string
	MatchSource string
	Chosen      bool
}

// WebsiteDiscovery is the evidence of one vendor's website discovery.
type WebsiteDiscovery struct {
	// Website is the chosen site ("" when no candidate reached Threshold)
	// and Domain its registrable domain.
	Website, Domain string
	Confidence      float64
	Threshold       float64
	// MatchText and MatchSource are the name the chosen site's page gave
	// and where.
	MatchText   string
	MatchSource string
	Candidates  []WebsiteCandidate
	Elapsed     time.Duration
	At          time.Time
}

// Found reports whether a website was chosen.
func (d WebsiteDiscovery) Found() bool { return d.Website != "" }

// Clone is a deep copy.
func (d *WebsiteDiscovery) Clone() *WebsiteDiscovery {
	if d == nil {
		return nil
	}
	c := *d
	c.Candidates = slices.Clone(d.Candidates)
	return &c
}

// NeedsDiscovery reports whether the website of vendor v (with its
// profile p, nil when none) is to be discovered before enrichment: it has
// a name and no website, given or discovered.
func NeedsDiscovery(v Vendor, p *Profile) bool {
	if v.WebsiteURL != "" || v.Domain != "" {
		return false
	}
	return p == nil || p.Company.WebsiteURL == ""
}
