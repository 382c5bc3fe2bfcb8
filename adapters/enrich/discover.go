package enrich

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"
	"golang.org/x/net/publicsuffix"
)

// Website discovery finds the web site of a vendor known by name only,
// without a model or a search engine: it guesses the domains the name
// would most likely have, and keeps one only when that domain exists,
// answers over HTTPS with a valid certificate, is not parked, for sale, a
// server's default page or a redirect elsewhere, and its page names the
// vendor. Every candidate tried is kept with its verdict and the reason,
// so the choice can be shown and checked.

// Discovery defaults.
const (
	DefaultDiscoverCandidates = 24
	DefaultDiscoverBudget     = 10 * time.Second
	DefaultCandidateTimeout   = 5 * time.Second
	DefaultDiscoverPerVendor  = 4
	DefaultDiscoverThreshold  = 0.7
	DefaultDiscoverStopAt     = 0.9
	// discoverMaxBytes bounds a candidate's page: what names a site is in
	// its <head> and first screens.
	discoverMaxBytes = 512 << 10
	// discoverMaxRedirects bounds the redirects followed from a candidate.
	discoverMaxRedirects = 5
)

// DiscoverConfig configures a Discoverer. Every field is optional.
type DiscoverConfig struct {
	// Scanner lends its DNS client, its address policy (AllowPrivate and
	// the allowed addresses and ports), its trusted roots and its
	// concurrency limit: each candidate being checked holds one of the
	// slots a scan holds, so discoveries and scans together stay within
	// ScanConfig.Concurrency. NewScanner(ScanConfig{}) when nil.
	Scanner *Scanner
	// MaxCandidates is how many domains are tried for one vendor, most
	// likely first; DefaultDiscoverCandidates when zero.
	MaxCandidates int
	// Budget bounds the discovery of one vendor, waits for the shared
	// limit included; DefaultDiscoverBudget when zero.
	Budget time.Duration
	// CandidateTimeout bounds the check of one candidate;
	// DefaultCandidateTimeout when zero.
	CandidateTimeout time.Duration
	// PerVendor is how many candidates of one vendor are checked at once;
	// DefaultDiscoverPerVendor when zero.
	PerVendor int
	// Threshold is the confidence a candidate needs to be kept;
	// DefaultDiscoverThreshold when zero.
	Threshold float64
	// StopAt is the confidence at which a kept candidate ends the search
	// once every more likely candidate has been checked;
	// DefaultDiscoverStopAt when zero.
	StopAt float64
	// Now is the clock certificates are verified with; time.Now when nil.
	Now func() time.Time
}

// DiscoverPrefs are an account's preferences for one discovery.
type DiscoverPrefs struct {
	// CountryTLDs are tried after .com and before the other generic
	// top-level domains, in order ("de", "co.uk"; a leading dot is
	// ignored).
	CountryTLDs []string
}

// CandidateVerdict is what the check of one candidate concluded.
type CandidateVerdict string

// Candidate verdicts.
const (
	// VerdictKept: the site names the vendor with at least the threshold's
	// confidence.
	VerdictKept CandidateVerdict = "kept"
	// VerdictUnresolvable: the name does not exist, has no address, or DNS
	// could not answer for it.
	VerdictUnresolvable CandidateVerdict = "unresolvable"
	// VerdictNoHTTPS: nothing answers HTTPS with a valid certificate, or a
	// redirect leads to plain http.
	VerdictNoHTTPS CandidateVerdict = "no_https"
	// VerdictRefused: the fetch policy refused the address (a private or
	// loopback address without AllowPrivate).
	VerdictRefused CandidateVerdict = "refused"
	// VerdictHTTPError: the home page answered an error status or too many
	// redirects.
	VerdictHTTPError CandidateVerdict = "http_error"
	// VerdictParked: parking name servers or a parking page.
	VerdictParked CandidateVerdict = "parked"
	// VerdictForSale: a page offering the domain for sale.
	VerdictForSale CandidateVerdict = "for_sale"
	// VerdictUnrelatedRedirect: a redirect to another registrable domain
	// that is not one of the vendor's candidates.
	VerdictUnrelatedRedirect CandidateVerdict = "unrelated_redirect"
	// VerdictGenericPage: a web server's or hosting panel's default page,
	// or a placeholder that names no one.
	VerdictGenericPage CandidateVerdict = "generic_page"
	// VerdictNameMismatch: the page names someone else, a longer or
	// shorter name, a look-alike, or no one.
	VerdictNameMismatch CandidateVerdict = "name_mismatch"
	// VerdictTimeout: no answer within the candidate's timeout or the
	// vendor's budget.
	VerdictTimeout CandidateVerdict = "timeout"
	// VerdictSkipped: not checked, or its check was stopped, because a more
	// likely candidate had already been kept with StopAt confidence.
	VerdictSkipped CandidateVerdict = "skipped"
)

