package signedlink_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
)

var (
	key   = []byte("0123456789abcdef0123456789abcdef")
	now   = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	later = now.Add(time.Hour)
)

func signer(t *testing.T, k []byte) *signedlink.Signer {
	t.Helper()
	s, err := signedlink.New(k)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewRejectsShortKeys(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 15} {
		if s, err := signedlink.New(make([]byte, n)); err == nil || s != nil {
			t.Errorf("New(%d-byte key) = %v, %v; want an error", n, s, err)
		}
	}
	if _, err := signedlink.New(make([]byte, 16)); err != nil {
		t.Errorf("New(16-byte key): %v", err)
	}
}

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	s := signer(t, key)
	for _, subject := range []string{"sub-123", "", "a.b.c", "ünïcode/?&=#"} {
		tok := s.Sign("unsubscribe", subject, later)
		if strings.ContainsAny(tok, "+/=?&# ") {
			t.Fatalf("token %q is not URL-safe", tok)
		}
		got, err := s.Verify("unsubscribe", tok, now)
		if err != nil || got != subject {
			t.Fatalf("Verify = %q, %v; want %q", got, err, subject)
		}
	}
	// Valid up to and including the expiry second.
	if _, err := s.Verify("unsubscribe", s.Sign("unsubscribe", "x", now), now); err != nil {
		t.Fatalf("a token is valid at its expiry: %v", err)
	}
}

func TestVerifyRefuses(t *testing.T) {
	t.Parallel()
	s := signer(t, key)
	tok := s.Sign("confirm", "sub-1", later)
	body, sig, _ := strings.Cut(tok, ".")
	other := signer(t, []byte("another key, 16+ bytes long"))
	flip := func(s string) string {
		b := []byte(s)
		if b[0] == 'A' {
			b[0] = 'B'
		} else {
			b[0] = 'A'
		}
		return string(b)
	}
	otherBody, _, _ := strings.Cut(s.Sign("confirm", "sub-2", later), ".")
	tests := []struct {
		name, purpose, token string
		at                   time.Time
	}{
		{"wrong purpose", "unsubscribe", tok, now},
		{"expired", "confirm", tok, later.Add(time.Second)},
		{"tampered body", "confirm", flip(body) + "." + sig, now},
		{"swapped body", "confirm", otherBody + "." + sig, now},
		{"tampered signature", "confirm", body + "." + flip(sig), now},
		{"no signature", "confirm", body, now},
		{"empty signature", "confirm", body + ".", now},
		{"empty token", "confirm", "", now},
		{"different key", "confirm", other.Sign("confirm", "sub-1", later), now},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := s.Verify(tt.purpose, tt.token, tt.at)
			if !errors.Is(err, core.ErrForbidden) || got != "" {
				t.Fatalf("Verify = %q, %v; want ErrForbidden", got, err)
			}
		})
	}
}

func TestKeyIsCopied(t *testing.T) {
	t.Parallel()
	k := append([]byte(nil), key...)
	s := signer(t, k)
	tok := s.Sign("p", "x", later)
	k[0] ^= 0xff
	if _, err := s.Verify("p", tok, now); err != nil {
		t.Fatalf("changing the caller's key slice changed the signer: %v", err)
	}
}

func TestMAC(t *testing.T) {
	t.Parallel()
	s, o := signer(t, key), signer(t, []byte("another key, 16+ bytes long"))
	first, again := s.MAC("a=1&b=2"), s.MAC("a=1&b=2")
	if first != again {
		t.Fatal("MAC is not deterministic")
	}
	if s.MAC("a=1&b=2") == s.MAC("a=1&b=3") || s.MAC("a=1") == o.MAC("a=1") {
		t.Fatal("MAC must depend on the text and the key")
	}
}

// Tokens signed before the claims lost their struct tags: links mailed
// then must still verify, and signing the same claims gives the same token.
func TestTokensOfEarlierReleases(t *testing.T) {
	t.Parallel()
	s := signer(t, key)
	exp := time.Unix(1893456000, 0)
	cases := []struct{ purpose, subject, token string }{
		{"subscriber-confirm", "0190a000-0000-7000-8000-000000000001",
			"eyJwIjoic3Vic2NyaWJlci1jb25maXJtIiwicyI6IjAxOTBhMDAwLTAwMDAtNzAwMC04MDAwLTAwMDAwMDAwMDAwMSIsImUiOjE4OTM0NTYwMDB9.uUxQq9SVx80koZF2OSHW_i5EBsYK3Wf2P7rEvgw7A9Y"},
		{"unsubscribe", "a<&>\"ü\\",
			"eyJwIjoidW5zdWJzY3JpYmUiLCJzIjoiYVx1MDAzY1x1MDAyNlx1MDAzZVwiw7xcXCIsImUiOjE4OTM0NTYwMDB9.Co1LJdBLCHK2ySIasaL_paZx3PJpJN3eyuCAb8obbTc"},
	}
	for _, c := range cases {
		if got, err := s.Verify(c.purpose, c.token, now); err != nil || got != c.subject {
			t.Errorf("Verify(%s) = %q, %v; want %q", c.purpose, got, err, c.subject)
		}
		if got := s.Sign(c.purpose, c.subject, exp); got != c.token {
			t.Errorf("Sign(%s, %q) = %s, want %s", c.purpose, c.subject, got, c.token)
		}
	}
}
