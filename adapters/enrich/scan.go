package enrich

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vetted-dev/vetted/core/vendors"
)

// Scanner defaults.
const (
	DefaultScanTimeout     = 10 * time.Second
	DefaultScanConcurrency = 8
	// certExpiringWithin is when an upcoming certificate expiry becomes
	// tls_cert_expiring_soon.
	certExpiringWithin = 30 * 24 * time.Hour
)

// ScanConfig configures a Scanner. Every field is optional.
type ScanConfig struct {
	// DNS answers every name the scan reads or connects to; the system
	// resolver (NewDNS(DNSConfig{})) when nil.
	DNS *DNS
	// RootCAs verifies certificates; the system roots when nil
	// (VETTED_SCAN_ROOT_CAS adds to them).
	RootCAs *x509.CertPool
	// Timeout bounds each connection, handshake and fetch;
	// DefaultScanTimeout when zero.
	Timeout time.Duration
	// Concurrency is how many scans run at once; more wait.
	// DefaultScanConcurrency when zero.
	Concurrency int
	// AllowPrivate lets the scan reach loopback and private addresses
	// (VETTED_FETCH_ALLOW_PRIVATE; tests and closed networks only).
	AllowPrivate bool
}

// Scanner is the outside-in security scan of a vendor: it connects to
// ports 80 and 443 of the addresses DNS gives for the web host, and asks
// DNS about the vendor's domain, then grades what it saw against the check
// catalog of core/vendors. Every connection goes through the Fetcher's
// policy (public addresses and ports 80/443 only, unless AllowPrivate).
type Scanner struct {
	dns     *DNS
	fetch   *Fetcher
	roots   *x509.CertPool
	timeout time.Duration
	slots   chan struct{}
}

// NewScanner builds a Scanner.
func NewScanner(cfg ScanConfig) *Scanner {
	s := &Scanner{dns: cfg.DNS, roots: cfg.RootCAs, timeout: cfg.Timeout}
	if s.dns == nil {
		s.dns, _ = NewDNS(DNSConfig{}) // without a server it cannot fail
	}
	if s.timeout <= 0 {
		s.timeout = DefaultScanTimeout
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultScanConcurrency
	}
	s.slots = make(chan struct{}, cfg.Concurrency)
	s.fetch = NewFetcher(FetcherConfig{
		Timeout:      s.timeout,
		AllowPrivate: cfg.AllowPrivate,
		Resolve:      s.dns.LookupHost,
		// The scan observes certificates rather than trusting them: it
		// verifies them itself (certificate) and must still read the
		// headers of a site whose certificate is bad. It accepts TLS 1.0
		// to see what an old server offers; it sends no secrets.
		TLSConfig: &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS10}, //nolint:gosec // see above
	})
	return s
}

// Target is what one scan looks at.
type Target struct {
	// Host is the web host (a name or an IP address); ports 80 and 443.
	Host string
	// Domain is the domain of the DNS checks; "" when there is none (the
	// website is an IP address), and then they are not checked.
	Domain string
}

// TargetOf derives the scan target from a website URL and the vendor's
// domain (the host without "www." when the domain is unknown).
func TargetOf(site *url.URL, domain string) Target {
	t := Target{Host: strings.ToLower(site.Hostname()), Domain: strings.ToLower(strings.TrimSuffix(domain, "."))}
	if t.Domain == "" {
		t.Domain = strings.TrimPrefix(t.Host, "www.")
	}
	if _, err := netip.ParseAddr(t.Domain); err == nil {
		t.Domain = ""
	}
	return t
}

// Observation is one catalog code the scan recorded, with what was seen
// (or why the check could not run) and where.
type Observation struct {
	Code     string
	Evidence string
	Source   string
}

// ScanResult is what one scan saw.
type ScanResult struct {
	// Observations hold a code for every check that found something and a
	// not-checked code for every check that could not run; a check that
	// passed records nothing.
	Observations []Observation
	// Signals summarise the checks as yes/no (nil: not checked).
	Signals vendors.ExternalSignals
	// Privacy, Terms, Trust and Status are the policy and trust links of
	// the home page ("" when none).
	Privacy, Terms, Trust, Status string
}

// Ran reports whether at least one check could run.
func (r ScanResult) Ran() bool {
	n := 0
	for _, o := range r.Observations {
		if vendors.IsNotChecked(o.Code) {
			n++
		}
	}
	return n < len(vendors.Checks())
}

