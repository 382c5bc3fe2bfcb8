package app

import (
	"net/url"
	"slices"
	"strings"

	"github.com/vetted-dev/vetted/core/incidents"
)

// The public addresses the platform-wide incident sources read by default
// on PostgreSQL (a production deployment): CISA's Known Exploited
// Vulnerabilities catalog, Have I Been Pwned's public breach list (no key
// needed), EDGAR's Atom feed of current 8-K filings, and a few security
// news feeds.
const (
	DefaultKEVURL        = "https://www.cisa.gov/sites/default/files/feeds/known_exploited_vulnerabilities.json"
	DefaultBreachesURL   = "https://haveibeenpwned.com/api/v3/breaches"
	DefaultSECFilingsURL = "https://www.sec.gov/cgi-bin/browse-edgar?action=getcurrent&type=8-K&output=atom"
)

// DefaultNewsFeeds are VETTED_NEWS_FEEDS' production default.
var DefaultNewsFeeds = []string{
	"https://www.bleepingcomputer.com/feed/",
	"https://feeds.feedburner.com/TheHackersNews",
	"https://krebsonsecurity.com/feed/",
}

// SourcesOff is the value that turns one incident source off.
const SourcesOff = "off"

// incidentSource is one variable of the platform-wide incident sources.
type incidentSource struct {
	env  string
	kind incidents.Source
	// defaults are the production default's URLs.
	defaults []string
	// list: a comma-separated list of URLs, not one.
	list bool
}

var incidentSourceVars = []incidentSource{
	{env: "VETTED_NEWS_FEEDS", kind: incidents.SourceNews, defaults: DefaultNewsFeeds, list: true},
	{env: "VETTED_KEV_URL", kind: incidents.SourceKEV, defaults: []string{DefaultKEVURL}},
	{env: "VETTED_BREACHES_URL", kind: incidents.SourceBreach, defaults: []string{DefaultBreachesURL}},
	{env: "VETTED_SEC_FILINGS_URL", kind: incidents.SourceFiling, defaults: []string{DefaultSECFilingsURL}},
}

// incidentSources reads the four variables of the platform-wide incident
// sources into their endpoints, in the order news, kev, breach, filing.
// Unset (or blank) is the default: the public addresses in production
// (embedded false), off on the embedded default (SQLite or memory) until
// set. "off" turns one off. Every other value must be an http or https URL
// with a host (a list of them, comma-separated, for the news feeds; a
// feed named twice is read once); anything else is an error naming the
// variable.
func (e *envReader) incidentSources(embedded bool) []incidents.Endpoint {
	out := []incidents.Endpoint{}
	for _, s := range incidentSourceVars {
		for _, u := range e.sourceURLs(s, embedded) {
			ep := incidents.Endpoint{Kind: s.kind, URL: u}
			if !slices.Contains(out, ep) {
				out = append(out, ep)
			}
		}
	}
	return out
}

// sourceURLs are the URLs one variable configures.
func (e *envReader) sourceURLs(s incidentSource, embedded bool) []string {
	v := e.raw(s.env)
	switch {
	case strings.EqualFold(v, SourcesOff):
		return nil
	case v == "" && embedded:
		return nil
	case v == "":
		return s.defaults
	}
	raw := []string{v}
	if s.list {
		raw = strings.Split(v, ",")
	}
	var out []string
	for _, r := range raw {
		r = strings.TrimSpace(r)
		switch {
		case r == "":
			continue
		case strings.EqualFold(r, SourcesOff):
			e.fail(s.env, redact(v), "off turns the feeds off and stands alone, not among URLs")
			return nil
		}
		u, err := url.Parse(r)
		switch {
		case err != nil:
			e.fail(s.env, redact(r), "not a URL")
		case u.Scheme != "http" && u.Scheme != "https":
			e.fail(s.env, redact(r), "must be an http or https URL, or off")
		case u.Hostname() == "":
			e.fail(s.env, redact(r), "URL has no host")
		default:
			out = append(out, r)
		}
	}
	return out
}

// DescribeIncidentSources names the platform-wide incident sources cfg
// polls, for check-config: each kind with its URLs, or "off".
func (c Config) DescribeIncidentSources() string {
	var parts []string
	for _, s := range incidentSourceVars {
		var urls []string
		for _, ep := range c.IncidentSources {
			if ep.Kind == s.kind {
				urls = append(urls, redact(ep.URL))
			}
		}
		if len(urls) > 0 {
			parts = append(parts, string(s.kind)+" "+strings.Join(urls, ", "))
		}
	}
	if len(parts) == 0 {
		return "off (set VETTED_NEWS_FEEDS, VETTED_KEV_URL, VETTED_BREACHES_URL, VETTED_SEC_FILINGS_URL)"
	}
	return strings.Join(parts, "; ")
}