// MatchSource is where a page named the vendor.
type MatchSource string

// Match sources.
const (
	MatchTitle       MatchSource = "title"
	MatchSiteName    MatchSource = "og:site_name"
	MatchJSONLD      MatchSource = "json-ld organization"
	MatchCertificate MatchSource = "certificate organization"
)

// NameMatch is a name a page gave and where.
type NameMatch struct {
	Source MatchSource
	Text   string
}

// Candidate is one domain tried and what its check concluded.
type Candidate struct {
	// Domain is the name tried ("getacme.io").
	Domain string
	// URL is the page read, after redirects; "" when none was.
	URL string
	// Verdict and Reason say why the candidate was kept or refused.
	Verdict CandidateVerdict
	Reason  string
	// Confidence is how surely the page names the vendor, in [0, 1]; 0
	// when no page was read.
	Confidence float64
	// Match is the name on the page that came closest ("" when none).
	Match NameMatch
	// Chosen marks the candidate that became the website.
	Chosen bool
}

// Discovery is the outcome of one vendor's discovery.
type Discovery struct {
	// Website is the chosen site as https://host/ ("" when none was good
	// enough), and Domain its registrable domain.
	Website, Domain string
	// Confidence is the chosen candidate's, in [0, 1].
	Confidence float64
	// Match is the name its page gave and where.
	Match NameMatch
	// Threshold is the confidence a candidate needed.
	Threshold float64
	// Candidates are every domain considered, most likely first.
	Candidates []Candidate
	// Elapsed is how long the discovery took.
	Elapsed time.Duration
}

// Found reports whether a website was chosen.
func (d Discovery) Found() bool { return d.Website != "" }

// Discoverer finds vendors' websites (see Discover).
type Discoverer struct {
	dns       *DNS
	fetch     *Fetcher
	slots     chan struct{}
	max       int
	budget    time.Duration
	timeout   time.Duration
	perVendor int
	threshold float64
	stopAt    float64
}

// NewDiscoverer builds a Discoverer. Its fetcher is the scanner's policy
// with verified certificates: a site is only chosen if it proves its name.
func NewDiscoverer(cfg DiscoverConfig) *Discoverer {
	s := cfg.Scanner
	if s == nil {
		s = NewScanner(ScanConfig{})
	}
	d := &Discoverer{dns: s.dns, slots: s.slots,
		max:       cmp.Or(max(cfg.MaxCandidates, 0), DefaultDiscoverCandidates),
		budget:    cmp.Or(max(cfg.Budget, 0), DefaultDiscoverBudget),
		timeout:   cmp.Or(max(cfg.CandidateTimeout, 0), DefaultCandidateTimeout),
		perVendor: cmp.Or(max(cfg.PerVendor, 0), DefaultDiscoverPerVendor),
		threshold: cmp.Or(max(cfg.Threshold, 0), DefaultDiscoverThreshold),
		stopAt:    cmp.Or(max(cfg.StopAt, 0), DefaultDiscoverStopAt),
	}
	policy := s.fetch.cfg
	d.fetch = NewFetcher(FetcherConfig{
		Timeout:      d.timeout,
		MaxBytes:     discoverMaxBytes,
		AllowPrivate: policy.AllowPrivate,
		AllowAnyPort: policy.AllowAnyPort,
		AllowAddrs:   policy.AllowAddrs,
		TLSConfig:    &tls.Config{RootCAs: s.roots, MinVersion: tls.VersionTLS12, Time: cfg.Now},
		UserAgent:    policy.UserAgent,
		Resolve:      s.dns.LookupHost,
	})
	return d
}

