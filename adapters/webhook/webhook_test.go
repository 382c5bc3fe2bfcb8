package webhook_test

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/webhook"
)

const payload = `{"type":"incident.created","timestamp":"2026-11-25T01:00:00Z","data":{"vendor":"Acme"}}`

func newSecret(t *testing.T) string {
	t.Helper()
	s, err := webhook.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// loopbackSender reaches receivers on loopback, as the tests' receivers are.
func loopbackSender(t *testing.T, cfg webhook.SenderConfig) *webhook.Sender {
	t.Helper()
	cfg.Fetcher = enrich.NewFetcher(enrich.FetcherConfig{AllowPrivate: true, AllowAnyPort: true})
	cfg.AllowPrivate = true
	s, err := webhook.NewSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// receiver is a webhook endpoint that checks every request with the
// library's Verify under its own secret. It answers failures times with
// 503, then 204; a request that does not verify gets 401.
type receiver struct {
	srv      *httptest.Server
	mu       sync.Mutex
	ids      []string // webhook-id of every request
	verified []error  // Verify's answer for every request
	headers  []http.Header
	bodies   []string
}

func newReceiver(t *testing.T, secret string, failures int) *receiver {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	r := &receiver{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		verr := wh.Verify(body, req.Header)
		r.mu.Lock()
		r.ids = append(r.ids, req.Header.Get("webhook-id"))
		r.verified = append(r.verified, verr)
		r.headers = append(r.headers, req.Header.Clone())
		r.bodies = append(r.bodies, string(body))
		n := len(r.ids)
		r.mu.Unlock()
		switch {
		case verr != nil:
			http.Error(w, "bad signature", http.StatusUnauthorized)
		case n <= failures:
			http.Error(w, "try later", http.StatusServiceUnavailable)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) calls() ([]string, []error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ids...), append([]error(nil), r.verified...)
}

func TestNewSecret(t *testing.T) {
	a, b := newSecret(t), newSecret(t)
	if a == b {
		t.Fatal("two secrets are the same")
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(a, "whsec_"))
	if !strings.HasPrefix(a, "whsec_") || err != nil || len(key) < 24 || len(key) > 32 {
		t.Fatalf("secret %q: want whsec_ + base64 of 24-32 bytes (decoded %d bytes, %v)", a, len(key), err)
	}
	if _, err := standardwebhooks.NewWebhook(a); err != nil {
		t.Fatalf("the library does not take the secret: %v", err)
	}
}

func TestSendIsSignedAndVerified(t *testing.T) {
	secret := newSecret(t)
	r := newReceiver(t, secret, 0)
	now := time.Now().Truncate(time.Second)
	s := loopbackSender(t, webhook.SenderConfig{Now: func() time.Time { return now }})
	a := s.Send(context.Background(), webhook.Delivery{
		URL: r.srv.URL + "/hooks", Secret: secret, MessageID: "msg_1",
		EventType: "incident.created", Payload: []byte(payload)})
	if !a.OK() || a.StatusCode != http.StatusNoContent || a.Duration <= 0 {
		t.Fatalf("attempt = %+v, want a 204 success", a)
	}
	ids, verified := r.calls()
	if len(ids) != 1 || ids[0] != "msg_1" || verified[0] != nil {
		t.Fatalf("receiver saw ids %q, verification %v", ids, verified)
	}
	h := r.headers[0]
	for name, want := range map[string]string{
		"Content-Type":      "application/json",
		"User-Agent":        "Vetted-Webhooks/1",
		"Webhook-Timestamp": strconv.FormatInt(now.Unix(), 10),
	} {
		if got := h.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if !strings.HasPrefix(h.Get("Webhook-Signature"), "v1,") {
		t.Errorf("webhook-signature = %q, want v1,...", h.Get("Webhook-Signature"))
	}
	if r.bodies[0] != payload {
		t.Errorf("body = %q, want the payload as is", r.bodies[0])
	}
}

func TestRetriesKeepTheMessageID(t *testing.T) {
	secret := newSecret(t)
	r := newReceiver(t, secret, 3)
	s := loopbackSender(t, webhook.SenderConfig{})
	d := webhook.Delivery{URL: r.srv.URL, Secret: secret, MessageID: "msg_2K8x", EventType: "vendor.rating_changed", Payload: []byte(payload)}
	for i := 1; i <= 4; i++ {
		a := s.Send(context.Background(), d)
		if i < 4 && (a.OK() || !errors.Is(a.Err, webhook.ErrStatus) || a.StatusCode != 503 || a.ResponseSnippet != "try later") {
			t.Fatalf("attempt %d = %+v, want a 503 failure", i, a)
		}
		if i == 4 && (!a.OK() || a.StatusCode != 204) {
			t.Fatalf("attempt 4 = %+v, want success", a)
		}
	}
	ids, verified := r.calls()
	if len(ids) != 4 {
		t.Fatalf("receiver got %d requests, want 4", len(ids))
	}
	for i := range ids {
		if ids[i] != "msg_2K8x" || verified[i] != nil {
			t.Errorf("request %d: webhook-id %q, verification %v", i+1, ids[i], verified[i])
		}
	}
}

func TestWrongSecretFailsVerification(t *testing.T) {
	r := newReceiver(t, newSecret(t), 0)
	s := loopbackSender(t, webhook.SenderConfig{})
	a := s.Send(context.Background(), webhook.Delivery{URL: r.srv.URL, Secret: newSecret(t), MessageID: "msg_3", Payload: []byte(payload)})
	if !errors.Is(a.Err, webhook.ErrStatus) || a.StatusCode != http.StatusUnauthorized {
		t.Fatalf("attempt = %+v, want the receiver's 401", a)
	}
	_, verified := r.calls()
	if len(verified) != 1 || !errors.Is(verified[0], standardwebhooks.ErrNoMatchingSignature) {
		t.Fatalf("receiver verification = %v, want ErrNoMatchingSignature", verified)
	}
}

// listener counts the connections made to a loopback port.
func listener(t *testing.T) (net.Listener, func() int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	n := 0
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			n++
			mu.Unlock()
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return ln, func() int {
		// A connection the kernel accepted is counted shortly after.
		time.Sleep(50 * time.Millisecond)
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

func TestPrivateAddressesRefusedBeforeAnyByte(t *testing.T) {
	ln, connections := listener(t)
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	urls := []string{
		"https://169.254.169.254/latest/meta-data/",
		"https://10.0.0.1/hook",
		"https://[::1]:" + port + "/hook",
		"https://127.0.0.1:" + port + "/hook",
		"http://127.0.0.1:" + port + "/hook",
	}
	strict := enrich.NewFetcher(enrich.FetcherConfig{})
	// Production: both the registration rules and the dialer refuse.
	prod, err := webhook.NewSender(webhook.SenderConfig{Fetcher: strict})
	if err != nil {
		t.Fatal(err)
	}
	// The URL rules lifted, so only the dialer's check stands (what a host
	// name that resolves to a private address meets).
	dialOnly, err := webhook.NewSender(webhook.SenderConfig{Fetcher: enrich.NewFetcher(enrich.FetcherConfig{AllowAnyPort: true}), AllowPrivate: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range urls {
		for name, s := range map[string]*webhook.Sender{"prod": prod, "dialer": dialOnly} {
			d := webhook.Delivery{URL: u, Secret: newSecret(t), MessageID: "msg_4", Payload: []byte(payload)}
			a := s.Send(context.Background(), d)
			if u == urls[4] && name == "prod" {
				// Plain http is refused by the registration rules first.
				if !errors.Is(a.Err, webhook.ErrInvalidDelivery) {
					t.Errorf("%s %s: %+v, want ErrInvalidDelivery", name, u, a)
				}
				continue
			}
			if !errors.Is(a.Err, webhook.ErrRefused) || a.StatusCode != 0 {
				t.Errorf("%s %s: %+v, want ErrRefused", name, u, a)
			}
		}
		if err := webhook.ValidateURL(u, false); err == nil {
			t.Errorf("ValidateURL(%s, false) accepted it", u)
		}
	}
	if n := connections(); n != 0 {
		t.Fatalf("%d connections reached the loopback listener", n)
	}
}

func TestHostNameResolvingToPrivateIsRefusedAtDial(t *testing.T) {
	// DNS rebinding: the name passes registration, the address it
	// resolves to at send time does not.
	resolve := func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	u := "https://hooks.rebind.test/in"
	if err := webhook.ValidateURL(u, false); err != nil {
		t.Fatalf("ValidateURL: %v", err)
	}
	s, err := webhook.NewSender(webhook.SenderConfig{Fetcher: enrich.NewFetcher(enrich.FetcherConfig{Resolve: resolve})})
	if err != nil {
		t.Fatal(err)
	}
	a := s.Send(context.Background(), webhook.Delivery{URL: u, Secret: newSecret(t), MessageID: "msg_5", Payload: []byte(payload)})
	if !errors.Is(a.Err, webhook.ErrRefused) || !strings.Contains(a.Err.Error(), "loopback") {
		t.Fatalf("attempt = %+v, want refused as loopback", a)
	}
}

func TestRedirectIsAFailureAndNotFollowed(t *testing.T) {
	var mu sync.Mutex
	targetHits := 0
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		targetHits++
		mu.Unlock()
	}))
	defer target.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/stolen", http.StatusFound)
	}))
	defer redirector.Close()
	s := loopbackSender(t, webhook.SenderConfig{})
	a := s.Send(context.Background(), webhook.Delivery{URL: redirector.URL, Secret: newSecret(t), MessageID: "msg_6", Payload: []byte(payload)})
	if a.OK() || !errors.Is(a.Err, webhook.ErrStatus) || a.StatusCode != http.StatusFound {
		t.Fatalf("attempt = %+v, want a 302 failure", a)
	}
	mu.Lock()
	defer mu.Unlock()
	if targetHits != 0 {
		t.Fatalf("the redirect target was hit %d times", targetHits)
	}
}

// hanging is a receiver that never answers while the test runs.
func hanging(t *testing.T) *httptest.Server {
	t.Helper()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-release
	}))
	// Cleanups run last first: release the handlers, then close.
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	return srv
}

