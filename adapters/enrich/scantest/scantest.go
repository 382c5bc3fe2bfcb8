// Package scantest is a fixture world for the security scanner: an
// in-process DNS server (github.com/miekg/dns) that serves a zone per
// vendor, and each vendor's web site on its own loopback address, ports 80
// and 443, with certificates from a test CA. The scanner is pointed at it
// with its resolver (World.Resolver) and trusted roots (World.Roots or
// World.CAFile); nothing leaves the machine.
//
// The world runs on the test's clock (the now given to Start), never on
// the real one: its CA, the certificates it issues (an expiring one
// expires 10 days after that clock), the Expires of security.txt and the
// DNSSEC signatures are dated from it, so a scanner judging them with the
// same clock sees what the test means whatever the date.
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
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
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
	TLSValid        TLSMode = iota // a certificate from the test CA for the name asked (SNI)
	TLSNone                        // nothing listens on 443
	TLSExpired                     // from the CA, expired a day before the world's clock
	TLSExpiring                    // from the CA, expires 10 days (and an hour) after the world's clock
	TLSSelfSigned                  // self-signed
	TLSMismatch                    // from the CA, for another name
	TLSWeakKey                     // from the CA, with an RSA 1024-bit key
	TLSRSA                         // from the CA, with an RSA 2048-bit key
	TLSSHA1                        // from the CA, signed with ECDSA-SHA1
	TLSIncomplete                  // from an intermediate CA the server does not send; the leaf's AIA names it (http://aia.<domain>/issuer.cer)
	TLSIntermediate                // from an intermediate CA the server sends after the leaf
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
	// SecurityTxtExpiresIn, when not zero, ends the security.txt served
	// with an Expires field that long after the world's clock at the time
	// of the request (before it when negative).
	SecurityTxtExpiresIn time.Duration

	// Cookies are Set-Cookie header values of the home page.
	Cookies []string
	// Files are served with 200 at their paths ("/.env"); any other path
	// answers 404, or 200 with CatchAll when it is set (a soft 404).
	Files    map[string]string
	CatchAll string

	DNS DNSMode
	// DNSSEC signs the zone: DNSKEY at the apex, DS for its parent, RRSIGs
	// on answers to questions with the DO flag, and the AD bit set on every
	// answer, as a validating resolver would, unless Unvalidated (a
	// resolver that does not validate).
	DNSSEC, Unvalidated bool
	// TXT, DMARC (at _dmarc) and MTASTS (at _mta-sts) are TXT records; MX
	// are mail exchanger names; CAA are records as "tag value".
	TXT, DMARC, MTASTS, MX, CAA []string
	// Records are TXT records at names under the domain, by the labels in
	// front of it ("selector1._domainkey", "_spf").
	Records map[string][]string
	// MTASTSPolicy is served at https://mta-sts.<domain>/.well-known/mta-sts.txt
	// (404 when empty).
	MTASTSPolicy string

	// NS are the name servers the zone names at its apex (a parked
	// domain's are its parking service's).
	NS []string
	// CertOrg is the organization (O) in the subject of the site's
	// certificates, as an OV or EV certificate carries it.
	CertOrg string
	// Redirect, when set, answers every request for a page of the site
	// with a 301 to it.
	Redirect string

	addr   netip.Addr
	dnskey *dns.DNSKEY
	zsk    crypto.Signer
}

// Good is a hardened site: HTTPS only, preload-ready HSTS, a strict CSP,
// nosniff, a current security.txt, policy and trust links, a cookie with
// Secure, HttpOnly and SameSite, SPF -all, DMARC reject, a 2048-bit DKIM
// key at selector1, an enforced MTA-STS policy, CAA, a signed zone.
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
		SecurityTxt:          "Contact: mailto:security@" + domain + "\n",
		SecurityTxtExpiresIn: 180 * 24 * time.Hour,
		Cookies:              []string{"session=s3cr3t; Path=/; Secure; HttpOnly; SameSite=Lax"},
		Records:              map[string][]string{"selector1._domainkey": {DKIMRecord(2048)}},
		DNSSEC:               true,
		TXT:                  []string{"v=spf1 mx -all"},
		DMARC:                []string{"v=DMARC1; p=reject; rua=mailto:dmarc@" + domain},
		MX:                   []string{"mx." + domain},
		MTASTS:               []string{"v=STSv1; id=20261101"},
		MTASTSPolicy:         "version: STSv1\nmode: enforce\nmx: mx." + domain + "\nmax_age: 604800\n",
		CAA:                  []string{"issue letsencrypt.org"},
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

