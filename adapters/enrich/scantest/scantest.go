// Package scantest is a fixture world for the security scanner: an
// in-process DNS server (github.com/miekg/dns) that serves a zone per
// vendor, and each vendor's web site on its own loopback address, ports 80
// and 443, with certificates from a test CA. The scanner is pointed at it
// with its resolver (World.Resolver) and trusted roots (World.Roots or
// World.CAFile); nothing leaves the machine.
//
// The sites get the addresses 127.0.N.1, 127.0.N.2, ... of a block N
// picked at random and moved when any of its ports is taken, so test
// binaries that run at the same time (go test ./...) do not collide.
//
// A site answers for its domain and for one extra label in front of it
// (v7.good.test is good.test again), which lets a benchmark scan many
// vendors against a few sites.
package scantest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// TLSMode is what a site does on port 443.
type TLSMode int

// TLS modes.
const (
	TLSValid      TLSMode = iota // a certificate from the test CA for the name asked (SNI)
	TLSNone                      // nothing listens on 443
	TLSExpired                   // from the CA, expired yesterday
	TLSExpiring                  // from the CA, expires in 10 days
	TLSSelfSigned                // self-signed
	TLSMismatch                  // from the CA, for another name
)

// HTTPMode is what a site does on port 80.
type HTTPMode int

// HTTP modes.
const (
	HTTPRedirect HTTPMode = iota // 301 to the same URL over https
	HTTPServe                    // serves the site over plain http
	HTTPNone                     // nothing listens on 80
)

// DNSMode is how the zone of a site answers.
type DNSMode int

// DNS modes.
const (
	DNSNormal   DNSMode = iota
	DNSServfail         // every question: SERVFAIL
	DNSTimeout          // every question: no answer at all
)

// Site is one vendor: a DNS zone and a web site on its own address.
type Site struct {
	// Domain is the zone and the web host (e.g. good.test).
	Domain string
	TLS    TLSMode
	// WeakTLS also completes TLS 1.0 and 1.1 handshakes.
	WeakTLS bool
	HTTP    HTTPMode
	// Unreachable gives the site an address where nothing listens.
	Unreachable bool
	// Headers are set on every response of the site (not on redirects).
	Headers map[string]string
	// Home is the home page; SecurityTxt /.well-known/security.txt
	// (404 when empty).
	Home, SecurityTxt string

	DNS DNSMode
	// DNSSEC sets the AD bit on the zone's answers.
	DNSSEC bool
	// TXT, DMARC (at _dmarc) and MTASTS (at _mta-sts) are TXT records; MX
	// are mail exchanger names; CAA are records as "tag value".
	TXT, DMARC, MTASTS, MX, CAA []string
	// MTASTSPolicy is served at https://mta-sts.<domain>/.well-known/mta-sts.txt
	// (404 when empty).
	MTASTSPolicy string

	addr netip.Addr
}

// Good is a hardened site: HTTPS only, preload-ready HSTS, a strict CSP,
// nosniff, a current security.txt, policy and trust links, SPF -all,
// DMARC reject, an enforced MTA-STS policy, CAA, DNSSEC.
func Good(domain string) Site {
	return Site{
		Domain: domain,
		Headers: map[string]string{
			"Strict-Transport-Security": "max-age=63072000; includeSubDomains; preload",
			"Content-Security-Policy":   "default-src 'self'; frame-ancestors 'none'",
			"X-Content-Type-Options":    "nosniff",
			"Server":                    "nginx",
		},
		Home: `<!doctype html><html><head><title>` + domain + `</title></head><body>
<a href="/legal/privacy">Privacy Policy</a> <a href="/legal/terms">Terms of Service</a>
<a href="https://trust.` + domain + `/">Trust Center</a> <a href="https://status.` + domain + `/">System Status</a></body></html>`,
		SecurityTxt:  "Contact: mailto:security@" + domain + "\nExpires: " + time.Now().Add(180*24*time.Hour).UTC().Format(time.RFC3339) + "\n",
		DNSSEC:       true,
		TXT:          []string{"v=spf1 mx -all"},
		DMARC:        []string{"v=DMARC1; p=reject; rua=mailto:dmarc@" + domain},
		MX:           []string{"mx." + domain},
		MTASTS:       []string{"v=STSv1; id=20261101"},
		MTASTSPolicy: "version: STSv1\nmode: enforce\nmx: mx." + domain + "\nmax_age: 604800\n",
		CAA:          []string{"issue letsencrypt.org"},
	}
}

