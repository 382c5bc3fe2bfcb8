package scantest_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich/scantest"
)

// TestWorldRunsOnTheTestsClock: a world started on a clock a year ahead of
// the real one (and one a year back) dates what it serves from that clock,
// never from the real one: the expiring certificate expires 10 days (and
// an hour) after it, the expired one a day before it, the valid one
// verifies at it, and security.txt expires 180 days after it.
func TestWorldRunsOnTheTestsClock(t *testing.T) {
	t.Parallel()
	for _, shift := range []time.Duration{365 * 24 * time.Hour, -365 * 24 * time.Hour} {
		at := time.Now().UTC().Add(shift).Truncate(time.Second)
		clock := func() time.Time { return at }
		expiring, expired := scantest.Good("expiring.test"), scantest.Good("expired.test")
		expiring.TLS, expired.TLS = scantest.TLSExpiring, scantest.TLSExpired
		w := scantest.Start(t, clock, scantest.Good("good.test"), expiring, expired)
		if !w.Now().Equal(at) {
			t.Fatalf("World.Now = %v, want the clock given, %v", w.Now(), at)
		}

		leaf := func(domain string) *x509.Certificate {
			t.Helper()
			conn, err := tls.Dial("tcp", netip.AddrPortFrom(w.Addr(domain), 443).String(),
				&tls.Config{ServerName: domain, InsecureSkipVerify: true}) //nolint:gosec // the certificate is read, then verified below
			if err != nil {
				t.Fatalf("%s: %v", domain, err)
			}
			defer conn.Close()
			return conn.ConnectionState().PeerCertificates[0]
		}
		verify := func(c *x509.Certificate) error {
			_, err := c.Verify(x509.VerifyOptions{Roots: w.Roots, CurrentTime: at})
			return err
		}
		if c := leaf("expiring.test"); !c.NotAfter.Equal(at.Add(10*24*time.Hour+time.Hour)) || verify(c) != nil {
			t.Errorf("shift %v: the expiring certificate ends %v (verified at the clock: %v), want 10 days and an hour after %v",
				shift, c.NotAfter, verify(c), at)
		}
		if c := leaf("expired.test"); !c.NotAfter.Equal(at.Add(-24 * time.Hour)) {
			t.Errorf("shift %v: the expired certificate ended %v, want a day before %v", shift, c.NotAfter, at)
		}
		if c := leaf("good.test"); verify(c) != nil {
			t.Errorf("shift %v: the valid certificate does not verify at the world's clock: %v", shift, verify(c))
		}

		// security.txt over https, trusting the world's CA at its clock.
		addr := netip.AddrPortFrom(w.Addr("good.test"), 443).String()
		cl := &http.Client{Transport: &http.Transport{
			DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			},
			TLSClientConfig: &tls.Config{RootCAs: w.Roots, Time: clock},
		}}
		res, err := cl.Get("https://good.test/.well-known/security.txt")
		if err != nil {
			t.Fatalf("shift %v: security.txt: %v", shift, err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		want := "Expires: " + at.Add(180*24*time.Hour).Format(time.RFC3339) + "\n"
		if !strings.HasSuffix(string(body), want) || strings.Count(string(body), "Expires:") != 1 {
			t.Errorf("shift %v: security.txt\n%s\nwant one field %q", shift, body, want)
		}
	}
}