// Scan runs every check of the catalog against t, at most Concurrency
// scans at a time. It fails only when ctx ends before the scan could start;
// everything that goes wrong later is recorded as not checked.
func (s *Scanner) Scan(ctx context.Context, t Target, now time.Time) (ScanResult, error) {
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return ScanResult{}, ctx.Err()
	}
	defer func() { <-s.slots }()
	ctx = withHostCache(ctx)
	web := &scanRun{s: s, t: t, now: now}
	mail := &scanRun{s: s, t: t, now: now}
	var wg sync.WaitGroup
	wg.Go(func() { web.web(ctx) })
	wg.Go(func() { mail.dnsChecks(ctx) })
	wg.Wait()
	res := ScanResult{Observations: append(web.obs, mail.obs...), Signals: web.sig,
		Privacy: web.links.privacy, Terms: web.links.terms, Trust: web.links.trust, Status: web.links.status}
	sig := &res.Signals
	sig.SPF, sig.DMARC, sig.DNSSEC, sig.CAA, sig.MTASTS = mail.sig.SPF, mail.sig.DMARC, mail.sig.DNSSEC, mail.sig.CAA, mail.sig.MTASTS
	return res, nil
}

// scanRun is one branch of a scan (web or DNS); each goroutine owns one.
type scanRun struct {
	s     *Scanner
	t     Target
	now   time.Time
	obs   []Observation
	sig   vendors.ExternalSignals
	links links
}

func (r *scanRun) record(code, evidence, source string) {
	r.obs = append(r.obs, Observation{Code: code, Evidence: evidence, Source: source})
}

func (r *scanRun) notChecked(check, reason, source string) {
	r.record(check+vendors.NotCheckedSuffix, reason, source)
}

// verdict records v, if it is not a pass, and reports whether it passed
// or is one of the good codes.
func (r *scanRun) verdict(v verdict, source string, good ...string) bool {
	if v.code == "" {
		return true
	}
	r.record(v.code, v.evidence, source)
	for _, g := range good {
		if v.code == g {
			return true
		}
	}
	return false
}

func flag(b bool) *bool { return &b }

// hostPort is host for a URL (IPv6 in brackets).
func hostPort(host string) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]"
	}
	return host
}

// webChecks are the checks of the web branch, in catalog order.
var webChecks = []string{"https", "http_redirect", "hsts", "csp", "x_frame_options", "x_content_type_options", "server_version",
	"security_txt", "cookies", "mixed_content", "git_directory", "env_file", "server_status", "tls_certificate", "tls_protocol",
	"privacy_policy", "terms", "trust_center", "status_page"}

// headerChecks read the home page's response headers and body.
var headerChecks = []string{"csp", "x_frame_options", "x_content_type_options", "server_version", "cookies", "mixed_content",
	"privacy_policy", "terms", "trust_center", "status_page"}

// part is a runner for one branch of the web checks that runs beside the
// others; web merges them.
func (r *scanRun) part() *scanRun { return &scanRun{s: r.s, t: r.t, now: r.now} }