// Weak is a careless site: it still completes TLS 1.0 handshakes, serves
// plain http without redirecting, sets no security header but discloses
// its server version, has no security.txt, no policy links, no SPF, DMARC,
// MTA-STS or CAA (it does receive mail).
func Weak(domain string) Site {
	return Site{Domain: domain, WeakTLS: true, HTTP: HTTPServe,
		Headers: map[string]string{"Server": "Apache/2.4.41 (Ubuntu)"}, Home: "<html><body>Welcome</body></html>",
		TXT: []string{"google-site-verification=abc"}, MX: []string{"mx." + domain}}
}

// World is a running fixture world.
type World struct {
	// Resolver is host:port of the DNS server.
	Resolver string
	// Roots trusts the test CA (and only it); CAFile holds it as PEM.
	Roots  *x509.CertPool
	CAFile string

	ca    *x509.Certificate
	caKey *ecdsa.PrivateKey
	sites []*Site
	certs sync.Map // certKey -> *tls.Certificate

	inflight, peak atomic.Int64
	hold           atomic.Pointer[chan struct{}]
}

// Start builds the world of the given sites; it stops when t ends.
func Start(t testing.TB, sites ...Site) *World {
	t.Helper()
	w := &World{}
	if err := w.newCA(t.TempDir()); err != nil {
		t.Fatalf("scantest: CA: %v", err)
	}
	for i := range sites {
		s := sites[i]
		s.Domain = strings.ToLower(s.Domain)
		w.sites = append(w.sites, &s)
	}
	var closers []func()
	var err error
	for range 40 {
		block := 100 + mrand.IntN(150)
		if closers, err = w.listen(block); err == nil {
			break
		}
		if errors.Is(err, syscall.EACCES) {
			t.Fatalf("scantest: the sites listen on ports 80 and 443, which needs root, CAP_NET_BIND_SERVICE or "+
				"sysctl net.ipv4.ip_unprivileged_port_start=80: %v", err)
		}
		if !errors.Is(err, syscall.EADDRINUSE) && !errors.Is(err, syscall.EADDRNOTAVAIL) {
			t.Fatalf("scantest: %v", err)
		}
	}
	if err != nil {
		t.Fatalf("scantest: no free address block: %v", err)
	}
	t.Cleanup(func() {
		for _, c := range closers {
			c()
		}
	})
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("scantest: DNS: %v", err)
	}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(w.serveDNS)}
	started := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(started) }
	go func() { _ = srv.ActivateAndServe() }()
	<-started
	t.Cleanup(func() { _ = srv.Shutdown() })
	w.Resolver = pc.LocalAddr().String()
	return w
}

// Addr is the address of a site.
func (w *World) Addr(domain string) netip.Addr {
	for _, s := range w.sites {
		if s.Domain == domain {
			return s.addr
		}
	}
	return netip.Addr{}
}

// Peak is the most HTTP requests the sites were serving at once since the
// last ResetPeak.
func (w *World) Peak() int64 { return w.peak.Load() }

// ResetPeak starts counting Peak again.
func (w *World) ResetPeak() { w.peak.Store(0) }

// InFlight is how many HTTP requests the sites are serving now.
func (w *World) InFlight() int64 { return w.inflight.Load() }

// Hold makes every request wait, counted in InFlight, until release is
// called.
func (w *World) Hold() (release func()) {
	ch := make(chan struct{})
	w.hold.Store(&ch)
	var once sync.Once
	return func() {
		once.Do(func() {
			w.hold.Store(nil)
			close(ch)
		})
	}
}

