package auth_test

import (
	"context"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
)

// TestClockSkewIsThirtySeconds: the README's promise, for every verifier
// (dev tokens here; JWKS's takes the same DefaultSkew): a token is taken
// up to 30 s after its exp and when its iat is up to 30 s ahead, not
// beyond. Each check uses a verifier of its own, so none is remembered.
func TestClockSkewIsThirtySeconds(t *testing.T) {
	t.Parallel()
	if auth.DefaultSkew != 30*time.Second {
		t.Fatalf("DefaultSkew is %s; the README says 30 s", auth.DefaultSkew)
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	dev := func(now time.Time) *auth.Dev {
		d, err := auth.NewDev(devSecret, auth.DevOptions{Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	mint := func(at time.Time) string {
		tok, err := dev(at).Mint(auth.Claims{Subject: "user-1", Email: "ann@example.test", TTL: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	for _, tt := range []struct {
		name         string
		minted, read time.Time
		ok           bool
	}{
		{"expired 29 s ago", t0, t0.Add(time.Minute + 29*time.Second), true},
		{"expired 31 s ago", t0, t0.Add(time.Minute + 31*time.Second), false},
		{"issued 29 s ahead", t0.Add(29 * time.Second), t0, true},
		{"issued 31 s ahead", t0.Add(31 * time.Second), t0, false},
	} {
		_, err := dev(tt.read).Verify(context.Background(), mint(tt.minted))
		if (err == nil) != tt.ok {
			t.Errorf("%s: %v, want accepted %v", tt.name, err, tt.ok)
		}
	}
}