// web runs the checks on ports 80 and 443 of the host. After the first
// handshake and the http:// answer, the certificate, the TLS 1.0/1.1
// handshake and the home page run side by side; security.txt and the
// exposed-file probes follow the home page, on its connection.
func (r *scanRun) web(ctx context.Context) {
	host := r.t.Host
	httpsURL, httpURL := "https://"+hostPort(host)+"/", "http://"+hostPort(host)+"/"
	if _, err := netip.ParseAddr(host); err != nil {
		if _, err := r.s.dns.LookupHost(ctx, host); err != nil {
			for _, c := range webChecks {
				r.notChecked(c, err.Error(), httpsURL)
			}
			return
		}
	}
	var (
		state  *tls.ConnectionState
		tlsErr error
		plain  plainResult
		wg     sync.WaitGroup
	)
	wg.Go(func() { state, tlsErr = r.handshake(ctx, 0) })
	wg.Go(func() { plain = r.followHTTP(ctx, httpURL) })
	wg.Wait()
	if errors.Is(tlsErr, ErrRefused) {
		for _, c := range webChecks {
			r.notChecked(c, tlsErr.Error(), httpsURL)
		}
		return
	}
	r.httpRedirect(plain, httpURL)

	cert, proto, page, secTxt, files := r.part(), r.part(), r.part(), r.part(), r.part()
	if tlsErr == nil {
		wg.Go(func() { cert.certificate(ctx, state, httpsURL) })
		wg.Go(func() { proto.protocol(ctx, state, httpsURL) })
		home, homeErr := r.s.fetch.Get(ctx, httpsURL)
		wg.Go(func() { secTxt.securityTxt(ctx, httpsURL) })
		wg.Go(func() { files.exposedFiles(ctx, httpsURL) })
		page.homePage(home, homeErr, true, httpsURL)
	} else {
		noTLS := "no TLS on port 443: " + tlsErr.Error()
		if tlsAnswered(tlsErr) || plain.err == nil {
			evidence := noTLS
			if plain.err == nil {
				evidence += fmt.Sprintf("; %s answered HTTP %d", httpURL, plain.first)
			}
			r.record("https_missing", evidence, httpsURL)
			r.sig.TLS = flag(false)
		} else {
			r.notChecked("https", fmt.Sprintf("port 443: %v; port 80: %v", tlsErr, plain.err), httpsURL)
		}
		for _, c := range []string{"hsts", "security_txt", "tls_certificate", "tls_protocol"} {
			r.notChecked(c, noTLS, httpsURL)
		}
		var home *Page
		var homeErr error
		switch {
		case plain.err != nil:
			homeErr = fmt.Errorf("no home page on port 80 either: %w", plain.err)
		case plain.https != "":
			homeErr = fmt.Errorf("%s redirects to %s, and nothing answers TLS there", httpURL, plain.https)
		default:
			home = plain.page
		}
		if homeErr == nil {
			wg.Go(func() { files.exposedFiles(ctx, httpURL) })
		} else {
			for _, c := range probeChecks {
				files.notChecked(c, noTLS+"; "+homeErr.Error(), httpURL)
			}
		}
		page.homePage(home, homeErr, false, httpsURL)
	}
	wg.Wait()
	for _, p := range []*scanRun{cert, proto, page, secTxt, files} {
		r.obs = append(r.obs, p.obs...)
	}
	if tlsErr == nil {
		r.sig.TLS, r.sig.TLSExpiresAt = cert.sig.TLS, cert.sig.TLSExpiresAt
	}
	r.sig.HSTS, r.sig.SecurityHeaders, r.sig.SecurityTxt = page.sig.HSTS, page.sig.SecurityHeaders, secTxt.sig.SecurityTxt
	r.links = page.links
}

// homePage runs the checks that read the home page (or records why they
// could not run).
func (r *scanRun) homePage(home *Page, homeErr error, overTLS bool, source string) {
	if homeErr != nil {
		checks := headerChecks
		if overTLS {
			checks = append([]string{"hsts"}, checks...)
		}
		for _, c := range checks {
			r.notChecked(c, "home page: "+homeErr.Error(), source)
		}
		return
	}
	r.headers(home, overTLS)
	m := parseHTML(home.Body, home.URL)
	r.homeLinks(home, m)
	u := home.URL.String()
	if home.URL.Scheme != "https" {
		for _, c := range []string{"cookies", "mixed_content"} {
			r.notChecked(c, "not applicable: the home page is served from "+u+", over http", u)
		}
		return
	}
	r.verdict(checkCookies(home.Header, u), u)
	if mixed := m.Insecure; len(mixed) > 0 {
		shown := mixed[:min(len(mixed), 5)]
		if len(mixed) > len(shown) {
			shown = append(shown, fmt.Sprintf("and %d more", len(mixed)-len(shown)))
		}
		r.record("mixed_content", fmt.Sprintf("%s loads active content over http: %s", u, strings.Join(shown, ", ")), u)
	}
}

// tlsAnswered reports whether a failed handshake still showed that
// something answers on 443 without speaking (usable) TLS.
func tlsAnswered(err error) bool {
	var rh tls.RecordHeaderError
	var alert tls.AlertError
	return errors.As(err, &rh) || errors.As(err, &alert)
}

// handshake completes a TLS handshake with port 443 of the host, offering
// TLS 1.0 up to maxVersion (0: the newest). Nothing is verified here.
func (r *scanRun) handshake(ctx context.Context, maxVersion uint16) (*tls.ConnectionState, error) {
	ctx, cancel := context.WithTimeout(ctx, r.s.timeout)
	defer cancel()
	conn, err := r.s.fetch.DialContext(ctx, "tcp", net.JoinHostPort(r.t.Host, "443"))
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	c := tls.Client(conn, &tls.Config{ServerName: r.t.Host, InsecureSkipVerify: true, //nolint:gosec // observed, verified in certificate
		MinVersion: tls.VersionTLS10, MaxVersion: maxVersion})
	if err := c.HandshakeContext(ctx); err != nil {
		return nil, err
	}
	st := c.ConnectionState()
	return &st, nil
}

