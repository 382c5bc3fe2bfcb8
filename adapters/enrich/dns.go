package enrich

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/miekg/dns"
)

// DNS defaults.
const (
	DefaultDNSTimeout = 5 * time.Second
	// dnsAttempts is how often a query is sent to one server before the
	// next one is tried: one lost UDP datagram must not read as a failure.
	dnsAttempts = 2
	// ednsSize is the EDNS0 buffer size (the DNS flag day 2020 value).
	ednsSize = 1232
)

// DNSConfig configures the scanner's DNS client.
type DNSConfig struct {
	// Server is host:port of the recursive resolver to ask
	// (VETTED_SCAN_RESOLVER); empty means the name servers of
	// /etc/resolv.conf, in order.
	Server string
	// Timeout bounds one query attempt; DefaultDNSTimeout when zero.
	Timeout time.Duration
}

// DNS asks a recursive resolver through github.com/miekg/dns: TXT, CAA, MX,
// A and AAAA, over UDP with a TCP retry for truncated answers, and reports
// the AD (authenticated data) bit the resolver sets on DNSSEC-validated
// answers (the query sets AD, RFC 6840 §5.7).
type DNS struct {
	servers []string
	timeout time.Duration
}

// ErrDNS marks a DNS question that got no usable answer (timeout, SERVFAIL,
// REFUSED, no resolver): the answer is unknown, which is not the same as
// "no records". Its message names the question, the server and the reason.
var ErrDNS = errors.New("dns")

// NewDNS builds a DNS client. Without Server it reads the name servers of
// /etc/resolv.conf, and without those it asks localhost, as Go does.
func NewDNS(cfg DNSConfig) (*DNS, error) {
	d := &DNS{timeout: cfg.Timeout}
	if d.timeout <= 0 {
		d.timeout = DefaultDNSTimeout
	}
	if cfg.Server != "" {
		if _, _, err := net.SplitHostPort(cfg.Server); err != nil {
			return nil, fmt.Errorf("dns: resolver %q is not host:port: %w", cfg.Server, err)
		}
		d.servers = []string{cfg.Server}
		return d, nil
	}
	if cc, err := dns.ClientConfigFromFile("/etc/resolv.conf"); err == nil {
		for _, s := range cc.Servers {
			d.servers = append(d.servers, net.JoinHostPort(s, cc.Port))
		}
	}
	if len(d.servers) == 0 {
		// What the Go resolver assumes without a usable resolv.conf.
		d.servers = []string{"127.0.0.1:53", "[::1]:53"}
	}
	return d, nil
}

// answer is the outcome of one question.
type answer struct {
	// rrs are the answer records of the asked type (CNAMEs left out).
	rrs []dns.RR
	// nxdomain reports that the name does not exist.
	nxdomain bool
	// ad reports that the resolver validated the answer with DNSSEC.
	ad bool
}

// query asks one question. NXDOMAIN and NODATA are answers; anything that
// leaves the answer unknown is an error wrapping ErrDNS.
func (d *DNS) query(ctx context.Context, name string, qtype uint16) (answer, error) {
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(name), qtype)
	m.RecursionDesired = true
	m.AuthenticatedData = true
	m.SetEdns0(ednsSize, false)
	q := dns.TypeToString[qtype] + " " + strings.TrimSuffix(name, ".")
	var last error
servers:
	for _, server := range d.servers {
		for range dnsAttempts {
			r, err := d.exchange(ctx, m, server)
			if err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					err = fmt.Errorf("no answer within %s (timeout)", d.timeout)
				}
				last = fmt.Errorf("%w: %s: %s: %v", ErrDNS, q, server, err)
				if ctx.Err() != nil {
					return answer{}, last
				}
				continue
			}
			switch r.Rcode {
			case dns.RcodeSuccess, dns.RcodeNameError:
			default:
				// The server answered: asking it again will not help.
				last = fmt.Errorf("%w: %s: %s answered %s", ErrDNS, q, server, dns.RcodeToString[r.Rcode])
				continue servers
			}
			a := answer{nxdomain: r.Rcode == dns.RcodeNameError, ad: r.AuthenticatedData}
			for _, rr := range r.Answer {
				if rr.Header().Rrtype == qtype {
					a.rrs = append(a.rrs, rr)
				}
			}
			return a, nil
		}
	}
	return answer{}, last
}

func (d *DNS) exchange(ctx context.Context, m *dns.Msg, server string) (*dns.Msg, error) {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	c := &dns.Client{Net: "udp", Timeout: d.timeout, UDPSize: ednsSize}
	r, _, err := c.ExchangeContext(ctx, m, server)
	if err == nil && r.Truncated {
		c.Net = "tcp"
		r, _, err = c.ExchangeContext(ctx, m, server)
	}
	return r, err
}

// txt returns the TXT records of an answer, each with its strings joined
// (RFC 7208 §3.3: a record split in several strings is one string).
func (a answer) txt() []string {
	var out []string
	for _, rr := range a.rrs {
		if t, ok := rr.(*dns.TXT); ok {
			out = append(out, strings.Join(t.Txt, ""))
		}
	}
	return out
}

// LookupHost returns the IPv4 then IPv6 addresses of host. A name that
// does not exist, or has no address, is an error too: nothing can be
// connected to.
func (d *DNS) LookupHost(ctx context.Context, host string) ([]netip.Addr, error) {
	var out []netip.Addr
	var errs []error
	nx := 0
	for _, t := range []uint16{dns.TypeA, dns.TypeAAAA} {
		a, err := d.query(ctx, host, t)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if a.nxdomain {
			nx++
		}
		for _, rr := range a.rrs {
			var ip net.IP
			switch r := rr.(type) {
			case *dns.A:
				ip = r.A
			case *dns.AAAA:
				ip = r.AAAA
			}
			if addr, ok := netip.AddrFromSlice(ip); ok {
				out = append(out, addr.Unmap())
			}
		}
	}
	switch {
	case len(out) > 0:
		return out, nil
	case len(errs) > 0:
		return nil, joinErrors(errs)
	case nx > 0:
		return nil, noSuchHost(host + " does not exist (NXDOMAIN)")
	}
	return nil, noSuchHost(host + " has no A or AAAA record")
}

// ErrNoSuchHost marks a host name that resolved to nothing.
var ErrNoSuchHost = errors.New("no such host")

// noSuchHost is an ErrNoSuchHost that says which host and why.
type noSuchHost string

func (e noSuchHost) Error() string        { return string(e) }
func (e noSuchHost) Is(target error) bool { return target == ErrNoSuchHost }

// joinErrors joins errors on one line (errors.Join uses newlines, which
// have no place in an instance's evidence); all stay matchable.
func joinErrors(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return fmt.Errorf("%w; %w", errs[0], joinErrors(errs[1:]))
}