// DKIMRecord is a DKIM key record (RFC 6376 §3.6.1) of an RSA key with a
// modulus of exactly bits bits (a random number: nothing is signed with
// it, so it need not be a real key, which keeps keys under 1024 bits,
// refused by crypto/rsa, possible).
func DKIMRecord(bits int) string {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), uint(bits-1)))
	if err != nil {
		panic(err)
	}
	n.SetBit(n, bits-1, 1).SetBit(n, 0, 1)
	der, err := x509.MarshalPKIXPublicKey(&rsa.PublicKey{N: n, E: 65537})
	if err != nil {
		panic(err)
	}
	return "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(der)
}

// World is a running fixture world.
type World struct {
	// Resolver is host:port of the DNS server.
	Resolver string
	// Roots trusts the test CA (and only it); CAFile holds it as PEM.
	Roots  *x509.CertPool
	CAFile string

	now             func() time.Time
	ca, inter       *x509.Certificate
	caKey, interKey *ecdsa.PrivateKey
	sites           []*Site
	certs           sync.Map // certKey -> *tls.Certificate

	inflight, peak atomic.Int64
	hold           atomic.Pointer[chan struct{}]
	tlsModes       sync.Map // domain -> TLSMode, set by SetTLS
}

// SetTLS changes what the site of domain does on port 443 from the next
// handshake on (a certificate swapped for an expiring one between two
// scans, say). Any mode but TLSNone: whether 443 listens is fixed at Start.
func (w *World) SetTLS(domain string, mode TLSMode) {
	if err := w.makeKey(mode); err != nil {
		panic(fmt.Sprintf("scantest: RSA key: %v", err))
	}
	w.tlsModes.Store(strings.ToLower(domain), mode)
}

// Start builds the world of the given sites on the test's clock now (the
// clock the code under test is given, never time.Now beside a fixed or
// shifted one); it stops when t ends.
func Start(t testing.TB, now func() time.Time, sites ...Site) *World {
	t.Helper()
	if now == nil {
		t.Fatal("scantest: Start needs the test's clock")
	}
	w := &World{now: now}
	if err := w.newCA(t.TempDir()); err != nil {
		t.Fatalf("scantest: CA: %v", err)
	}
	for i := range sites {
		s := sites[i]
		s.Domain = strings.ToLower(s.Domain)
		if err := w.makeKey(s.TLS); err != nil {
			t.Fatalf("scantest: RSA key of %s: %v", s.Domain, err)
		}
		if s.DNSSEC {
			if err := s.sign(); err != nil {
				t.Fatalf("scantest: zone key of %s: %v", s.Domain, err)
			}
		}
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
			h = w.aia(h)
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

// aia serves the intermediate CA at http://aia.<domain>/issuer.cer (DER),
// the caIssuers URL of TLSIncomplete certificates, and passes the rest on.
func (w *World) aia(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(strings.ToLower(r.Host), "aia.") && r.URL.Path == "/issuer.cer" {
			rw.Header().Set("Content-Type", "application/pkix-cert")
			_, _ = rw.Write(w.inter.Raw)
			return
		}
		next.ServeHTTP(rw, r)
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
		if s.Redirect != "" {
			http.Redirect(rw, r, s.Redirect, http.StatusMovedPermanently)
			return
		}
		for k, v := range s.Headers {
			rw.Header().Set(k, v)
		}
		switch r.URL.Path {
		case "/":
			for _, c := range s.Cookies {
				rw.Header().Add("Set-Cookie", c)
			}
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = io.WriteString(rw, s.Home)
		case "/.well-known/security.txt":
			if s.SecurityTxt == "" {
				http.NotFound(rw, r)
				return
			}
			rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
			body := s.SecurityTxt
			if s.SecurityTxtExpiresIn != 0 {
				body += "Expires: " + w.now().Add(s.SecurityTxtExpiresIn).UTC().Format(time.RFC3339) + "\n"
			}
			_, _ = io.WriteString(rw, body)
		default:
			if body, ok := s.Files[r.URL.Path]; ok {
				rw.Header().Set("Content-Type", "text/plain; charset=utf-8")
				_, _ = io.WriteString(rw, body)
				return
			}
			if s.CatchAll != "" {
				rw.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = io.WriteString(rw, s.CatchAll)
				return
			}
			http.NotFound(rw, r)
		}
	})
}

