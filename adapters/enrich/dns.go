package enrich

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
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
	// idle keeps connected UDP sockets per server for the next question:
	// a socket per question costs more than the question.
	mu   sync.Mutex
	idle map[string][]*udpConn
}

// udpConn is a connected UDP socket to one server and how many questions
// it has carried.
type udpConn struct {
	*dns.Conn
	uses int
}

const (
	// udpMaxUses is how many questions one socket carries before it is
	// closed, so that its source port keeps changing (the question ID and
	// a connected socket that takes answers only from the server do the
	// rest against spoofed answers).
	udpMaxUses = 64
	// udpMaxIdle is how many idle sockets are kept per server.
	udpMaxIdle = 64
)

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
	return d.ask(ctx, name, qtype, false)
}

// queryDNSSEC asks one question with the DO flag (RFC 3225), so the
// resolver returns the DNSSEC records (RRSIG) with the answer.
func (d *DNS) queryDNSSEC(ctx context.Context, name string, qtype uint16) (answer, error) {
	return d.ask(ctx, name, qtype, true)
}

func (d *DNS) ask(ctx context.Context, name string, qtype uint16, do bool) (answer, error) {
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(name), qtype)
	m.RecursionDesired = true
	m.AuthenticatedData = true
	m.SetEdns0(ednsSize, do)
	q := dns.TypeToString[qtype] + " " + strings.TrimSuffix(name, ".")
	var last error
servers:
	for _, server := range d.servers {
		for range dnsAttempts {
			r, err := d.exchange(ctx, m, server)
			if err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					last = fmt.Errorf("%w: %s: %s: %w", ErrDNS, q, server, dnsTimeout(d.timeout))
				} else {
					last = fmt.Errorf("%w: %s: %s: %v", ErrDNS, q, server, err)
				}
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
	co, err := d.udp(ctx, c, server)
	if err != nil {
		return nil, err
	}
	r, _, err := c.ExchangeWithConnContext(ctx, m, co.Conn)
	if err == nil && len(r.Question) > 0 && (!strings.EqualFold(r.Question[0].Name, m.Question[0].Name) || r.Question[0].Qtype != m.Question[0].Qtype) {
		err = errors.New("the answer is to another question")
	}
	d.release(server, co, err == nil)
	if err == nil && r.Truncated {
		c.Net = "tcp"
		r, _, err = c.ExchangeContext(ctx, m, server)
	}
	return r, err
}

// udp returns an idle socket to server, or a new one.
func (d *DNS) udp(ctx context.Context, c *dns.Client, server string) (*udpConn, error) {
	d.mu.Lock()
	if idle := d.idle[server]; len(idle) > 0 {
		co := idle[len(idle)-1]
		d.idle[server] = idle[:len(idle)-1]
		d.mu.Unlock()
		return co, nil
	}
	d.mu.Unlock()
	co, err := c.DialContext(ctx, server)
	if err != nil {
		return nil, err
	}
	return &udpConn{Conn: co}, nil
}

// release keeps a socket that carried a question cleanly for the next
// one, and closes it otherwise (a late answer must not meet a new
// question) or when it has been used enough.
func (d *DNS) release(server string, co *udpConn, ok bool) {
	co.uses++
	if ok && co.uses < udpMaxUses {
		d.mu.Lock()
		if len(d.idle[server]) < udpMaxIdle {
			if d.idle == nil {
				d.idle = map[string][]*udpConn{}
			}
			d.idle[server] = append(d.idle[server], co)
			d.mu.Unlock()
			return
		}
		d.mu.Unlock()
	}
	_ = co.Close()
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

// hostCache remembers the answers of LookupHost for the context it is in
// (one scan): the scan connects to its host several times, and asking DNS
// each time would only repeat the question. The fetch policy still checks
// every address at connect time.
type hostCache struct {
	mu    sync.Mutex
	hosts map[string]*hostAnswer
}

type hostAnswer struct {
	done  chan struct{}
	addrs []netip.Addr
	err   error
}

type hostCacheKey struct{}

// withHostCache returns a context in which LookupHost asks about each host
// once; lookups of a host already under way wait for its answer.
func withHostCache(ctx context.Context) context.Context {
	return context.WithValue(ctx, hostCacheKey{}, &hostCache{hosts: map[string]*hostAnswer{}})
}

// LookupHost returns the IPv4 then IPv6 addresses of host. A name that
// does not exist, or has no address, is an error too: nothing can be
// connected to. Within a scan each host is asked about once.
func (d *DNS) LookupHost(ctx context.Context, host string) ([]netip.Addr, error) {
	c, _ := ctx.Value(hostCacheKey{}).(*hostCache)
	if c == nil {
		return d.lookupHost(ctx, host)
	}
	key := strings.ToLower(strings.TrimSuffix(host, "."))
	c.mu.Lock()
	a, seen := c.hosts[key]
	if !seen {
		a = &hostAnswer{done: make(chan struct{})}
		c.hosts[key] = a
	}
	c.mu.Unlock()
	if !seen {
		a.addrs, a.err = d.lookupHost(ctx, host)
		close(a.done)
		return a.addrs, a.err
	}
	select {
	case <-a.done:
		return a.addrs, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// lookupHost asks for the A and AAAA records of host side by side.
func (d *DNS) lookupHost(ctx context.Context, host string) ([]netip.Addr, error) {
	types := []uint16{dns.TypeA, dns.TypeAAAA}
	answers := make([]answer, len(types))
	qerrs := make([]error, len(types))
	var wg sync.WaitGroup
	for i, t := range types {
		wg.Go(func() { answers[i], qerrs[i] = d.query(ctx, host, t) })
	}
	wg.Wait()
	var out []netip.Addr
	var errs []error
	nx := 0
	for i := range types {
		a, err := answers[i], qerrs[i]
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

// errDNSTimeout marks a DNS question no server answered in time, so that
// website discovery can tell a slow zone from a broken one; the scan only
// reads the message.
var errDNSTimeout = errors.New("dns timeout")

// dnsTimeout is an errDNSTimeout that says how long was waited.
type dnsTimeout time.Duration

func (e dnsTimeout) Error() string {
	return fmt.Sprintf("no answer within %s (timeout)", time.Duration(e))
}
func (e dnsTimeout) Is(target error) bool { return target == errDNSTimeout }

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