// Discover looks for the website of the vendor called name (its canonical
// name). It tries at most MaxCandidates domains within Budget, PerVendor at
// a time, and chooses the most likely candidate kept with StopAt
// confidence, else the most confident one kept, else none. It returns an
// error only when ctx ends, with what was found until then.
func (d *Discoverer) Discover(ctx context.Context, name string, prefs DiscoverPrefs) (Discovery, error) {
	start := time.Now()
	out := Discovery{Threshold: d.threshold}
	if err := ctx.Err(); err != nil {
		return out, err
	}
	v := parseVendorName(name)
	cands := v.candidates(prefs, d.max)
	budget, cancel := context.WithTimeout(withHostCache(ctx), d.budget)
	defer cancel()
	search, stop := context.WithCancel(budget)
	defer stop()

	res := make([]Candidate, len(cands))
	done := make([]bool, len(cands))
	cut := make([]bool, len(cands))
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, d.perVendor)
	for i, c := range cands {
		select {
		case sem <- struct{}{}:
		case <-search.Done():
		}
		if search.Err() != nil {
			break
		}
		wg.Go(func() {
			defer func() { <-sem }()
			r, interrupted := d.check(search, v, c)
			mu.Lock()
			defer mu.Unlock()
			res[i], done[i], cut[i] = r, true, interrupted
			if d.decisive(res, done) >= 0 {
				stop()
			}
		})
	}
	wg.Wait()
	winner := d.decisive(res, done)
	for i, c := range cands {
		if done[i] && !cut[i] {
			continue
		}
		res[i] = Candidate{Domain: c.domain}
		switch {
		case ctx.Err() != nil:
			res[i].Verdict, res[i].Reason = VerdictTimeout, "the discovery was cancelled before this candidate was checked"
		case winner >= 0:
			res[i].Verdict, res[i].Reason = VerdictSkipped, fmt.Sprintf("not needed: %s, more likely, was kept first", cands[winner].domain)
		default:
			res[i].Verdict, res[i].Reason = VerdictTimeout, fmt.Sprintf("not checked within the vendor's budget of %s", d.budget)
		}
	}
	best := winner
	if best < 0 {
		for i, r := range res {
			if r.Verdict == VerdictKept && (best < 0 || r.Confidence > res[best].Confidence) {
				best = i
			}
		}
	}
	if best >= 0 {
		res[best].Chosen = true
		b := res[best]
		u, _ := url.Parse(b.URL) // a URL the fetcher read
		out.Website = "https://" + u.Host + "/"
		out.Domain = registrable(u.Hostname())
		out.Confidence, out.Match = b.Confidence, b.Match
	}
	out.Candidates = res
	out.Elapsed = time.Since(start)
	return out, ctx.Err()
}

// decisive is the candidate that ends the search: the most likely one kept
// with StopAt confidence, once every more likely one has been checked (so
// the choice does not depend on which check finished first); -1 when none.
func (d *Discoverer) decisive(res []Candidate, done []bool) int {
	for i := range res {
		if !done[i] {
			return -1
		}
		if res[i].Verdict == VerdictKept && res[i].Confidence >= d.stopAt {
			return i
		}
	}
	return -1
}

// check tries one candidate. interrupted reports that the search was
// stopped or ran out of budget while it ran, so its verdict says nothing.
func (d *Discoverer) check(search context.Context, v *vendorName, c candidate) (out Candidate, interrupted bool) {
	out = Candidate{Domain: c.domain}
	// The whole check holds one of the scanner's slots: its DNS questions
	// count as much as its fetch, for a burst of discoveries must not
	// flood the resolver any more than the sites.
	select {
	case d.slots <- struct{}{}:
	case <-search.Done():
		return out, true
	}
	defer func() { <-d.slots }()
	ctx, cancel := context.WithTimeout(search, d.timeout)
	defer cancel()
	refuse := func(verdict CandidateVerdict, reason string) (Candidate, bool) {
		out.Verdict, out.Reason = verdict, reason
		return out, false
	}
	failed := func(err error) (Candidate, bool) {
		if search.Err() != nil {
			return out, true
		}
		return refuse(d.classify(err))
	}
	// The name servers first: they tell a name that does not exist
	// (NXDOMAIN), which most candidates are, in one question, and a
	// parked domain before its page is read.
	ns, err := d.dns.query(ctx, c.domain, dns.TypeNS)
	if err != nil {
		return failed(err)
	}
	if ns.nxdomain {
		return refuse(VerdictUnresolvable, c.domain+" does not exist (NXDOMAIN)")
	}
	if servers := parkingServers(ns); len(servers) > 0 {
		return refuse(VerdictParked, fmt.Sprintf("its name servers %s are a domain parking service's", strings.Join(servers, ", ")))
	}
	page, verdict, reason, err := d.home(ctx, v, c.domain)
	switch {
	case err != nil:
		return failed(err)
	case verdict != "":
		return refuse(verdict, reason)
	}
	out.URL = page.URL.String()
	m := parseHTML(page.Body, page.URL)
	if verdict, reason := parkedPage(page.Body, m, v); verdict != "" {
		return refuse(verdict, reason)
	}
	if marker := genericPage(m, strongGeneric); marker != "" {
		return refuse(VerdictGenericPage, fmt.Sprintf("%s is a default page (%q)", out.URL, marker))
	}
	best := v.bestName(m, page, c.domain)
	out.Confidence, out.Match = best.confidence, best.NameMatch
	if best.confidence >= d.threshold {
		return refuse(VerdictKept, best.describe(v.display))
	}
	if marker := genericPage(m, placeholders); marker != "" {
		return refuse(VerdictGenericPage, fmt.Sprintf("%s is a placeholder (%q) that does not name the vendor", out.URL, marker))
	}
	return refuse(VerdictNameMismatch, best.describe(v.display))
}

