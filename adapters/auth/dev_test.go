package auth_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwt"
	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/ports"
)

var devSecret = []byte("0123456789abcdef0123456789abcdef")

// sign builds a token from claims; exp is set from ttl unless ttl is zero.
func sign(t *testing.T, alg jwa.SignatureAlgorithm, key any, claims map[string]any) string {
	t.Helper()
	tok := jwt.New()
	for k, v := range claims {
		if err := tok.Set(k, v); err != nil {
			t.Fatalf("set %s: %v", k, err)
		}
	}
	out, err := jwt.Sign(tok, jwt.WithKey(alg, key))
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	return string(out)
}

func baseClaims() map[string]any {
	return map[string]any{
		"sub":   "user-1",
		"email": "Alice@Example.com",
		"exp":   time.Now().Add(time.Hour).Unix(),
	}
}

func with(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{}
	for kk, vv := range m {
		out[kk] = vv
	}
	if v == nil {
		delete(out, k)
	} else {
		out[k] = v
	}
	return out
}

// unsigned builds an "alg: none" token by hand.
func unsigned(payload string) string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + enc([]byte(payload)) + "."
}

func TestDevVerify(t *testing.T) {
	t.Parallel()
	d, err := auth.NewDev(devSecret, auth.DevOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	hs := func(c map[string]any) string { return sign(t, jwa.HS256(), devSecret, c) }
	tests := []struct {
		name   string
		token  string
		reason string // empty: valid
	}{
		{"valid", hs(baseClaims()), ""},
		{"expired", hs(with(baseClaims(), "exp", time.Now().Add(-time.Hour).Unix())), "token expired"},
		{"wrong secret", sign(t, jwa.HS256(), []byte("another-secret-another-secret!!"), baseClaims()), "bad signature"},
		{"missing email", hs(with(baseClaims(), "email", nil)), "missing claim: email"},
		{"missing sub", hs(with(baseClaims(), "sub", nil)), "missing claim: sub"},
		{"missing exp", hs(with(baseClaims(), "exp", nil)), "missing claim: exp"},
		{"not yet valid", hs(with(baseClaims(), "nbf", time.Now().Add(time.Hour).Unix())), "not yet valid"},
		{"empty", "", "missing token"},
		{"malformed garbage", "not-a-token", "malformed"},
		{"malformed segments", "a.b.c", "malformed"},
		{"json serialization", `{"payload":"e30","signatures":[]}`, "malformed"},
		{"alg none", unsigned(`{"sub":"user-1","email":"a@b.c","exp":9999999999}`), `algorithm "none"`},
		{"alg RS256 to dev", sign(t, jwa.RS256(), rsaKey, baseClaims()), `algorithm "RS256"`},
		{"alg HS512", sign(t, jwa.HS512(), devSecret, baseClaims()), `algorithm "HS512"`},
		{"tampered payload", tamper(hs(baseClaims())), "bad signature"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			id, ok := verifyAs(t, d, tc.token, tc.reason)
			if ok && (id.Subject != "user-1" || id.Email != "alice@example.com") {
				t.Fatalf("identity = %+v", id)
			}
		})
	}
}

// verifyAs verifies token and checks the outcome: success when reason is
// empty, otherwise an ErrUnauthenticated mentioning reason. It reports
// whether the token was accepted.
func verifyAs(t *testing.T, v ports.TokenVerifier, token, reason string) (ports.Identity, bool) {
	t.Helper()
	id, err := v.Verify(context.Background(), token)
	if reason == "" {
		if err != nil {
			t.Fatalf("Verify: %v", err)
		}
		return id, true
	}
	if !errors.Is(err, core.ErrUnauthenticated) || !strings.Contains(err.Error(), reason) {
		t.Fatalf("err = %v, want ErrUnauthenticated mentioning %q", err, reason)
	}
	return id, false
}