func TestTimeoutIsHonoured(t *testing.T) {
	srv := hanging(t)
	s := loopbackSender(t, webhook.SenderConfig{Timeout: 200 * time.Millisecond})
	a := s.Send(context.Background(), webhook.Delivery{URL: srv.URL, Secret: newSecret(t), MessageID: "msg_7", Payload: []byte(payload)})
	if !errors.Is(a.Err, webhook.ErrTimeout) || a.StatusCode != 0 {
		t.Fatalf("attempt = %+v, want ErrTimeout", a)
	}
	if a.Duration < 200*time.Millisecond || a.Duration > 2*time.Second {
		t.Fatalf("duration %s, want about 200ms", a.Duration)
	}
}

func TestCallerCancellationIsNotATimeout(t *testing.T) {
	srv := hanging(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	s := loopbackSender(t, webhook.SenderConfig{})
	a := s.Send(ctx, webhook.Delivery{URL: srv.URL, Secret: newSecret(t), MessageID: "msg_8", Payload: []byte(payload)})
	if !errors.Is(a.Err, context.DeadlineExceeded) || errors.Is(a.Err, webhook.ErrTimeout) || errors.Is(a.Err, webhook.ErrNetwork) {
		t.Fatalf("attempt = %+v, want the caller's context error only", a)
	}
}

func TestResponseBodyIsCapped(t *testing.T) {
	// An endless 200 body: Send returns only because it stops reading.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("a", 4096))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	s := loopbackSender(t, webhook.SenderConfig{MaxBody: 64 << 10, Timeout: 5 * time.Second})
	a := s.Send(context.Background(), webhook.Delivery{URL: srv.URL, Secret: newSecret(t), MessageID: "msg_9", Payload: []byte(payload)})
	if !a.OK() || a.StatusCode != 200 {
		t.Fatalf("attempt = %+v, want success", a)
	}
	if a.Duration > 2*time.Second {
		t.Fatalf("took %s: the body was not capped", a.Duration)
	}
	if a.ResponseSnippet != strings.Repeat("a", webhook.SnippetBytes) {
		t.Fatalf("snippet of %d bytes, want %d", len(a.ResponseSnippet), webhook.SnippetBytes)
	}
}

func TestResponseSnippetIsSanitized(t *testing.T) {
	body := "ok\x00\x1b[31m\u202eevil\xff\r\n  done\u200b!!" + strings.Repeat("é", 400)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, body)
	}))
	defer srv.Close()
	s := loopbackSender(t, webhook.SenderConfig{})
	a := s.Send(context.Background(), webhook.Delivery{URL: srv.URL, Secret: newSecret(t), MessageID: "msg_10", Payload: []byte(payload)})
	if !errors.Is(a.Err, webhook.ErrStatus) || a.StatusCode != 400 {
		t.Fatalf("attempt = %+v, want a 400 failure", a)
	}
	want := "ok [31m evil done !!"
	if !strings.HasPrefix(a.ResponseSnippet, want) || len(a.ResponseSnippet) > webhook.SnippetBytes {
		t.Fatalf("snippet %q (%d bytes), want it to start %q and be at most %d bytes", a.ResponseSnippet, len(a.ResponseSnippet), want, webhook.SnippetBytes)
	}
	if strings.HasSuffix(a.ResponseSnippet, "\uFFFD") || !strings.HasSuffix(a.ResponseSnippet, "é") {
		t.Fatalf("snippet ends %q: a character cut at the limit must be dropped whole", a.ResponseSnippet[len(a.ResponseSnippet)-4:])
	}
}

