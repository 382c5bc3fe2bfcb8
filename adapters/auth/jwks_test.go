package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/core"
)

const (
	testIssuer   = "https://idp.example/pool"
	testAudience = "client-123"
)

// signingKey is a private key with the kid and alg it is published under.
type signingKey struct {
	priv jwk.Key
	pub  jwk.Key
	alg  jwa.SignatureAlgorithm
}

func newKey(t *testing.T, kid string, alg jwa.SignatureAlgorithm) signingKey {
	t.Helper()
	var raw any
	var err error
	if alg == jwa.ES256() {
		raw, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	} else {
		raw, err = rsa.GenerateKey(rand.Reader, 2048)
	}
	if err != nil {
		t.Fatal(err)
	}
	priv, err := jwk.Import(raw)
	if err != nil {
		t.Fatal(err)
	}
	_ = priv.Set(jwk.KeyIDKey, kid)
	_ = priv.Set(jwk.AlgorithmKey, alg)
	pub, err := jwk.PublicKeyOf(priv)
	if err != nil {
		t.Fatal(err)
	}
	_ = pub.Set(jwk.KeyUsageKey, "sig")
	return signingKey{priv: priv, pub: pub, alg: alg}
}

func (k signingKey) sign(t *testing.T, claims map[string]any) string {
	t.Helper()
	return sign(t, k.alg, k.priv, claims)
}

// jwksServer publishes a key set that tests can replace, counting fetches.
// Tests can also set its Cache-Control header, make it answer another
// status or another body, or make it hang.
type jwksServer struct {
	*httptest.Server
	mu           sync.Mutex
	keys         []signingKey
	cacheControl string
	status       int    // 0: 200
	body         []byte // nil: the key set
	hung         chan struct{}
	hits         atomic.Int32
}

func newJWKSServer(t *testing.T, keys ...signingKey) *jwksServer {
	t.Helper()
	s := &jwksServer{keys: keys}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		hung := s.hung
		s.mu.Unlock()
		if hung != nil {
			select {
			case <-hung:
			case <-r.Context().Done():
				return
			}
		}
		s.mu.Lock()
		set := jwk.NewSet()
		for _, k := range s.keys {
			_ = set.AddKey(k.pub)
		}
		cc, status, body := s.cacheControl, s.status, s.body
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if cc != "" {
			w.Header().Set("Cache-Control", cc)
		}
		if status != 0 {
			w.WriteHeader(status)
		}
		if body != nil {
			_, _ = w.Write(body)
			return
		}
		_ = json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *jwksServer) publish(keys ...signingKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keys = keys
}

// answer sets the Cache-Control header, the status (0: 200) and the body
// (nil: the key set) of the next answers.
func (s *jwksServer) answer(cacheControl string, status int, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cacheControl, s.status, s.body = cacheControl, status, body
}

// hang makes the next requests wait until the returned function is called
// (or the test ends).
func (s *jwksServer) hang(t *testing.T) (release func()) {
	ch := make(chan struct{})
	var once sync.Once
	release = func() {
		once.Do(func() {
			s.mu.Lock()
			s.hung = nil
			s.mu.Unlock()
			close(ch)
		})
	}
	s.mu.Lock()
	s.hung = ch
	s.mu.Unlock()
	t.Cleanup(release)
	return release
}

func oidcClaims() map[string]any {
	return with(with(with(baseClaims(), "iss", testIssuer), "aud", testAudience), "email_verified", "true")
}

func newJWKS(t *testing.T, url string, minRefresh time.Duration) *auth.JWKS {
	t.Helper()
	v, err := auth.NewJWKS(context.Background(), auth.Config{
		JWKSURL: url + "/.well-known/jwks.json", Issuer: testIssuer, Audience: testAudience,
		MinRefreshInterval: minRefresh,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = v.Close() })
	return v
}

