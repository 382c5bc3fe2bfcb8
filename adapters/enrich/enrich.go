// Package enrich fills vendor profiles from public sources and holds the
// SSRF-safe Fetcher every outbound fetch of the service goes through.
//
// Sections and where they come from:
//   - basic: the vendor's home page: <title>, meta description, OpenGraph
//     (og:site_name, og:description) and JSON-LD Organization (name,
//     alternateName/legalName as aliases, legalName as the legal name
//     (else the certificate's organization when it begins with the
//     vendor's name), description, foundingDate,
//     numberOfEmployees, address, email). Links on the page to the privacy
//     policy, terms, security, trust-center and status pages fill the
//     matching URL fields. sameAs has no profile field; its URLs only take
//     part in that link discovery.
//   - logo: JSON-LD logo, og:image, apple-touch-icon, <link rel=icon>, and
//     finally /favicon.ico if it answers 200.
//   - security: the outside-in scan (scan.go): ports 80 and 443 of the
//     addresses DNS gives for the web host (HTTPS, redirect, certificate,
//     TLS versions, security headers, security.txt, the home page's policy
//     links) and the DNS records of the domain (SPF, DMARC, MX and MTA-STS,
//     CAA, the AD bit), asked through github.com/miekg/dns. Every instance
//     is a code of the catalog in core/vendors with its evidence; a check
//     that could not run is recorded as `<check>_not_checked`. The result
//     replaces the vendor's security instances (EnrichResult.Instances).
//   - privacy: the privacy policy page, read with simple keyword
//     heuristics (see privacy.go): they only ever set a field to true or
//     add to a list, because not finding a phrase proves nothing.
//   - scores: not here. The core rates the security instances
//     (vendors.Rate) after every scan; the enricher is never asked for it.
//   - additional, maturity: no public source here; marked skipped.
//
// Website discovery (discover.go, Discoverer) finds the site of a vendor
// known by name only: it tries the domains the name most likely has
// through the scanner's resolver and fetch policy, refuses parked,
// for-sale, default and redirected ones, and keeps the one whose page
// names the vendor, with every candidate's verdict as evidence.
//
// Every requested section gets a status (done, failed or skipped) with its
// source URL and error; sections not requested are left untouched. A fetch
// the safety policy refuses is recorded as failed with "refused: why".
package enrich

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
)

// Config configures an Enricher. Every field is optional.
type Config struct {
	// Fetcher makes the HTTP requests of the content sections (basic,
	// logo, privacy); NewFetcher(FetcherConfig{}) when nil.
	Fetcher *Fetcher
	// Scanner runs the security section; NewScanner(ScanConfig{}) when nil.
	Scanner *Scanner
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// IDs makes instance ids; ports.UUIDv7 when nil.
	IDs ports.IDs
}

// Enricher implements vendors.Enricher from the vendor's public web site and
// DNS.
type Enricher struct {
	fetch   *Fetcher
	scanner *Scanner
	now     func() time.Time
	ids     ports.IDs
}

var _ vendors.Enricher = (*Enricher)(nil)