func TestInvalidDeliveriesAreNotSent(t *testing.T) {
	r := newReceiver(t, newSecret(t), 0)
	s := loopbackSender(t, webhook.SenderConfig{})
	good := webhook.Delivery{URL: r.srv.URL, Secret: newSecret(t), MessageID: "msg_11", Payload: []byte(payload)}
	for name, change := range map[string]func(*webhook.Delivery){
		"no secret":       func(d *webhook.Delivery) { d.Secret = "whsec_" },
		"secret not b64":  func(d *webhook.Delivery) { d.Secret = "whsec_%%%" },
		"no message id":   func(d *webhook.Delivery) { d.MessageID = "" },
		"payload no JSON": func(d *webhook.Delivery) { d.Payload = []byte("{") },
		"bad scheme":      func(d *webhook.Delivery) { d.URL = "ftp://127.0.0.1/" },
	} {
		d := good
		change(&d)
		if a := s.Send(context.Background(), d); !errors.Is(a.Err, webhook.ErrInvalidDelivery) {
			t.Errorf("%s: %+v, want ErrInvalidDelivery", name, a)
		}
	}
	// Credentials in the URL are refused by the SSRF policy itself.
	d := good
	d.URL = strings.Replace(r.srv.URL, "//", "//user:pw@", 1)
	if a := s.Send(context.Background(), d); !errors.Is(a.Err, webhook.ErrRefused) {
		t.Errorf("credentials: %+v, want ErrRefused", a)
	}
	if ids, _ := r.calls(); len(ids) != 0 {
		t.Fatalf("the receiver got %d requests", len(ids))
	}
	if _, err := webhook.NewSender(webhook.SenderConfig{}); err == nil {
		t.Fatal("NewSender without a Fetcher succeeded")
	}
}