// tamper swaps the payload for another one, keeping the signature.
func tamper(tok string) string {
	parts := strings.Split(tok, ".")
	parts[1] = base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"admin","email":"evil@x.io","exp":9999999999}`))
	return strings.Join(parts, ".")
}

func TestDevMintRoundTrip(t *testing.T) {
	t.Parallel()
	d, err := auth.NewDev(devSecret, auth.DevOptions{Issuer: "vetted-dev", Audience: "vetted"})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := d.Mint(auth.Claims{Subject: "u-9", Email: "bob@example.com", Name: "Bob", EmailVerified: true, Groups: []string{"Admins"}})
	if err != nil {
		t.Fatal(err)
	}
	id, err := d.Verify(context.Background(), tok)
	if err != nil {
		t.Fatal(err)
	}
	if id.Subject != "u-9" || id.Email != "bob@example.com" || id.Name != "Bob" || !id.EmailVerified || !id.IsPlatformAdmin() {
		t.Fatalf("identity = %+v", id)
	}

	expired, err := d.Mint(auth.Claims{Subject: "u-9", Email: "bob@example.com", TTL: -time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Verify(context.Background(), expired); !errors.Is(err, core.ErrUnauthenticated) {
		t.Fatalf("expired minted token: err = %v", err)
	}
	if _, err := d.Mint(auth.Claims{Subject: "u-9"}); err == nil {
		t.Fatal("Mint without email succeeded")
	}
}

func TestDevIssuerAudienceOnlyWhenConfigured(t *testing.T) {
	t.Parallel()
	plain, err := auth.NewDev(devSecret, auth.DevOptions{})
	if err != nil {
		t.Fatal(err)
	}
	strict, err := auth.NewDev(devSecret, auth.DevOptions{Issuer: "vetted-dev", Audience: "vetted"})
	if err != nil {
		t.Fatal(err)
	}
	noIss := sign(t, jwa.HS256(), devSecret, baseClaims())
	otherIss := sign(t, jwa.HS256(), devSecret, with(with(baseClaims(), "iss", "other"), "aud", "vetted"))
	otherAud := sign(t, jwa.HS256(), devSecret, with(with(baseClaims(), "iss", "vetted-dev"), "aud", "other"))
	tests := []struct {
		name   string
		d      *auth.Dev
		token  string
		reason string
	}{
		{"unconfigured accepts no iss", plain, noIss, ""},
		{"unconfigured accepts any iss", plain, otherIss, ""},
		{"configured needs iss", strict, noIss, "wrong issuer"},
		{"configured wrong iss", strict, otherIss, "wrong issuer"},
		{"configured wrong aud", strict, otherAud, "wrong audience"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			verifyAs(t, tc.d, tc.token, tc.reason)
		})
	}
}

func TestClaimShapes(t *testing.T) {
	t.Parallel()
	d, _ := auth.NewDev(devSecret, auth.DevOptions{})
	tests := []struct {
		name     string
		extra    map[string]any
		verified bool
		groups   []string
	}{
		{"bool verified", map[string]any{"email_verified": true}, true, nil},
		{"cognito string verified", map[string]any{"email_verified": "true"}, true, nil},
		{"string false", map[string]any{"email_verified": "false"}, false, nil},
		{"absent", map[string]any{}, false, nil},
		{"cognito groups", map[string]any{"cognito:groups": []string{"Admins", "Ops"}}, false, []string{"Admins", "Ops"}},
		{"only the configured claim", map[string]any{"cognito:groups": []string{"Ops"}, "groups": []string{"Admins"}}, false, []string{"Ops"}},
		{"groups claim beside the configured one", map[string]any{"groups": []string{"Admins"}}, false, nil},
		{"single string group", map[string]any{"cognito:groups": "Admins"}, false, nil},
		{"groups kept as sent", map[string]any{"cognito:groups": []string{" Admins", "Ops "}}, false, []string{" Admins", "Ops "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := baseClaims()
			for k, v := range tc.extra {
				c[k] = v
			}
			id, err := d.Verify(context.Background(), sign(t, jwa.HS256(), devSecret, c))
			if err != nil {
				t.Fatal(err)
			}
			if id.EmailVerified != tc.verified || strings.Join(id.Groups, ",") != strings.Join(tc.groups, ",") {
				t.Fatalf("identity = %+v", id)
			}
		})
	}
}

func TestNewDevRejectsShortSecret(t *testing.T) {
	t.Parallel()
	if _, err := auth.NewDev([]byte("short"), auth.DevOptions{}); err == nil {
		t.Fatal("NewDev accepted a 5-byte secret")
	}
}

func TestDevSubject(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ a, b string }{
		{"bob@acme.test", "Bob@ACME.test"},
		{"bob@acme.test", " bob@acme.test "},
		{"zoë@acme.test", "ZOË@acme.test"},
	} {
		if auth.DevSubject(c.a) != auth.DevSubject(c.b) {
			t.Errorf("%q and %q get subjects %q and %q, want one", c.a, c.b, auth.DevSubject(c.a), auth.DevSubject(c.b))
		}
	}
	if auth.DevSubject("bob@acme.test") == auth.DevSubject("ann@acme.test") {
		t.Error("two e-mails share a subject")
	}
}

// TestVerifiedTokenExpires: a token verified once is remembered, yet it is
// refused once it expires (VerifiedTTL never outlives exp), and a token
// remembered for VerifiedTTL is verified again after it.
func TestVerifiedTokenExpires(t *testing.T) {
	now := time.Now()
	clock := func() time.Time { return now }
	d, err := auth.NewDev(devSecret, auth.DevOptions{Now: clock, Skew: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	short, err := d.Mint(auth.Claims{Subject: "u-1", Email: "ann@example.com", TTL: 10 * time.Second, Groups: []string{"Admins"}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		id, err := d.Verify(context.Background(), short)
		if err != nil || id.Subject != "u-1" || len(id.Groups) != 1 {
			t.Fatalf("fresh token: %+v, %v", id, err)
		}
		id.Groups[0] = "changed by a caller"
	}
	if id, _ := d.Verify(context.Background(), short); id.Groups[0] != "Admins" {
		t.Fatalf("a caller's change reached the memory: %v", id.Groups)
	}
	now = now.Add(12 * time.Second)
	if _, err := d.Verify(context.Background(), short); !errors.Is(err, core.ErrUnauthenticated) {
		t.Fatalf("expired remembered token: err = %v", err)
	}
}
