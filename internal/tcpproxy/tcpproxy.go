// Package tcpproxy is a TCP proxy on loopback for fault tests: it forwards
// connections to a server the test uses, and can take that server "down"
// for the clients behind it (every open connection is cut, and a new one is
// closed as soon as it is accepted) and bring it back, without touching the
// server itself or anyone else's connections to it.
package tcpproxy

import (
	"errors"
	"io"
	"net"
	"sync"
	"testing"
)

// Proxy forwards connections from its loopback address to a target.
type Proxy struct {
	target string
	ln     net.Listener

	mu      sync.Mutex
	down    bool
	conns   map[net.Conn]struct{} // both ends of every open connection
	refused int
	wg      sync.WaitGroup
}

// Start runs a proxy to target on a free loopback port until the test ends.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("tcpproxy: %v", err)
	}
	p := &Proxy{target: target, ln: ln, conns: map[net.Conn]struct{}{}}
	p.wg.Go(p.accept)
	t.Cleanup(p.Close)
	return p
}

// Addr is the proxy's host:port, for the client to dial instead of target.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Cut takes the target down for the proxy's clients: open connections are
// closed, and new ones are closed once accepted, until Restore.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		_ = c.Close()
	}
}

// Restore forwards new connections again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = false
}

// Refused counts the connections closed on arrival because the target was
// down: the clients' attempts during outages.
func (p *Proxy) Refused() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refused
}

// Close stops the proxy and closes every connection.
func (p *Proxy) Close() {
	_ = p.ln.Close()
	p.Cut()
	p.wg.Wait()
}

func (p *Proxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed
		}
		p.wg.Go(func() { p.forward(c) })
	}
}

// forward pipes c to a new connection to the target, both ways, until
// either side closes or Cut closes both.
func (p *Proxy) forward(c net.Conn) {
	defer c.Close()
	if !p.track(c) {
		p.mu.Lock()
		p.refused++
		p.mu.Unlock()
		return
	}
	defer p.untrack(c)
	s, err := net.Dial("tcp", p.target)
	if err != nil {
		return
	}
	defer s.Close()
	if !p.track(s) {
		return
	}
	defer p.untrack(s)
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		_, err := io.Copy(dst, src)
		if err == nil || errors.Is(err, net.ErrClosed) {
			// One side is done: let the other see EOF.
			if tc, ok := dst.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
			}
		}
		done <- struct{}{}
	}
	go pipe(s, c)
	go pipe(c, s)
	<-done
	<-done
}

// track registers an open connection; it refuses while the target is down.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.conns, c)
}