// certificate checks the certificate the host presented on 443: its dates,
// its chain (against RootCAs, at a time it was valid, so an expired
// certificate is not also reported untrusted; a chain that fails for an
// unknown authority is tried again with the issuer its AIA names, and is
// then incomplete rather than untrusted), its names, its key and its
// signature algorithm.
func (r *scanRun) certificate(ctx context.Context, st *tls.ConnectionState, source string) {
	if len(st.PeerCertificates) == 0 {
		r.notChecked("tls_certificate", "the server sent no certificate", source)
		return
	}
	leaf := st.PeerCertificates[0]
	names := leaf.DNSNames
	for _, ip := range leaf.IPAddresses {
		names = append(names, ip.String())
	}
	desc := fmt.Sprintf("certificate for [%s] (subject %s) issued by %s, valid %s to %s", strings.Join(names, " "), leaf.Subject.CommonName,
		leaf.Issuer.CommonName, leaf.NotBefore.UTC().Format(time.RFC3339), leaf.NotAfter.UTC().Format(time.RFC3339))
	r.sig.TLSExpiresAt = leaf.NotAfter.UTC().Format(time.RFC3339)
	ok := true
	switch left := leaf.NotAfter.Sub(r.now); {
	case left <= 0:
		r.record("tls_cert_expired", desc+": expired", source)
		ok = false
	case left < certExpiringWithin:
		r.record("tls_cert_expiring_soon", fmt.Sprintf("%s: expires in %d days", desc, int(left.Hours()/24)), source)
	}
	if err := r.verifyChain(st.PeerCertificates, ""); err != nil {
		ok = false
		issuer, at, aiaErr := r.aiaIssuer(ctx, leaf, err)
		switch {
		case issuer != nil && r.verifyChain(append(slices.Clone(st.PeerCertificates), issuer), "") == nil:
			r.record("tls_chain_incomplete", fmt.Sprintf("%s: the %d certificate(s) the server sends do not verify (%v), but they do with the issuer %q "+
				"fetched from the certificate's AIA caIssuers URL %s, which the server should send too", desc, len(st.PeerCertificates), err,
				issuer.Subject.CommonName, at), source)
		case aiaErr != nil:
			r.record("tls_cert_untrusted", fmt.Sprintf("%s: %v (the issuer named in its AIA could not be fetched: %v)", desc, err, aiaErr), source)
		default:
			r.record("tls_cert_untrusted", desc+": "+err.Error(), source)
		}
	}
	if err := leaf.VerifyHostname(r.t.Host); err != nil {
		r.record("tls_cert_hostname_mismatch", fmt.Sprintf("%s: does not name %s", desc, r.t.Host), source)
		ok = false
	}
	for _, v := range []verdict{checkLeafKey(leaf, desc), checkLeafSignature(leaf, desc)} {
		if v.code != "" {
			r.record(v.code, v.evidence, source)
			ok = false
		}
	}
	r.sig.TLS = flag(ok)
}

