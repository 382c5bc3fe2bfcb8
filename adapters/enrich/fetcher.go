package enrich

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// ErrRefused marks a fetch the safety policy did not allow: a private or
// otherwise non-public address, a scheme other than http/https, a port
// other than 80/443, or too many redirects. Its message starts with
// "refused: " and says why.
var ErrRefused = errors.New("refused")

// Fetcher defaults.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultMaxBytes     = 2 << 20
	DefaultMaxRedirects = 5
	DefaultUserAgent    = "VettedBot/1.0 (+vendor risk enrichment)"
)

// FetcherConfig configures a Fetcher. The zero value is the safe default.
type FetcherConfig struct {
	// Timeout bounds a whole fetch, redirects and body included;
	// DefaultTimeout when zero.
	Timeout time.Duration
	// MaxBytes is the most a body may be; longer bodies are cut there and
	// Page.Truncated is set. DefaultMaxBytes when zero.
	MaxBytes int64
	// MaxRedirects is how many redirects are followed; DefaultMaxRedirects
	// when zero.
	MaxRedirects int
	// AllowPrivate lets the fetcher reach loopback, private, link-local
	// and other non-public addresses. Only tests and closed networks
	// should set it.
	AllowPrivate bool
	// AllowAnyPort lifts the 80/443 port restriction (tests use it for
	// httptest servers on random ports).
	AllowAnyPort bool
	// AllowAddrs lists single addresses reachable even when AllowPrivate
	// is off, e.g. an internal mirror.
	AllowAddrs []netip.AddrPort
	// TLSConfig, when set, is used for https (tests trust an httptest
	// certificate through RootCAs).
	TLSConfig *tls.Config
	// UserAgent is sent with every request; DefaultUserAgent when empty.
	UserAgent string
	// Resolve, when set, turns host names into addresses instead of the
	// system resolver (the scanner's DNS client, VETTED_SCAN_RESOLVER).
	// Every address it returns still passes the policy check at connect.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
}

// Fetcher is an HTTP client for untrusted URLs, so that a URL typed by any
// user cannot reach the service's own network (SSRF). The destination is
// checked on the resolved IP at connect time, in the dialer, so DNS
// rebinding and redirects cannot get around it; environment proxies are
// ignored for the same reason. It sends no cookies or credentials.
type Fetcher struct {
	cfg    FetcherConfig
	dialer *net.Dialer
	client *http.Client
	// once does not follow redirects.
	once *http.Client
}

// Page is a fetched response.
type Page struct {
	// URL is the final URL, after redirects.
	URL    *url.URL
	Status int
	Header http.Header
	Body   []byte
	// Truncated reports that the body was longer than MaxBytes.
	Truncated bool
	// TLS is the connection state of the final response, nil over http.
	TLS *tls.ConnectionState
}