// New builds an Enricher.
func New(cfg Config) *Enricher {
	e := &Enricher{fetch: cfg.Fetcher, scanner: cfg.Scanner, now: cfg.Now, ids: cfg.IDs}
	if e.fetch == nil {
		e.fetch = NewFetcher(FetcherConfig{})
	}
	if e.scanner == nil {
		e.scanner = NewScanner(ScanConfig{})
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.ids == nil {
		e.ids = ports.UUIDv7{}
	}
	return e
}

// outcome is the result of one section.
type outcome struct {
	status string // done, failed, skipped
	source string
	err    string
}

func done(source string) outcome { return outcome{status: "done", source: source} }

func failed(source string, err error) outcome {
	return outcome{status: "failed", source: source, err: err.Error()}
}

func skipped(why string) outcome { return outcome{status: "skipped", err: why} }

// run is one Enrich call.
type run struct {
	e    *Enricher
	v    vendors.Vendor
	prof vendors.Profile
	site *url.URL // nil: no website known
	now  time.Time

	instances []vendors.SecurityInstance

	homeOnce sync.Once
	homePage *Page
	homeMeta meta
	homeErr  error
}

// errNoWebsite is the failure of every web section for a vendor with
// neither a website nor a domain.
var errNoWebsite = errors.New("no website known")

// Enrich runs the requested sections in pipeline order. It returns an
// error only when ctx ends before it could record anything.
func (e *Enricher) Enrich(ctx context.Context, v vendors.Vendor, current vendors.Profile, sections []vendors.Section) (vendors.EnrichResult, error) {
	if err := ctx.Err(); err != nil {
		return vendors.EnrichResult{}, err
	}
	r := &run{e: e, v: v, prof: clone(current), now: e.now().UTC()}
	r.site = website(v)
	order := vendors.SectionValues()
	secs := slices.Clone(sections)
	slices.SortStableFunc(secs, func(a, b vendors.Section) int {
		return slices.Index(order, string(a)) - slices.Index(order, string(b))
	})
	secs = slices.Compact(secs)
	for _, s := range secs {
		var o outcome
		switch s {
		case vendors.SectionBasic:
			o = r.basic(ctx)
		case vendors.SectionLogo:
			o = r.logo(ctx)
		case vendors.SectionSecurity:
			o = r.security(ctx)
		case vendors.SectionPrivacy:
			o = r.privacy(ctx)
		case vendors.SectionScores:
			continue // the core's (see the package comment)
		case vendors.SectionAdditional, vendors.SectionMaturity:
			o = skipped("no public source is configured for this section")
		default:
			o = skipped("unknown section")
		}
		r.prof.Enrichment[s] = vendors.SectionStatus{Status: o.status, UpdatedAt: r.now, Source: o.source, Error: o.err}
	}
	return vendors.EnrichResult{Profile: r.prof, Instances: r.instances}, nil
}

// clone copies the parts of p the run writes to, so the caller's profile
// is never changed through shared maps or slices.
func clone(p vendors.Profile) vendors.Profile {
	out := p
	out.Enrichment = make(map[vendors.Section]vendors.SectionStatus, len(p.Enrichment)+7)
	for k, v := range p.Enrichment {
		out.Enrichment[k] = v
	}
	out.Company.Alias = slices.Clone(p.Company.Alias)
	out.Privacy.DataCollected = slices.Clone(p.Privacy.DataCollected)
	out.Scores.RiskCategories = slices.Clone(p.Scores.RiskCategories)
	return out
}

// website is the vendor's site: its website_url, else https://<domain>.
func website(v vendors.Vendor) *url.URL {
	raw := v.WebsiteURL
	if raw == "" && v.Domain != "" {
		raw = "https://" + v.Domain + "/"
	}
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil
	}
	return u
}

// home fetches and parses the home page once per run.
func (r *run) home(ctx context.Context) (*Page, meta, error) {
	r.homeOnce.Do(func() {
		if r.site == nil {
			r.homeErr = errNoWebsite
			return
		}
		r.homePage, r.homeErr = r.getOK(ctx, r.site.String())
		if r.homeErr == nil {
			r.homeMeta = parseHTML(r.homePage.Body, r.homePage.URL)
		}
	})
	return r.homePage, r.homeMeta, r.homeErr
}

// getOK fetches rawURL and wants a 2xx answer.
func (r *run) getOK(ctx context.Context, rawURL string) (*Page, error) {
	p, err := r.e.fetch.Get(ctx, rawURL)
	if err != nil {
		if errors.Is(err, ErrRefused) {
			return nil, err
		}
		return nil, fmt.Errorf("fetch %s: %w", rawURL, err)
	}
	if p.Status < 200 || p.Status > 299 {
		return nil, fmt.Errorf("fetch %s: HTTP %d", rawURL, p.Status)
	}
	return p, nil
}

func (r *run) siteString() string {
	if r.site == nil {
		return ""
	}
	return r.site.String()
}