// listen binds every site's ports in block 127.0.<block>.0/24; on failure
// it closes what it opened.
func (w *World) listen(block int) (closers []func(), err error) {
	defer func() {
		if err != nil {
			for _, c := range closers {
				c()
			}
			closers = nil
		}
	}()
	for i, s := range w.sites {
		s.addr = netip.AddrFrom4([4]byte{127, 0, byte(block), byte(i + 1)})
		if s.Unreachable {
			continue
		}
		if s.TLS != TLSNone {
			ln, err := net.Listen("tcp", netip.AddrPortFrom(s.addr, 443).String())
			if err != nil {
				return closers, err
			}
			minVersion := uint16(tls.VersionTLS12)
			if s.WeakTLS {
				minVersion = tls.VersionTLS10
			}
			srv := &http.Server{Handler: w.count(w.site(s)), ErrorLog: log.New(io.Discard, "", 0), ReadHeaderTimeout: 5 * time.Second,
				TLSConfig: &tls.Config{MinVersion: minVersion, GetCertificate: w.certificate(s)}}
			go func() { _ = srv.ServeTLS(ln, "", "") }()
			closers = append(closers, func() { _ = srv.Close() })
		}
		if s.HTTP != HTTPNone {
			ln, err := net.Listen("tcp", netip.AddrPortFrom(s.addr, 80).String())
			if err != nil {
				return closers, err
			}
			h := w.site(s)
			if s.HTTP == HTTPRedirect {
				h = http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
					http.Redirect(rw, r, "https://"+r.Host+r.URL.RequestURI(), http.StatusMovedPermanently)
				})
			}
			srv := &http.Server{Handler: w.count(h), ErrorLog: log.New(io.Discard, "", 0), ReadHeaderTimeout: 5 * time.Second}
			go func() { _ = srv.Serve(ln) }()
			closers = append(closers, func() { _ = srv.Close() })
		}
	}
	return closers, nil
}

func (w *World) count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		n := w.inflight.Add(1)
		defer w.inflight.Add(-1)
		for {
			p := w.peak.Load()
			if n <= p || w.peak.CompareAndSwap(p, n) {
				break
			}
		}
		if ch := w.hold.Load(); ch != nil {
			select {
			case <-*ch:
			case <-r.Context().Done():
				return
			}
		}
		h.ServeHTTP(rw, r)
	})
}

// site serves a site's pages; mta-sts.<domain> serves the MTA-STS policy.
func (w *World) site(s *Site) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(r.Host)
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		if strings.HasPrefix(host, "mta-sts.") {
			if r.URL.Path != "/.well-known/mta-sts.txt" || s.MTASTSPolicy == "" {
				http.NotFound(rw, r)
				return
			}
			rw.Header().Set("Content-Type", "text/plain")
			_, _ = io.WriteString(rw, s.MTASTSPolicy)
			return
		}
		for k, v := range s.Headers {
			rw.Header().Set(k, v)
		}
		switch r.URL.Path {
		case "/":
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(rw, s.Home)
		case "/.well-known/security.txt":
			if s.SecurityTxt == "" {
				http.NotFound(rw, r)
				return
			}
			rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = io.WriteString(rw, s.SecurityTxt)
		default:
			http.NotFound(rw, r)
		}
	})
}

// lookup finds the site that answers for a name: its domain, or one label
// in front of it, with an optional www., mta-sts., _dmarc. or _mta-sts.
// first. It returns the site and that first label ("" for none).
func (w *World) lookup(name string) (*Site, string, bool) {
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	for _, s := range w.sites {
		var rest string
		switch {
		case name == s.Domain:
		case strings.HasSuffix(name, "."+s.Domain):
			rest = strings.TrimSuffix(name, "."+s.Domain)
		default:
			continue
		}
		labels := strings.Split(rest, ".")
		special := ""
		if rest != "" {
			switch labels[0] {
			case "www", "mta-sts", "_dmarc", "_mta-sts":
				special, labels = labels[0], labels[1:]
			}
		}
		if len(labels) > 1 {
			return nil, "", false
		}
		return s, special, true
	}
	return nil, "", false
}

