package enrich_test

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/miekg/dns"
	"github.com/vetted-dev/vetted/adapters/enrich"
)

// dnsServer answers A questions on 127.0.0.1 with 192.0.2.<n>, n the
// number of labels of the name, late for names starting with "slow.", and
// remembers the source ports questions came from.
type dnsServer struct {
	addr  string
	mu    sync.Mutex
	ports map[int]int
}

func startDNS(t *testing.T, late time.Duration) *dnsServer {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &dnsServer{addr: pc.LocalAddr().String(), ports: map[int]int{}}
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) {
		s.mu.Lock()
		s.ports[w.RemoteAddr().(*net.UDPAddr).Port]++
		s.mu.Unlock()
		m := new(dns.Msg)
		m.SetReply(q)
		name := q.Question[0].Name
		if q.Question[0].Qtype == dns.TypeA {
			m.Answer = append(m.Answer, &dns.A{Hdr: dns.RR_Header{Name: name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 60},
				A: net.IPv4(192, 0, 2, byte(dns.CountLabel(name)))})
		}
		if strings.HasPrefix(name, "slow.") {
			time.Sleep(late)
		}
		_ = w.WriteMsg(m)
	})}
	started := make(chan struct{})
	srv.NotifyStartedFunc = func() { close(started) }
	go func() { _ = srv.ActivateAndServe() }()
	<-started
	t.Cleanup(func() { _ = srv.Shutdown() })
	return s
}

func (s *dnsServer) sourcePorts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.ports)
}

// TestDNSReusesSockets asks 130 questions one after another: they share
// sockets, but no socket carries more than 64 of them.
func TestDNSReusesSockets(t *testing.T) {
	t.Parallel()
	s := startDNS(t, 0)
	d, err := enrich.NewDNS(enrich.DNSConfig{Server: s.addr, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for range 65 { // A and AAAA each: 130 questions
		if _, err := d.LookupHost(context.Background(), "a.b.test"); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.sourcePorts(); n < 3 || n > 6 {
		t.Fatalf("130 questions came from %d source ports, want 3 (64 questions each at most, reused otherwise)", n)
	}
}

// TestDNSLateAnswerMeetsNoOtherQuestion lets a question time out, then
// asks others: each gets its own answer, never the late one.
func TestDNSLateAnswerMeetsNoOtherQuestion(t *testing.T) {
	t.Parallel()
	s := startDNS(t, 300*time.Millisecond)
	d, err := enrich.NewDNS(enrich.DNSConfig{Server: s.addr, Timeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.LookupHost(context.Background(), "slow.test"); err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Fatalf("slow.test: %v, want a timeout", err)
	}
	for range 10 {
		addrs, err := d.LookupHost(context.Background(), "one.two.three.test")
		if err != nil || len(addrs) != 1 || addrs[0].String() != "192.0.2.4" {
			t.Fatalf("one.two.three.test = %v, %v; want 192.0.2.4 (slow.test's late answer is 192.0.2.2)", addrs, err)
		}
	}
}
