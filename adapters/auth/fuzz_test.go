package auth_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/core"
)

// Whatever a client sends as a bearer token, the verifier either accepts
// a token it minted itself or refuses it as unauthenticated; it never
// panics and never accepts a token it did not sign.
func FuzzVerify(f *testing.F) {
	dev, err := auth.NewDev([]byte("fuzz-secret-0123456789abcdef0123"), auth.DevOptions{})
	if err != nil {
		f.Fatal(err)
	}
	good, err := dev.Mint(auth.Claims{Subject: "sub-1", Email: "a@b.test", EmailVerified: true, Groups: []string{"Admins"}, TTL: time.Hour})
	if err != nil {
		f.Fatal(err)
	}
	parts := strings.Split(good, ".")
	none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	for _, s := range []string{good, good + "x", parts[0] + "." + parts[1] + ".", none + "." + parts[1] + ".", parts[0] + ".e30." + parts[2],
		"", ".", "..", "a.b.c", strings.Repeat("A", 4096), `{"alg":"HS256"}`, "Bearer " + good, good + " ",
		strings.NewReplacer("-", "+", "_", "/").Replace(good)} {
		f.Add(s)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, token string) {
		id, err := dev.Verify(ctx, token)
		if err != nil {
			if !errors.Is(err, core.ErrUnauthenticated) {
				t.Fatalf("Verify(%q): %v is not ErrUnauthenticated", token, err)
			}
			return
		}
		// Space around the token is trimmed; nothing else may differ.
		if strings.TrimSpace(token) != good || id.Subject != "sub-1" || id.Email != "a@b.test" {
			t.Fatalf("Verify accepted a token it did not mint: %q -> %+v", token, id)
		}
	})
}

// TestVerifyRefusesNonCompactEncodings: a token whose parts are re-encoded
// in standard base64 ("+" and "/" for "-" and "_") carries the same bytes,
// but is not the token that was signed, and is refused (the fuzzer found
// the JWS parser taking it).
func TestVerifyRefusesNonCompactEncodings(t *testing.T) {
	t.Parallel()
	dev, err := auth.NewDev([]byte("fuzz-secret-0123456789abcdef0123"), auth.DevOptions{})
	if err != nil {
		t.Fatal(err)
	}
	std := strings.NewReplacer("-", "+", "_", "/")
	tried := 0
	for i := range 200 {
		tok, err := dev.Mint(auth.Claims{Subject: fmt.Sprintf("sub-%d", i), Email: "a@b.test", TTL: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		variant := std.Replace(tok)
		if variant == tok {
			continue
		}
		tried++
		if _, err := dev.Verify(context.Background(), tok); err != nil {
			t.Fatalf("the minted token: %v", err)
		}
		if _, err := dev.Verify(context.Background(), variant); !errors.Is(err, core.ErrUnauthenticated) {
			t.Fatalf("Verify(%q) = %v, want ErrUnauthenticated", variant, err)
		}
	}
	if tried == 0 {
		t.Fatal("no minted token had a - or _ to re-encode")
	}
}