// lookup finds the site that answers for a name: its domain, or one label
// in front of it, with an optional www., mta-sts., _dmarc. or _mta-sts.
// first, or one of its Records names (before the domain or that label).
// It returns the site and that first label ("" for none; "rec:<name>" for
// a Records name).
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
		for name := range s.Records {
			if rest == name || strings.HasPrefix(rest, name+".") && !strings.Contains(rest[len(name)+1:], ".") {
				return s, "rec:" + name, true
			}
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
	m.AuthenticatedData = s.DNSSEC && !s.Unvalidated
	do := false
	if opt := q.IsEdns0(); opt != nil {
		do = opt.Do()
		m.SetEdns0(1232, do)
	}
	hdr := dns.RR_Header{Name: qq.Name, Rrtype: qq.Qtype, Class: dns.ClassINET, Ttl: 60}
	txt := func(recs []string) {
		for _, r := range recs {
			m.Answer = append(m.Answer, &dns.TXT{Hdr: hdr, Txt: split255(r)})
		}
	}
	if rec, ok := strings.CutPrefix(special, "rec:"); ok {
		if qq.Qtype == dns.TypeTXT {
			txt(s.Records[rec])
		}
		s.signAnswer(m, do, w.now())
		_ = rw.WriteMsg(m)
		return
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
		case dns.TypeNS:
			for _, ns := range s.NS {
				if special == "" {
					m.Answer = append(m.Answer, &dns.NS{Hdr: hdr, Ns: dns.Fqdn(ns)})
				}
			}
		case dns.TypeCAA:
			for _, c := range s.CAA {
				tag, val, _ := strings.Cut(c, " ")
				if special == "" {
					m.Answer = append(m.Answer, &dns.CAA{Hdr: hdr, Tag: tag, Value: val})
				}
			}
		case dns.TypeDNSKEY:
			if special == "" && s.dnskey != nil {
				k := *s.dnskey
				k.Hdr = hdr
				m.Answer = append(m.Answer, &k)
			}
		case dns.TypeDS:
			if special == "" && s.dnskey != nil {
				k := *s.dnskey
				k.Hdr.Name = qq.Name
				if ds := k.ToDS(dns.SHA256); ds != nil {
					ds.Hdr = hdr
					m.Answer = append(m.Answer, ds)
				}
			}
		}
	}
	s.signAnswer(m, do, w.now())
	_ = rw.WriteMsg(m)
}

// sign gives a DNSSEC site its zone key (ECDSA P-256, RFC 6605).
func (s *Site) sign() error {
	k := &dns.DNSKEY{Hdr: dns.RR_Header{Name: dns.Fqdn(s.Domain), Rrtype: dns.TypeDNSKEY, Class: dns.ClassINET, Ttl: 60},
		Flags: 257, Protocol: 3, Algorithm: dns.ECDSAP256SHA256}
	priv, err := k.Generate(256)
	if err != nil {
		return err
	}
	signer, ok := priv.(crypto.Signer)
	if !ok {
		return fmt.Errorf("zone key %T is not a crypto.Signer", priv)
	}
	s.dnskey, s.zsk = k, signer
	return nil
}

