package tcpproxy_test

import (
	"bufio"
	"io"
	"net"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/internal/tcpproxy"
)

// echo runs a line echo server until the test ends.
func echo(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

// roundTrip sends a line on c and reads it back.
func roundTrip(c net.Conn) error {
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, "ping\n"); err != nil {
		return err
	}
	_, err := bufio.NewReader(c).ReadString('\n')
	return err
}

// TestCutAndRestore: through the proxy, the server answers; after Cut an
// open connection is dead and a new one is closed at once; after Restore a
// new connection answers again.
func TestCutAndRestore(t *testing.T) {
	t.Parallel()
	p := tcpproxy.Start(t, echo(t))
	dial := func() net.Conn {
		c, err := net.Dial("tcp", p.Addr())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		return c
	}
	open := dial()
	if err := roundTrip(open); err != nil {
		t.Fatalf("before the cut: %v", err)
	}
	p.Cut()
	if err := roundTrip(open); err == nil {
		t.Fatal("an open connection still answers after the cut")
	}
	if err := roundTrip(dial()); err == nil {
		t.Fatal("a new connection answers while cut")
	}
	if n := p.Refused(); n != 1 {
		t.Fatalf("refused %d connections, want 1", n)
	}
	p.Restore()
	if err := roundTrip(dial()); err != nil {
		t.Fatalf("after restore: %v", err)
	}
}
