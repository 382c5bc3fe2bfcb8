package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/vetted-dev/vetted/core/memo"
	"github.com/vetted-dev/vetted/ports"
)

// Defaults for Config.
const (
	DefaultRefreshInterval    = time.Hour
	DefaultMinRefreshInterval = time.Minute
	maxJWKSSize               = 1 << 20
)

// Config configures a JWKS verifier. JWKSURL, Issuer and Audience are
// required.
type Config struct {
	// JWKSURL is the provider's key set, e.g.
	// https://cognito-idp.<region>.amazonaws.com/<pool>/.well-known/jwks.json.
	// It must be https, except on a loopback host (tests, local IdPs).
	JWKSURL string
	// Issuer is the exact required "iss".
	Issuer string
	// Audience must appear in "aud" (for Cognito ID tokens: the app client id).
	Audience string
	// GroupsClaim names the groups claim; DefaultGroupsClaim when empty.
	GroupsClaim string
	// HTTPClient fetches the key set; a client with a 10 s timeout when nil.
	HTTPClient *http.Client
	// RefreshInterval is how old the key set may get before the next
	// verification re-fetches it; DefaultRefreshInterval when zero.
	RefreshInterval time.Duration
	// MinRefreshInterval bounds re-fetches caused by tokens with an unknown
	// key id, so forged kids cannot hammer the provider;
	// DefaultMinRefreshInterval when zero.
	MinRefreshInterval time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Skew is the tolerated clock skew; DefaultSkew when zero.
	Skew time.Duration
}

// JWKS verifies RS256 and ES256 tokens against a provider's JSON Web Key
// Set. The set is fetched at construction, re-fetched when it is older
// than RefreshInterval, and re-fetched (at most once per
// MinRefreshInterval) when a token names a key id it does not hold, which
// is how key rotation is picked up. A failed re-fetch keeps the old set.
type JWKS struct {
	cfg Config
	v   verifier

	fetchMu sync.Mutex // one fetch at a time

	mu          sync.RWMutex
	set         jwk.Set
	fetchedAt   time.Time
	lastAttempt time.Time
}

var _ ports.TokenVerifier = (*JWKS)(nil)

// NewJWKS validates cfg and fetches the key set once; it fails when the
// set cannot be fetched, so a misconfigured deployment does not start.
func NewJWKS(ctx context.Context, cfg Config) (*JWKS, error) {
	if err := checkJWKSURL(cfg.JWKSURL); err != nil {
		return nil, err
	}
	if cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("auth: JWKS mode needs an issuer and an audience")
	}
	if cfg.GroupsClaim == "" {
		cfg.GroupsClaim = DefaultGroupsClaim
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 10 * time.Second}
	}
	if cfg.RefreshInterval == 0 {
		cfg.RefreshInterval = DefaultRefreshInterval
	}
	if cfg.MinRefreshInterval == 0 {
		cfg.MinRefreshInterval = DefaultMinRefreshInterval
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Skew == 0 {
		cfg.Skew = DefaultSkew
	}
	j := &JWKS{cfg: cfg}
	j.v = verifier{
		verified:    &memo.Map[string, ports.Identity]{},
		algs:        []jwa.SignatureAlgorithm{jwa.RS256(), jwa.ES256()},
		key:         j.lookup,
		issuer:      cfg.Issuer,
		audience:    cfg.Audience,
		groupsClaim: cfg.GroupsClaim,
		now:         cfg.Now,
		skew:        cfg.Skew,
	}
	if err := j.refresh(ctx, time.Time{}); err != nil {
		return nil, fmt.Errorf("auth: fetch JWKS: %w", err)
	}
	return j, nil
}

// Verify checks a token against the key set and returns its identity.
func (j *JWKS) Verify(ctx context.Context, token string) (ports.Identity, error) {
	return j.v.verify(ctx, token)
}

func checkJWKSURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return errors.New("auth: JWKS URL must be an absolute URL")
	}
	if u.Scheme == "https" {
		return nil
	}
	ip := net.ParseIP(u.Hostname())
	if u.Scheme == "http" && (u.Hostname() == "localhost" || (ip != nil && ip.IsLoopback())) {
		return nil
	}
	return errors.New("auth: JWKS URL must be https")
}

func (j *JWKS) snapshot() (jwk.Set, time.Time, time.Time) {
	j.mu.RLock()
	defer j.mu.RUnlock()
	return j.set, j.fetchedAt, j.lastAttempt
}

// lookup finds the verification key for a token header.
func (j *JWKS) lookup(ctx context.Context, alg jwa.SignatureAlgorithm, kid string) (any, error) {
	if kid == "" {
		return nil, unauth("missing key id")
	}
	set, fetchedAt, attempt := j.snapshot()
	now := j.cfg.Now()
	if now.Sub(fetchedAt) >= j.cfg.RefreshInterval && now.Sub(attempt) >= j.cfg.MinRefreshInterval {
		_ = j.refresh(ctx, attempt) // a failure keeps the old set
		set, _, attempt = j.snapshot()
	}
	key, ok := set.LookupKeyID(kid)
	if !ok && now.Sub(attempt) >= j.cfg.MinRefreshInterval {
		_ = j.refresh(ctx, attempt)
		set, _, _ = j.snapshot()
		key, ok = set.LookupKeyID(kid)
	}
	if !ok {
		return nil, unauth("unknown key id")
	}
	if err := keyFits(key, alg); err != nil {
		return nil, err
	}
	return key, nil
}

// keyFits refuses a key whose type, use or declared algorithm does not
// match the token's algorithm.
func keyFits(key jwk.Key, alg jwa.SignatureAlgorithm) error {
	want := jwa.RSA()
	if alg == jwa.ES256() {
		want = jwa.EC()
	}
	if key.KeyType() != want {
		return unauth("key type does not match algorithm")
	}
	if use, ok := key.KeyUsage(); ok && use != "sig" {
		return unauth("key is not a signing key")
	}
	if ka, ok := key.Algorithm(); ok && ka.String() != alg.String() {
		return unauth("key algorithm does not match token")
	}
	return nil
}

// refresh fetches the key set unless another caller already tried since
// seen; the attempt time is recorded even when the fetch fails.
func (j *JWKS) refresh(ctx context.Context, seen time.Time) error {
	j.fetchMu.Lock()
	defer j.fetchMu.Unlock()
	if _, _, attempt := j.snapshot(); attempt.After(seen) {
		return nil
	}
	now := j.cfg.Now()
	set, err := j.fetch(ctx)
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lastAttempt = now
	if err != nil {
		return err
	}
	j.set, j.fetchedAt = set, now
	// A key may have left the set: what was verified with it is forgotten.
	j.v.verified.Clear()
	return nil
}

func (j *JWKS) fetch(ctx context.Context) (jwk.Set, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, j.cfg.JWKSURL, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := j.cfg.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSSize+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxJWKSSize {
		return nil, errors.New("key set too large")
	}
	set, err := jwk.Parse(body)
	if err != nil {
		return nil, err
	}
	if set.Len() == 0 {
		return nil, errors.New("key set is empty")
	}
	return set, nil
}
