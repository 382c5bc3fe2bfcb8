package enrich_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich"
)

// counted serves h and counts requests, so tests can prove a refused
// fetch never reached the server.
func counted(t *testing.T, h http.Handler) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func addrOf(t *testing.T, srv *httptest.Server) netip.AddrPort {
	t.Helper()
	u, _ := url.Parse(srv.URL)
	ap, err := netip.ParseAddrPort(u.Host)
	if err != nil {
		t.Fatal(err)
	}
	return ap
}

func TestFetcherRefusesNonPublicWhenAllowPrivateIsOff(t *testing.T) {
	t.Parallel()
	target, hits := counted(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte("internal secret"))
	}))
	redirect := func(to string) *httptest.Server {
		srv, _ := counted(t, http.RedirectHandler(to, http.StatusFound))
		return srv
	}
	toLoopback := redirect(target.URL + "/admin")
	toMetadata := redirect("http://169.254.169.254/latest/meta-data/")
	toPrivate := redirect("http://10.0.0.1/")
	toFile := redirect("file:///etc/passwd")
	port := target.URL[strings.LastIndex(target.URL, ":")+1:]

	// The redirecting servers are loopback too; they are let through one
	// by one with AllowAddrs, so only the redirect target is judged.
	f := enrich.NewFetcher(enrich.FetcherConfig{
		AllowAnyPort: true,
		AllowAddrs:   []netip.AddrPort{addrOf(t, toLoopback), addrOf(t, toMetadata), addrOf(t, toPrivate), addrOf(t, toFile)},
	})
	strict := enrich.NewFetcher(enrich.FetcherConfig{})
	tests := []struct {
		name string
		f    *enrich.Fetcher
		url  string
		why  string
	}{
		{"loopback", f, target.URL + "/", "127.0.0.1 is a loopback address"},
		{"loopback by name, checked after resolution", f, "http://localhost:" + port + "/", "is a loopback address"},
		{"private", f, "http://10.0.0.1/", "10.0.0.1 is a private address"},
		{"metadata", f, "http://169.254.169.254/latest/meta-data/", "169.254.169.254 is the cloud metadata address"},
		{"link-local", f, "http://169.254.10.1/", "a link-local address"},
		{"cgnat", f, "http://100.64.0.1/", "a shared (CGNAT) address"},
		{"unspecified", f, "http://0.0.0.0:" + port + "/", "an unspecified address"},
		{"multicast", f, "http://224.0.0.1/", "a multicast address"},
		{"rfc1918 172", f, "http://172.16.5.4/", "a private address"},
		{"rfc1918 192", f, "http://192.168.1.1/", "a private address"},
		{"ipv6 loopback", f, "http://[::1]:" + port + "/", "a loopback address"},
		{"ipv6 ula", f, "http://[fd12:3456::1]/", "a private address"},
		{"ipv6 link-local", f, "http://[fe80::1]/", "a link-local address"},
		{"ipv4-mapped loopback", f, "http://[::ffff:127.0.0.1]:" + port + "/", "a loopback address"},
		{"nat64 of private", f, "http://[64:ff9b::a00:1]/", "a private address"},
		{"redirect to loopback", f, toLoopback.URL, "127.0.0.1 is a loopback address"},
		{"redirect to metadata", f, toMetadata.URL, "169.254.169.254 is the cloud metadata address"},
		{"redirect to private", f, toPrivate.URL, "10.0.0.1 is a private address"},
		{"redirect to file", f, toFile.URL, `scheme "file"`},
		{"scheme", f, "gopher://example.com/", `scheme "gopher"`},
		{"credentials", f, "http://user:pw@example.com/", "credentials"},
		{"port", strict, "http://example.com:8080/", "port 8080"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := tc.f.Get(context.Background(), tc.url)
			if !errors.Is(err, enrich.ErrRefused) {
				t.Fatalf("err = %v, want ErrRefused", err)
			}
			if !strings.HasPrefix(err.Error(), "refused: ") || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("err = %q, want refused: ...%s", err, tc.why)
			}
		})
	}
	t.Cleanup(func() {
		if n := hits.Load(); n != 0 {
			t.Errorf("the loopback target was reached %d times", n)
		}
	})
}

func TestFetcherAllowPrivate(t *testing.T) {
	t.Parallel()
	srv, _ := counted(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			_, _ = w.Write([]byte(strings.Repeat("x", 3<<20)))
		case "/slow":
			time.Sleep(300 * time.Millisecond)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			if n := r.URL.Query().Get("hops"); n != "" && n != "0" {
				http.Redirect(w, r, "/?hops="+string(rune(n[0]-1)), http.StatusFound)
				return
			}
			_, _ = w.Write([]byte("ok"))
		}
	}))
	f := enrich.NewFetcher(enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true})
	impatient := enrich.NewFetcher(enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true, Timeout: 100 * time.Millisecond})
	ctx := context.Background()

	p, err := f.Get(ctx, srv.URL+"/?hops=5")
	if err != nil || string(p.Body) != "ok" || p.URL.RawQuery != "hops=0" {
		t.Fatalf("5 redirects: page=%+v err=%v", p, err)
	}
	if _, err := f.Get(ctx, srv.URL+"/loop"); !errors.Is(err, enrich.ErrRefused) || !strings.Contains(err.Error(), "more than 5 redirects") {
		t.Fatalf("redirect loop: err = %v", err)
	}
	p, err = f.Get(ctx, srv.URL+"/big")
	if err != nil {
		t.Fatalf("big body: %v", err)
	}
	if !p.Truncated || len(p.Body) != enrich.DefaultMaxBytes {
		t.Fatalf("big body: truncated=%v len=%d", p.Truncated, len(p.Body))
	}
	if _, err := impatient.Get(ctx, srv.URL+"/slow"); err == nil {
		t.Fatal("slow server: no timeout")
	}
}