func (w *World) serveDNS(rw dns.ResponseWriter, q *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(q)
	m.RecursionAvailable = true
	if len(q.Question) != 1 {
		m.Rcode = dns.RcodeFormatError
		_ = rw.WriteMsg(m)
		return
	}
	qq := q.Question[0]
	s, special, ok := w.lookup(qq.Name)
	if !ok {
		m.Rcode = dns.RcodeNameError
		_ = rw.WriteMsg(m)
		return
	}
	switch s.DNS {
	case DNSTimeout:
		return
	case DNSServfail:
		m.Rcode = dns.RcodeServerFailure
		_ = rw.WriteMsg(m)
		return
	}
	m.AuthenticatedData = s.DNSSEC
	hdr := dns.RR_Header{Name: qq.Name, Rrtype: qq.Qtype, Class: dns.ClassINET, Ttl: 60}
	txt := func(recs []string) {
		for _, r := range recs {
			m.Answer = append(m.Answer, &dns.TXT{Hdr: hdr, Txt: split255(r)})
		}
	}
	switch special {
	case "_dmarc", "_mta-sts":
		recs := s.DMARC
		if special == "_mta-sts" {
			recs = s.MTASTS
		}
		if len(recs) == 0 {
			m.Rcode = dns.RcodeNameError
		} else if qq.Qtype == dns.TypeTXT {
			txt(recs)
		}
	default:
		switch qq.Qtype {
		case dns.TypeA:
			m.Answer = append(m.Answer, &dns.A{Hdr: hdr, A: s.addr.AsSlice()})
		case dns.TypeTXT:
			if special == "" {
				txt(s.TXT)
			}
		case dns.TypeMX:
			for i, mx := range s.MX {
				if special == "" {
					m.Answer = append(m.Answer, &dns.MX{Hdr: hdr, Preference: uint16(10 * (i + 1)), Mx: dns.Fqdn(mx)})
				}
			}
		case dns.TypeCAA:
			for _, c := range s.CAA {
				tag, val, _ := strings.Cut(c, " ")
				if special == "" {
					m.Answer = append(m.Answer, &dns.CAA{Hdr: hdr, Tag: tag, Value: val})
				}
			}
		}
	}
	_ = rw.WriteMsg(m)
}

// split255 cuts a TXT record into strings of at most 255 bytes, as a zone
// must, so the reader has to join them.
func split255(s string) []string {
	var out []string
	for len(s) > 255 {
		out, s = append(out, s[:255]), s[255:]
	}
	return append(out, s)
}

func (w *World) newCA(dir string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Vetted Scan Test CA"},
		NotBefore: time.Now().Add(-10 * 365 * 24 * time.Hour), NotAfter: time.Now().Add(10 * 365 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	if w.ca, err = x509.ParseCertificate(der); err != nil {
		return err
	}
	w.caKey = key
	w.Roots = x509.NewCertPool()
	w.Roots.AddCert(w.ca)
	w.CAFile = filepath.Join(dir, "scantest-ca.pem")
	return os.WriteFile(w.CAFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
}

type certKey struct {
	mode TLSMode
	name string
}

// certificate issues the site's certificate for the name the client asks
// for; the MTA-STS policy host always gets a valid one.
func (w *World) certificate(s *Site) func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		name := strings.ToLower(hello.ServerName)
		if name == "" {
			name = s.Domain
		}
		mode := s.TLS
		if strings.HasPrefix(name, "mta-sts.") {
			mode = TLSValid
		}
		k := certKey{mode, name}
		if c, ok := w.certs.Load(k); ok {
			return c.(*tls.Certificate), nil
		}
		c, err := w.issue(mode, name)
		if err != nil {
			return nil, err
		}
		w.certs.Store(k, c)
		return c, nil
	}
}

func (w *World) issue(mode TLSMode, name string) (*tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: name}, DNSNames: []string{name},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(90 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	parent, signer := w.ca, w.caKey
	switch mode {
	case TLSExpired:
		tmpl.NotBefore, tmpl.NotAfter = now.Add(-90*24*time.Hour), now.Add(-24*time.Hour)
	case TLSExpiring:
		tmpl.NotAfter = now.Add(10*24*time.Hour + time.Hour)
	case TLSSelfSigned:
		parent, signer = tmpl, key
	case TLSMismatch:
		tmpl.Subject.CommonName, tmpl.DNSNames = "other.invalid", []string{"other.invalid"}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, signer)
	if err != nil {
		return nil, fmt.Errorf("issue %s: %w", name, err)
	}
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