// signAnswer adds the RRSIG of the answer's RRset when the zone is signed
// and the question asked for DNSSEC records (DO), valid around now.
func (s *Site) signAnswer(m *dns.Msg, do bool, now time.Time) {
	if !do || s.zsk == nil || len(m.Answer) == 0 {
		return
	}
	h := m.Answer[0].Header()
	sig := &dns.RRSIG{Hdr: dns.RR_Header{Name: h.Name, Rrtype: dns.TypeRRSIG, Class: dns.ClassINET, Ttl: h.Ttl},
		TypeCovered: h.Rrtype, Algorithm: s.dnskey.Algorithm, Labels: uint8(dns.CountLabel(h.Name)), OrigTtl: h.Ttl,
		Expiration: uint32(now.Add(24 * time.Hour).Unix()), Inception: uint32(now.Add(-time.Hour).Unix()),
		KeyTag: s.dnskey.KeyTag(), SignerName: dns.Fqdn(s.Domain)}
	if err := sig.Sign(s.zsk, m.Answer); err == nil {
		m.Answer = append(m.Answer, sig)
	}
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
		NotBefore: w.now().Add(-10 * 365 * 24 * time.Hour), NotAfter: w.now().Add(10 * 365 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	if w.ca, err = x509.ParseCertificate(der); err != nil {
		return err
	}
	w.caKey = key
	if w.interKey, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader); err != nil {
		return err
	}
	itmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "Vetted Scan Test Intermediate CA"},
		NotBefore: tmpl.NotBefore, NotAfter: tmpl.NotAfter, IsCA: true, BasicConstraintsValid: true, MaxPathLenZero: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	ider, err := x509.CreateCertificate(rand.Reader, itmpl, w.ca, &w.interKey.PublicKey, key)
	if err != nil {
		return err
	}
	if w.inter, err = x509.ParseCertificate(ider); err != nil {
		return err
	}
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
		if m, ok := w.tlsModes.Load(s.Domain); ok {
			mode = m.(TLSMode)
		}
		if strings.HasPrefix(name, "mta-sts.") {
			mode = TLSValid
		}
		k := certKey{mode, name}
		if c, ok := w.certs.Load(k); ok {
			return c.(*tls.Certificate), nil
		}
		c, err := w.issue(mode, name, s.Domain, s.CertOrg)
		if err != nil {
			return nil, err
		}
		w.certs.Store(k, c)
		return c, nil
	}
}

func (w *World) issue(mode TLSMode, name, domain, org string) (*tls.Certificate, error) {
	var key crypto.Signer
	var err error
	if bits := rsaBits(mode); bits != 0 {
		key, err = w.rsaKey(bits)
	} else {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		return nil, err
	}
	now := w.now()
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{SerialNumber: serial, Subject: pkix.Name{CommonName: name}, DNSNames: []string{name},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(90 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	if org != "" {
		tmpl.Subject.Organization = []string{org}
	}
	var parent *x509.Certificate
	var signer crypto.Signer
	parent, signer = w.ca, w.caKey
	switch mode {
	case TLSExpired:
		tmpl.NotBefore, tmpl.NotAfter = now.Add(-90*24*time.Hour), now.Add(-24*time.Hour)
	case TLSExpiring:
		tmpl.NotAfter = now.Add(10*24*time.Hour + time.Hour)
	case TLSSelfSigned:
		parent, signer = tmpl, key
	case TLSMismatch:
		tmpl.Subject.CommonName, tmpl.DNSNames = "other.invalid", []string{"other.invalid"}
	case TLSSHA1:
		tmpl.SignatureAlgorithm = x509.ECDSAWithSHA1
	case TLSIncomplete, TLSIntermediate:
		parent, signer = w.inter, w.interKey
		tmpl.IssuingCertificateURL = []string{"http://aia." + domain + "/issuer.cer"}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, key.Public(), signer)
	if err != nil {
		return nil, fmt.Errorf("issue %s: %w", name, err)
	}
	chain := [][]byte{der}
	if mode == TLSIntermediate {
		chain = append(chain, w.inter.Raw)
	}
	return &tls.Certificate{Certificate: chain, PrivateKey: key}, nil
}

// rsaKeys holds the RSA keys of each size, made once per test binary:
// making a 2048-bit key takes seconds on a busy machine under -race, which
// must not happen inside a handshake the scanner times.
var rsaKeys sync.Map // bits -> func() (*rsa.PrivateKey, error)

// rsaKey is the RSA key of that size, made once.
func (w *World) rsaKey(bits int) (*rsa.PrivateKey, error) {
	key, _ := rsaKeys.LoadOrStore(bits, sync.OnceValues(func() (*rsa.PrivateKey, error) { return rsa.GenerateKey(rand.Reader, bits) }))
	return key.(func() (*rsa.PrivateKey, error))()
}

// rsaBits is the size of the RSA key a TLS mode uses, or 0.
func rsaBits(mode TLSMode) int {
	switch mode {
	case TLSWeakKey:
		return 1024
	case TLSRSA:
		return 2048
	}
	return 0
}

// makeKey makes the RSA key a mode needs before any handshake asks for it.
func (w *World) makeKey(mode TLSMode) error {
	if bits := rsaBits(mode); bits != 0 {
		_, err := w.rsaKey(bits)
		return err
	}
	return nil
}

// Now is the world's clock: give it (or the clock given to Start) to the
// code under test, so that both agree on the date.
func (w *World) Now() time.Time { return w.now() }