// verifyChain verifies certs (leaf first) against RootCAs, and for dnsName
// unless it is empty. An expired leaf is verified as of just before it
// expired, so that expiry (reported on its own) does not also read as an
// untrusted chain.
func (r *scanRun) verifyChain(certs []*x509.Certificate, dnsName string) error {
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	opts := x509.VerifyOptions{Roots: r.s.roots, Intermediates: inter, DNSName: dnsName, CurrentTime: r.now,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	leaf := certs[0]
	_, err := leaf.Verify(opts)
	var inv x509.CertificateInvalidError
	if errors.As(err, &inv) && inv.Reason == x509.Expired && !r.now.Before(leaf.NotAfter) && inv.Cert == leaf {
		opts.CurrentTime = leaf.NotAfter.Add(-time.Second)
		_, err = leaf.Verify(opts)
	}
	return err
}

// protocol checks whether the server still completes a TLS 1.0 or 1.1
// handshake. A server that refuses one (alert, reset, close) passes; a
// timeout leaves it unknown.
func (r *scanRun) protocol(ctx context.Context, st *tls.ConnectionState, source string) {
	if st.Version < tls.VersionTLS12 {
		r.record("tls_protocol_weak", fmt.Sprintf("the server chose %s (cipher %s) when offered TLS 1.0 to 1.3",
			tls.VersionName(st.Version), tls.CipherSuiteName(st.CipherSuite)), source)
		return
	}
	weak, err := r.handshake(ctx, tls.VersionTLS11)
	var ne net.Error
	switch {
	case err == nil:
		r.record("tls_protocol_weak", fmt.Sprintf("the server completed a %s handshake (cipher %s) when offered TLS 1.0 and 1.1 only",
			tls.VersionName(weak.Version), tls.CipherSuiteName(weak.CipherSuite)), source)
	case errors.Is(err, ErrRefused), errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		r.notChecked("tls_protocol", "TLS 1.0/1.1 handshake: "+err.Error(), source)
	}
}

// plainResult is what port 80 answered.
type plainResult struct {
	// first is the status of the first answer.
	first int
	// page is the last answer that was not a redirect to https.
	page *Page
	// chain lists the http URLs visited, in order.
	chain []string
	// https is where the chain redirected to https ("" when it did not).
	https string
	err   error
}

// followHTTP fetches http://host/ and follows redirects while they stay on
// http, stopping at the first one to https.
func (r *scanRun) followHTTP(ctx context.Context, start string) plainResult {
	var res plainResult
	u := start
	for range DefaultMaxRedirects + 1 {
		p, err := r.s.fetch.GetOnce(ctx, u)
		if err != nil {
			res.err = err
			return res
		}
		if res.first == 0 {
			res.first = p.Status
		}
		res.chain = append(res.chain, u)
		next, _, ok := p.location()
		if !ok || next == nil || (next.Scheme != "http" && next.Scheme != "https") {
			res.page = p
			return res
		}
		if next.Scheme == "https" {
			res.https = next.String()
			return res
		}
		u = next.String()
	}
	res.err = fmt.Errorf("more than %d redirects from %s", DefaultMaxRedirects, start)
	return res
}

func (r *scanRun) httpRedirect(p plainResult, source string) {
	switch {
	case p.err != nil:
		r.notChecked("http_redirect", "port 80: "+p.err.Error(), source)
	case p.https != "":
	default:
		via := ""
		if len(p.chain) > 1 {
			via = " (via " + strings.Join(p.chain[1:], ", ") + ")"
		}
		r.record("http_not_redirected", fmt.Sprintf("%s answered HTTP %d%s without redirecting to https://", source, p.page.Status, via), source)
	}
}

// headers grades the home page's response headers.
func (r *scanRun) headers(home *Page, overTLS bool) {
	u := home.URL.String()
	if overTLS && home.URL.Scheme == "https" {
		r.sig.HSTS = flag(r.verdict(checkHSTS(home.Header, u), u, "hsts_short_max_age", "hsts_preload_ready"))
	} else if overTLS {
		r.notChecked("hsts", "the home page is served from "+u+", over http, where HSTS does not apply", u)
	}
	ok := r.verdict(checkCSP(home.Header, u), u)
	ok = r.verdict(checkFraming(home.Header, u), u) && ok
	ok = r.verdict(checkNoSniff(home.Header, u), u) && ok
	r.sig.SecurityHeaders = flag(ok)
	r.verdict(checkServerVersion(home.Header, u), u)
}

// homeLinks records the policy and trust links of the home page.
func (r *scanRun) homeLinks(home *Page, m meta) {
	var sameAs []string
	for _, o := range m.Orgs {
		sameAs = append(sameAs, o.SameAs...)
	}
	r.links = findLinks(m.Links, sameAs)
	u := home.URL.String()
	for _, l := range []struct{ code, href string }{
		{"privacy_policy_found", r.links.privacy}, {"terms_found", r.links.terms},
		{"trust_center_found", r.links.trust}, {"status_page_found", r.links.status},
	} {
		if l.href != "" {
			r.record(l.code, u+" links to "+l.href, u)
		}
	}
}

// securityTxt reads /.well-known/security.txt over https (RFC 9116 §3).
func (r *scanRun) securityTxt(ctx context.Context, base string) {
	u := base + ".well-known/security.txt"
	p, err := r.s.fetch.Get(ctx, u)
	if err != nil {
		r.notChecked("security_txt", err.Error(), u)
		return
	}
	if p.Status != 200 {
		r.record("security_txt_missing", fmt.Sprintf("%s answered HTTP %d", u, p.Status), u)
		r.sig.SecurityTxt = flag(false)
		return
	}
	r.sig.SecurityTxt = flag(r.verdict(checkSecurityTxt(string(p.Body), p.URL.String(), r.now), u, "security_txt_present"))
}
