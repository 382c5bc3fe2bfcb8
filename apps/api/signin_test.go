package api_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jwt"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
)

// oidc is an OpenID provider on loopback: a JWKS server and a key that
// signs tokens for the app's clock.
type oidc struct {
	srv  *httptest.Server
	key  jwk.Key
	down atomic.Bool
}

const (
	oidcIssuer   = "https://idp.signin.test/pool"
	oidcAudience = "vetted-client"
)

func newOIDC(t *testing.T) *oidc {
	t.Helper()
	raw, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	o := &oidc{}
	if o.key, err = jwk.Import(raw); err != nil {
		t.Fatal(err)
	}
	_ = o.key.Set(jwk.KeyIDKey, "signin-1")
	_ = o.key.Set(jwk.AlgorithmKey, jwa.ES256())
	pub, err := jwk.PublicKeyOf(o.key)
	if err != nil {
		t.Fatal(err)
	}
	set := jwk.NewSet()
	_ = set.AddKey(pub)
	body, _ := json.Marshal(set)
	o.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o.down.Load() {
			http.Error(w, "provider down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Cache-Control", "max-age=300")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	t.Cleanup(o.srv.Close)
	return o
}

// configure points the app's sign-in at the provider.
func (o *oidc) configure(c *app.Config) {
	c.AuthJWKSURL, c.AuthIssuer, c.AuthAudience, c.AuthGroupsClaim = o.srv.URL+"/jwks.json", oidcIssuer, oidcAudience, "vetted_groups"
}

// token signs a token for sub with the given extra claims, valid for an
// hour of the app's clock.
func (o *oidc) token(t *testing.T, env *apitest.Env, sub string, extra map[string]any) string {
	t.Helper()
	now := env.Clock.Now()
	tok, err := jwt.NewBuilder().Issuer(oidcIssuer).Audience([]string{oidcAudience}).Subject(sub).
		IssuedAt(now).Expiration(now.Add(time.Hour)).Claim("email", sub+"@signin.test").Claim("email_verified", true).Build()
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range extra {
		_ = tok.Set(k, v)
	}
	signed, err := jwt.Sign(tok, jwt.WithKey(jwa.ES256(), o.key))
	if err != nil {
		t.Fatal(err)
	}
	return string(signed)
}

// TestProductionSignInGroups: against a real JWKS, only the configured
// groups claim, an array of strings holding exactly "Admins", makes a
// platform admin (a platform-admin route answers 404 for an unknown run
// to an admin, 403 to anyone else).
func TestProductionSignInGroups(t *testing.T) {
	t.Parallel()
	o := newOIDC(t)
	env := apitest.New(t, apitest.WithConfig(o.configure))
	probe := "/vendor/enrich/0191b7a4-7e7e-7e7e-8e7e-000000000001"
	tests := []struct {
		name   string
		claims map[string]any
		status int
	}{
		{"configured claim", map[string]any{"vetted_groups": []string{"Admins"}}, 404},
		{"trailing space", map[string]any{"vetted_groups": []string{"Admins "}}, 403},
		{"leading space", map[string]any{"vetted_groups": []string{" Admins"}}, 403},
		{"lower case", map[string]any{"vetted_groups": []string{"admins"}}, 403},
		{"plain string", map[string]any{"vetted_groups": "Admins"}, 403},
		{"groups claim", map[string]any{"groups": []string{"Admins"}}, 403},
		{"cognito claim", map[string]any{"cognito:groups": []string{"Admins"}}, 403},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tok := o.token(t, env, "user-"+string(rune('a'+i)), tc.claims)
			apitest.Must(t, env.Do(t, "GET", probe, tok, nil), tc.status)
		})
	}
}