// TestFetcherGetConditional: the validators of a previous answer are sent
// as If-None-Match and If-Modified-Since, a 304 comes back as a Page, the
// call's size bound replaces the configured one, and the policy still
// refuses a loopback address when AllowPrivate is off.
func TestFetcherGetConditional(t *testing.T) {
	t.Parallel()
	const etag, lastMod = `"v1"`, "Sat, 28 Nov 2026 08:00:00 GMT"
	srv, hits := counted(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big" {
			_, _ = w.Write([]byte(strings.Repeat("x", 3<<20)))
			return
		}
		if r.Header.Get("If-None-Match") == etag && r.Header.Get("If-Modified-Since") == lastMod {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", lastMod)
		_, _ = w.Write([]byte("fresh"))
	}))
	f := enrich.NewFetcher(enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true})
	ctx := context.Background()

	p, err := f.GetConditional(ctx, srv.URL, enrich.Validators{}, 0)
	if err != nil || p.Status != http.StatusOK || string(p.Body) != "fresh" || p.Header.Get("ETag") != etag {
		t.Fatalf("first fetch: page=%+v err=%v", p, err)
	}
	p, err = f.GetConditional(ctx, srv.URL, enrich.Validators{ETag: etag, LastModified: lastMod}, 0)
	if err != nil || p.Status != http.StatusNotModified || len(p.Body) != 0 {
		t.Fatalf("conditional fetch: page=%+v err=%v", p, err)
	}
	p, err = f.GetConditional(ctx, srv.URL+"/big", enrich.Validators{}, 4<<20)
	if err != nil || p.Truncated || len(p.Body) != 3<<20 {
		t.Fatalf("4 MiB bound: truncated=%v len=%d err=%v", p.Truncated, len(p.Body), err)
	}
	p, err = f.GetConditional(ctx, srv.URL+"/big", enrich.Validators{}, 1<<20)
	if err != nil || !p.Truncated || len(p.Body) != 1<<20 {
		t.Fatalf("1 MiB bound: truncated=%v len=%d err=%v", p.Truncated, len(p.Body), err)
	}
	before := hits.Load()
	strict := enrich.NewFetcher(enrich.FetcherConfig{AllowAnyPort: true})
	if _, err := strict.GetConditional(ctx, srv.URL, enrich.Validators{ETag: etag}, 0); !errors.Is(err, enrich.ErrRefused) {
		t.Fatalf("loopback without AllowPrivate: err = %v", err)
	}
	if hits.Load() != before {
		t.Fatal("the refused fetch reached the server")
	}
}

// TestFetcherResolveHook checks that names resolved by FetcherConfig.Resolve
// (the scanner's DNS) are still judged by the policy at connect, and that
// a name the resolver knows is reached at the address it gives.
func TestFetcherResolveHook(t *testing.T) {
	t.Parallel()
	srv, hits := counted(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("ok " + r.Host)) }))
	ap := addrOf(t, srv)
	resolve := func(_ context.Context, host string) ([]netip.Addr, error) {
		if host == "vendor.test" {
			return []netip.Addr{ap.Addr()}, nil
		}
		return nil, enrich.ErrNoSuchHost
	}
	u := "http://vendor.test:" + strconv.Itoa(int(ap.Port())) + "/"

	strict := enrich.NewFetcher(enrich.FetcherConfig{AllowAnyPort: true, Resolve: resolve})
	_, err := strict.Get(context.Background(), u)
	if !errors.Is(err, enrich.ErrRefused) || !strings.Contains(err.Error(), "127.0.0.1 is a loopback address") {
		t.Fatalf("strict fetch of a name resolving to loopback: %v", err)
	}
	if hits.Load() != 0 {
		t.Fatal("the refused fetch reached the server")
	}

	open := enrich.NewFetcher(enrich.FetcherConfig{AllowAnyPort: true, AllowPrivate: true, Resolve: resolve})
	p, err := open.Get(context.Background(), u)
	if err != nil || string(p.Body) != "ok vendor.test:"+strconv.Itoa(int(ap.Port())) {
		t.Fatalf("fetch through the hook = %v, %v", p, err)
	}
	if _, err := open.Get(context.Background(), "http://unknown.test/"); !errors.Is(err, enrich.ErrNoSuchHost) {
		t.Fatalf("unknown name: %v, want ErrNoSuchHost through the transport", err)
	}
	// GetOnce does not follow a redirect.
	redir, _ := counted(t, http.RedirectHandler("https://elsewhere.test/", http.StatusMovedPermanently))
	p, err = open.GetOnce(context.Background(), redir.URL)
	if err != nil || p.Status != http.StatusMovedPermanently || p.Header.Get("Location") != "https://elsewhere.test/" {
		t.Fatalf("GetOnce = %+v, %v", p, err)
	}
}