// home fetches https://<domain>/ (or https://www.<domain>/ when the domain
// itself has no address), following redirects that stay on https and with
// the vendor: a redirect to another registrable domain that is not one of
// the vendor's candidate names is refused without being followed.
func (d *Discoverer) home(ctx context.Context, v *vendorName, domain string) (*Page, CandidateVerdict, string, error) {
	u := "https://" + domain + "/"
	triedWWW := false
	for hop := 0; ; hop++ {
		if hop > discoverMaxRedirects {
			return nil, VerdictHTTPError, fmt.Sprintf("more than %d redirects from https://%s/", discoverMaxRedirects, domain), nil
		}
		p, err := d.fetch.GetOnce(ctx, u)
		if err != nil {
			if hop == 0 && !triedWWW && errors.Is(err, ErrNoSuchHost) {
				triedWWW, u, hop = true, "https://www."+domain+"/", -1
				continue
			}
			return nil, "", "", err
		}
		next, loc, redirect := p.location()
		if !redirect {
			if p.Status < 200 || p.Status > 299 {
				return nil, VerdictHTTPError, fmt.Sprintf("%s answered HTTP %d", u, p.Status), nil
			}
			return p, "", "", nil
		}
		switch {
		case next == nil:
			return nil, VerdictHTTPError, fmt.Sprintf("%s redirects to %q, not a URL", u, loc), nil
		case next.Scheme != "https":
			return nil, VerdictNoHTTPS, fmt.Sprintf("%s redirects to %s, not https", u, next), nil
		case !v.related(next.Hostname(), domain):
			return nil, VerdictUnrelatedRedirect, fmt.Sprintf("%s redirects to %s, another domain", u, next), nil
		}
		u = next.String()
	}
}

// classify turns a failed check into a verdict and its reason.
func (d *Discoverer) classify(err error) (CandidateVerdict, string) {
	var ne net.Error
	var cert *tls.CertificateVerificationError
	switch {
	case errors.Is(err, ErrRefused):
		return VerdictRefused, err.Error()
	case errors.Is(err, errDNSTimeout):
		return VerdictTimeout, err.Error()
	case errors.Is(err, ErrNoSuchHost), errors.Is(err, ErrDNS):
		return VerdictUnresolvable, err.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return VerdictTimeout, fmt.Sprintf("no answer within %s: %v", d.timeout, err)
	case errors.As(err, &cert):
		return VerdictNoHTTPS, "the certificate is not valid: " + err.Error()
	}
	return VerdictNoHTTPS, "no HTTPS answer: " + err.Error()
}

// registrable is the registrable domain of host (eTLD+1), or host itself
// when it has none.
func registrable(host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if r, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return r
	}
	return host
}

// parkingNameServers are the name server domains of domain parking and
// resale services: a domain delegated to them shows their page, not a
// vendor's.
var parkingNameServers = []string{"sedoparking.com", "parkingcrew.net", "bodis.com", "above.com", "parklogic.com", "dan.com",
	"afternic.com", "hugedomains.com", "uniregistrymarket.link", "namebrightdns.com", "cashparking.com", "parking.reg.ru"}

// parkingServers lists the name servers of an NS answer that belong to a
// parking service.
func parkingServers(a answer) []string {
	var out []string
	for _, rr := range a.rrs {
		ns, ok := rr.(*dns.NS)
		if !ok {
			continue
		}
		host := strings.ToLower(strings.TrimSuffix(ns.Ns, "."))
		for _, p := range parkingNameServers {
			if host == p || strings.HasSuffix(host, "."+p) {
				out = append(out, host)
				break
			}
		}
	}
	return out
}