func TestJWKSVerify(t *testing.T) {
	t.Parallel()
	rsaKey := newKey(t, "rsa-1", jwa.RS256())
	ecKey := newKey(t, "ec-1", jwa.ES256())
	stranger := newKey(t, "rsa-unknown", jwa.RS256())
	impostor := newKey(t, "rsa-1", jwa.RS256()) // same kid, other key
	srv := newJWKSServer(t, rsaKey, ecKey)
	v := newJWKS(t, srv.URL, 0)

	rsaPEM := x509.MarshalPKCS1PublicKey(mustRSAPub(t, rsaKey))
	hsWithKid := func(secret []byte) string {
		return signWithKid(t, jwa.HS256(), secret, "rsa-1", oidcClaims())
	}
	tests := []struct {
		name   string
		token  string
		reason string
	}{
		{"valid RS256", rsaKey.sign(t, oidcClaims()), ""},
		{"valid ES256", ecKey.sign(t, oidcClaims()), ""},
		{"wrong issuer", rsaKey.sign(t, with(oidcClaims(), "iss", "https://evil.example")), "wrong issuer"},
		{"no issuer", rsaKey.sign(t, with(oidcClaims(), "iss", nil)), "wrong issuer"},
		{"wrong audience", rsaKey.sign(t, with(oidcClaims(), "aud", "other-client")), "wrong audience"},
		{"expired", rsaKey.sign(t, with(oidcClaims(), "exp", time.Now().Add(-time.Hour).Unix())), "token expired"},
		{"missing email", ecKey.sign(t, with(oidcClaims(), "email", nil)), "missing claim: email"},
		{"unknown kid", stranger.sign(t, oidcClaims()), "unknown key id"},
		{"known kid wrong key", impostor.sign(t, oidcClaims()), "bad signature"},
		{"alg none", unsigned(`{"sub":"u","email":"a@b.c","exp":9999999999,"iss":"` + testIssuer + `","aud":"` + testAudience + `"}`), `algorithm "none"`},
		{"HS256 keyed with public key", hsWithKid(rsaPEM), `algorithm "HS256"`},
		{"RS256 header on EC key", signWithKid(t, jwa.RS256(), rsaKey.priv, "ec-1", oidcClaims()), "key type"},
		{"malformed", "eyJhbGciOiJSUzI1NiJ9.bm9wZQ", "malformed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			id, ok := verifyAs(t, v, tc.token, tc.reason)
			if ok && (id.Subject != "user-1" || !id.EmailVerified) {
				t.Fatalf("identity = %+v", id)
			}
		})
	}
}

func mustRSAPub(t *testing.T, k signingKey) *rsa.PublicKey {
	t.Helper()
	var pub rsa.PublicKey
	if err := jwk.Export(k.pub, &pub); err != nil {
		t.Fatal(err)
	}
	return &pub
}

// signWithKid signs with an explicit kid header, whatever the key.
func signWithKid(t *testing.T, alg jwa.SignatureAlgorithm, key any, kid string, claims map[string]any) string {
	t.Helper()
	if k, ok := key.(jwk.Key); ok {
		c, _ := k.Clone()
		_ = c.Set(jwk.KeyIDKey, kid)
		_ = c.Remove(jwk.AlgorithmKey)
		return sign(t, alg, c, claims)
	}
	oct, err := jwk.Import(key)
	if err != nil {
		t.Fatal(err)
	}
	_ = oct.Set(jwk.KeyIDKey, kid)
	return sign(t, alg, oct, claims)
}

func TestJWKSKeyRotation(t *testing.T) {
	t.Parallel()
	old := newKey(t, "2026-01", jwa.RS256())
	next := newKey(t, "2026-02", jwa.ES256())
	srv := newJWKSServer(t, old)
	v := newJWKS(t, srv.URL, time.Nanosecond)

	if _, err := v.Verify(context.Background(), old.sign(t, oidcClaims())); err != nil {
		t.Fatalf("old key before rotation: %v", err)
	}
	srv.publish(next)
	if _, err := v.Verify(context.Background(), next.sign(t, oidcClaims())); err != nil {
		t.Fatalf("new key after rotation: %v", err)
	}
	time.Sleep(time.Millisecond)
	if _, err := v.Verify(context.Background(), old.sign(t, oidcClaims())); !errors.Is(err, core.ErrUnauthenticated) {
		t.Fatalf("retired key still accepted: %v", err)
	}
}

func TestJWKSUnknownKidRefetchIsBounded(t *testing.T) {
	t.Parallel()
	k := newKey(t, "k1", jwa.RS256())
	srv := newJWKSServer(t, k)
	v := newJWKS(t, srv.URL, time.Hour)
	for i := 0; i < 20; i++ {
		forged := forgedKid(t, k, "forged")
		_, err := v.Verify(context.Background(), forged)
		if !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatalf("forged kid: err = %v", err)
		}
	}
	// One fetch at construction; refreshes are bounded by MinRefreshInterval.
	// The first unknown kid may not refetch because construction just did.
	if got := srv.hits.Load(); got > 2 {
		t.Fatalf("JWKS fetched %d times, want at most 2", got)
	}
}

// forgedKid signs with k's private key under another kid.
func forgedKid(t *testing.T, k signingKey, kid string) string {
	t.Helper()
	return signWithKid(t, jwa.RS256(), k.priv, kid, oidcClaims())
}

func TestNewJWKSConfig(t *testing.T) {
	t.Parallel()
	srv := newJWKSServer(t, newKey(t, "k", jwa.RS256()))
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	tests := []struct {
		name string
		cfg  auth.Config
	}{
		{"no issuer", auth.Config{JWKSURL: srv.URL, Audience: testAudience}},
		{"no audience", auth.Config{JWKSURL: srv.URL, Issuer: testIssuer}},
		{"plain http on a public host", auth.Config{JWKSURL: "http://idp.example/jwks.json", Issuer: testIssuer, Audience: testAudience}},
		{"relative url", auth.Config{JWKSURL: "/jwks.json", Issuer: testIssuer, Audience: testAudience}},
		{"unreachable", auth.Config{JWKSURL: down.URL, Issuer: testIssuer, Audience: testAudience}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := auth.NewJWKS(context.Background(), tc.cfg); err == nil {
				t.Fatal("NewJWKS succeeded")
			}
		})
	}
}