func (r *run) basic(ctx context.Context) outcome {
	page, m, err := r.home(ctx)
	if err != nil {
		return failed(r.siteString(), err)
	}
	c := &r.prof.Company
	c.WebsiteURL = r.siteString()
	var o org
	if len(m.Orgs) > 0 {
		o = m.Orgs[0]
	}
	if d := cmp.Or(o.Description, m.OGDescription, m.Description); d != "" {
		c.CompanyDescription = d
	}
	if o.FoundedYear != nil {
		c.FoundedYear = o.FoundedYear
	}
	if o.Employees != nil {
		c.EmployeeCount = o.Employees
	}
	if o.Address != "" {
		c.HeadquartersLocation = o.Address
	}
	if o.Email != "" {
		c.ContactEmail = o.Email
	}
	for _, n := range append([]string{o.Name, m.OGSiteName}, o.AltNames...) {
		c.Alias = addAlias(c.Alias, r.v.Name, n)
	}
	// A legal name found replaces the one known; none found keeps it.
	setIf(&c.LegalName, legalName(r.v, o, page))
	l := findLinks(m.Links, o.SameAs)
	setIf(&r.prof.Privacy.PrivacyPolicyURL, l.privacy)
	setIf(&c.TosURL, l.terms)
	setIf(&r.prof.Security.SecurityPageURL, l.security)
	setIf(&r.prof.Security.TrustCenterURL, l.trust)
	setIf(&r.prof.Security.StatusPageURL, l.status)
	return done(page.URL.String())
}

func setIf(dst *string, v string) {
	if v != "" {
		*dst = v
	}
}

// addAlias adds name unless it is empty, the vendor's own name or known.
func addAlias(aliases []string, own vendors.Name, name string) []string {
	n, err := vendors.ParseName(name)
	if err != nil || n.Key() == own.Key() {
		return aliases
	}
	for _, a := range aliases {
		if strings.EqualFold(a, n.String()) {
			return aliases
		}
	}
	return append(aliases, n.String())
}

// links are the policy and trust pages a home page points to.
type links struct{ privacy, terms, security, trust, status string }

// findLinks classifies anchors by host, path and text. A link fills at
// most one kind, checked from the most specific (status, trust) down.
func findLinks(as []link, sameAs []string) links {
	var l links
	for _, s := range sameAs {
		as = append(as, link{Href: s})
	}
	for _, a := range as {
		u, err := url.Parse(a.Href)
		if err != nil {
			continue
		}
		host, path, text := strings.ToLower(u.Hostname()), strings.ToLower(strings.TrimSuffix(u.Path, "/")), a.Text
		switch {
		case strings.HasPrefix(host, "status.") || path == "/status" || text == "status" || strings.Contains(text, "system status"):
			fill(&l.status, a.Href)
		case strings.HasPrefix(host, "trust.") || strings.Contains(path, "/trust") || strings.Contains(text, "trust center") || strings.Contains(text, "trust centre"):
			fill(&l.trust, a.Href)
		case strings.Contains(path, "privacy") || strings.Contains(text, "privacy"):
			if !strings.Contains(text, "cookie") {
				fill(&l.privacy, a.Href)
			}
		case strings.Contains(path, "/terms") || strings.HasSuffix(path, "/tos") || strings.Contains(text, "terms of service") ||
			strings.Contains(text, "terms of use") || strings.Contains(text, "terms and conditions") || strings.Contains(text, "terms & conditions") || text == "terms":
			fill(&l.terms, a.Href)
		case (path == "/security" || strings.HasSuffix(path, "/security")) || text == "security":
			fill(&l.security, a.Href)
		}
	}
	return l
}

func fill(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

func (r *run) logo(ctx context.Context) outcome {
	page, m, err := r.home(ctx)
	if err != nil {
		return failed(r.siteString(), err)
	}
	var candidates []string
	for _, o := range m.Orgs {
		candidates = append(candidates, o.Logo)
	}
	candidates = append(candidates, m.OGImage)
	for _, rel := range []string{"apple-touch-icon", "icon"} {
		for _, ic := range m.Icons {
			if strings.Contains(ic.Rel, rel) {
				candidates = append(candidates, ic.Href)
			}
		}
	}
	if u := cmp.Or(candidates...); u != "" {
		r.prof.Company.Logo = u
		return done(page.URL.String())
	}
	fav := (&url.URL{Scheme: page.URL.Scheme, Host: page.URL.Host, Path: "/favicon.ico"}).String()
	if _, err := r.getOK(ctx, fav); err != nil {
		return failed(fav, fmt.Errorf("no logo on the page and no favicon: %w", err))
	}
	r.prof.Company.Logo = fav
	return done(fav)
}