// NewFetcher builds a Fetcher from cfg.
func NewFetcher(cfg FetcherConfig) *Fetcher {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.MaxRedirects <= 0 {
		cfg.MaxRedirects = DefaultMaxRedirects
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	f := &Fetcher{cfg: cfg}
	f.dialer = &net.Dialer{Timeout: cfg.Timeout, Control: f.control}
	tr := &http.Transport{
		Proxy:                 nil, // a proxy would dial for us, past the check
		DialContext:           f.DialContext,
		TLSClientConfig:       cfg.TLSConfig,
		TLSHandshakeTimeout:   cfg.Timeout,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxIdleConns:          20,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	f.client = &http.Client{
		Transport: tr,
		Timeout:   cfg.Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > cfg.MaxRedirects {
				return fmt.Errorf("%w: more than %d redirects", ErrRefused, cfg.MaxRedirects)
			}
			return f.checkURL(req.URL)
		},
	}
	f.once = &http.Client{Transport: tr, Timeout: cfg.Timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return f
}

// DialContext connects to addr ("host:port") under the policy: host names
// are resolved with FetcherConfig.Resolve when set, and every address is
// checked by the dialer's control function before it is connected to.
// Scanners use it for raw TLS handshakes.
func (f *Fetcher) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || f.cfg.Resolve == nil {
		return f.dialer.DialContext(ctx, network, addr)
	}
	if _, perr := netip.ParseAddr(host); perr == nil {
		return f.dialer.DialContext(ctx, network, addr)
	}
	addrs, err := f.cfg.Resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, a := range addrs {
		c, err := f.dialer.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
		if errors.Is(err, ErrRefused) || ctx.Err() != nil {
			break
		}
	}
	if len(errs) == 0 {
		return nil, noSuchHost(host + " has no address")
	}
	return nil, joinErrors(errs)
}

// Get fetches rawURL, following redirects. A refusal wraps ErrRefused; a
// non-2xx status is not an error (Page.Status tells).
func (f *Fetcher) Get(ctx context.Context, rawURL string) (*Page, error) {
	return f.get(ctx, f.client, rawURL, f.cfg.MaxBytes, Validators{})
}

// Validators are the conditional-GET validators of a previous answer: its
// ETag and Last-Modified headers, as they were sent.
type Validators struct {
	ETag         string
	LastModified string
}

// GetConditional fetches rawURL as Get does, following redirects under the
// same policy, and sends If-None-Match and If-Modified-Since from prev when
// they are set; a 304 answer is returned as a Page with Status 304 and no
// body. maxBytes bounds the body of this fetch in place of
// FetcherConfig.MaxBytes when it is above zero (a platform-wide feed may be
// larger than a web page); Page.Truncated tells a longer body. The answer's
// own validators are in Page.Header.
func (f *Fetcher) GetConditional(ctx context.Context, rawURL string, prev Validators, maxBytes int64) (*Page, error) {
	if maxBytes <= 0 {
		maxBytes = f.cfg.MaxBytes
	}
	return f.get(ctx, f.client, rawURL, maxBytes, prev)
}

// GetOnce fetches rawURL without following a redirect: a 3xx answer is
// returned as is, with its Location header.
func (f *Fetcher) GetOnce(ctx context.Context, rawURL string) (*Page, error) {
	return f.get(ctx, f.once, rawURL, f.cfg.MaxBytes, Validators{})
}

// getOnceLimited is GetOnce with a body of at most maxBytes (the exposed
// file probes read no more than they need to recognise a file).
func (f *Fetcher) getOnceLimited(ctx context.Context, rawURL string, maxBytes int64) (*Page, error) {
	return f.get(ctx, f.once, rawURL, min(maxBytes, f.cfg.MaxBytes), Validators{})
}

func (f *Fetcher) get(ctx context.Context, client *http.Client, rawURL string, maxBytes int64, prev Validators) (*Page, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: not a URL", ErrRefused)
	}
	if err := f.checkURL(u); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/json,application/xml;q=0.9,*/*;q=0.8")
	if prev.ETag != "" {
		req.Header.Set("If-None-Match", prev.ETag)
	}
	if prev.LastModified != "" {
		req.Header.Set("If-Modified-Since", prev.LastModified)
	}
	resp, err := client.Do(req)
	if err != nil {
		if errors.Is(err, ErrRefused) {
			return nil, refusedOnly(err)
		}
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return nil, err
	}
	p := &Page{URL: resp.Request.URL, Status: resp.StatusCode, Header: resp.Header, Body: body, TLS: resp.TLS}
	if int64(len(body)) > maxBytes {
		p.Body, p.Truncated = body[:maxBytes], true
	}
	return p, nil
}

// location is where a redirect answer points: ok is false when p is not
// a 3xx answer with a Location header, and next is nil when the header
// (raw) is not a URL. A relative Location is resolved against p.URL.
func (p *Page) location() (next *url.URL, raw string, ok bool) {
	raw = p.Header.Get("Location")
	if p.Status < 300 || p.Status > 399 || raw == "" {
		return nil, raw, false
	}
	next, err := p.URL.Parse(raw)
	if err != nil {
		return nil, raw, true
	}
	return next, raw, true
}

// refusedOnly strips the url.Error and net.OpError layers so the message
// is just "refused: why", and keeps ErrRefused matchable.
func refusedOnly(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil || u == ErrRefused || !errors.Is(u, ErrRefused) {
			return err
		}
		err = u
	}
}

// checkURL refuses non-http(s) schemes, user info, disallowed ports and IP
// literals outside the policy before any connection is attempted.
func (f *Fetcher) checkURL(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("%w: scheme %q is not http or https", ErrRefused, u.Scheme)
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%w: URL has no host", ErrRefused)
	}
	if u.User != nil {
		return fmt.Errorf("%w: URL carries credentials", ErrRefused)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("%w: bad port %q", ErrRefused, port)
	}
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil {
		return f.allowed(netip.AddrPortFrom(ip, uint16(n)))
	}
	return f.allowedPort(netip.AddrPort{}, n)
}

// control runs in the dialer for every connection, after DNS resolution:
// this is the check that cannot be bypassed.
func (f *Fetcher) control(network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return fmt.Errorf("%w: network %s", ErrRefused, network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: bad address %s", ErrRefused, address)
	}
	return f.allowed(ap)
}

func (f *Fetcher) allowed(ap netip.AddrPort) error {
	if f.listed(ap) {
		return nil
	}
	if !f.cfg.AllowPrivate {
		if why := nonPublic(ap.Addr()); why != "" {
			return fmt.Errorf("%w: %s is %s", ErrRefused, ap.Addr().Unmap(), why)
		}
	}
	return f.allowedPort(ap, int(ap.Port()))
}

func (f *Fetcher) allowedPort(ap netip.AddrPort, port int) error {
	if f.cfg.AllowAnyPort || port == 80 || port == 443 || f.listed(ap) {
		return nil
	}
	return fmt.Errorf("%w: port %d is not 80 or 443", ErrRefused, port)
}

func (f *Fetcher) listed(ap netip.AddrPort) bool {
	for _, a := range f.cfg.AllowAddrs {
		if a.Addr().Unmap() == ap.Addr().Unmap() && a.Port() == ap.Port() {
			return true
		}
	}
	return false
}

// reserved are non-public ranges that netip has no predicate for.
var reserved = []struct {
	prefix netip.Prefix
	why    string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "a reserved address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "a shared (CGNAT) address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "a reserved address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "a documentation address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "a benchmarking address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "a documentation address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "a documentation address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "a reserved address"},
	{netip.MustParsePrefix("::/96"), "a reserved address"},
	{netip.MustParsePrefix("100::/64"), "a discard address"},
	{netip.MustParsePrefix("2001:db8::/32"), "a documentation address"},
}

// nonPublic says why addr is not a public unicast address, or "".
// IPv4-mapped, NAT64 and 6to4 addresses are judged by the IPv4 address
// they carry.
func nonPublic(addr netip.Addr) string {
	addr = addr.Unmap()
	if inner, ok := embeddedV4(addr); ok {
		if why := nonPublic(inner); why != "" {
			return why
		}
	}
	switch {
	case addr == netip.MustParseAddr("169.254.169.254") || addr == netip.MustParseAddr("fd00:ec2::254"):
		return "the cloud metadata address"
	case addr.IsLoopback():
		return "a loopback address"
	case addr.IsUnspecified():
		return "an unspecified address"
	case addr.IsPrivate():
		return "a private address"
	case addr.IsLinkLocalUnicast():
		return "a link-local address"
	case addr.IsMulticast(), addr.IsLinkLocalMulticast(), addr.IsInterfaceLocalMulticast():
		return "a multicast address"
	case addr.Is4() && addr == netip.MustParseAddr("255.255.255.255"):
		return "the broadcast address"
	}
	for _, r := range reserved {
		if r.prefix.Contains(addr) {
			return r.why
		}
	}
	return ""
}

var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

func embeddedV4(addr netip.Addr) (netip.Addr, bool) {
	b := addr.As16()
	switch {
	case nat64.Contains(addr):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixTo4.Contains(addr):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}