func TestValidateURL(t *testing.T) {
	for _, tc := range []struct {
		url          string
		allowPrivate bool
		ok           bool
		refused      bool // also matches ErrRefused
	}{
		{"https://hooks.example.com/vetted", false, true, false},
		{"https://hooks.example.com:443/vetted?x=1", false, true, false},
		{"https://93.184.215.14/hook", false, true, false},
		{"http://hooks.example.com/vetted", false, false, false},
		{"http://127.0.0.1:8080/hook", true, true, false},
		{"https://hooks.example.com:8443/vetted", false, false, true},
		{"https://hooks.example.com:8443/vetted", true, true, false},
		{"https://user:pw@hooks.example.com/", false, false, true},
		{"https://user@hooks.example.com/", true, false, true},
		{"https://hooks.example.com/#frag", false, false, false},
		{"https:///nohost", false, false, true},
		{"/relative/path", false, false, false},
		{"ftp://hooks.example.com/", true, false, false},
		{"https://169.254.169.254/latest/meta-data/", false, false, true},
		{"https://10.0.0.1/", false, false, true},
		{"https://192.168.1.10/", false, false, true},
		{"https://[::1]/", false, false, true},
		{"https://[fd00:ec2::254]/", false, false, true},
		{"https://[::ffff:127.0.0.1]/", false, false, true},
		{"https://127.0.0.1/", false, false, true},
		{"https://127.0.0.1/", true, true, false},
		{"https://hooks.example.com/" + strings.Repeat("a", 2048), false, false, false},
		{"https://exa mple.com/", false, false, false},
	} {
		err := webhook.ValidateURL(tc.url, tc.allowPrivate)
		if (err == nil) != tc.ok {
			t.Errorf("ValidateURL(%q, %v) = %v, want ok=%v", tc.url, tc.allowPrivate, err, tc.ok)
			continue
		}
		if err != nil && (!errors.Is(err, webhook.ErrInvalidURL) || errors.Is(err, webhook.ErrRefused) != tc.refused) {
			t.Errorf("ValidateURL(%q, %v) = %v, want ErrInvalidURL (refused=%v)", tc.url, tc.allowPrivate, err, tc.refused)
		}
	}
}

func TestValidateURLDoesNotConnect(t *testing.T) {
	ln, connections := listener(t)
	u := "http://" + ln.Addr().String() + "/hook"
	if err := webhook.ValidateURL(u, true); err != nil {
		t.Fatalf("ValidateURL(%s, true) = %v", u, err)
	}
	if n := connections(); n != 0 {
		t.Fatalf("ValidateURL made %d connections", n)
	}
}
