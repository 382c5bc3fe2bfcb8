package auth

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lestrrat-go/httpcc"
	"github.com/lestrrat-go/httprc/v3"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/vetted-dev/vetted/core/platform/ttlcache"
	"github.com/vetted-dev/vetted/ports"
)

// Defaults for Config.
const (
	// DefaultMinMaxAge and DefaultMaxMaxAge bound the provider's
	// Cache-Control max-age: the key set is fetched again at least every
	// 15 minutes (a withdrawn key is refused within that), and at most
	// every minute however short the provider's max-age.
	DefaultMinMaxAge = time.Minute
	DefaultMaxMaxAge = 15 * time.Minute
	// DefaultMinRefreshInterval is the least time between two fetches
	// caused by tokens naming a key id the set does not hold, so forged
	// kids cannot hammer the provider.
	DefaultMinRefreshInterval = 10 * time.Second
	// DefaultRefreshWait is how long a request naming an unknown key id
	// waits for that fetch before it is answered 401.
	DefaultRefreshWait = 2 * time.Second
	// DefaultFetchTimeout bounds one fetch of the key set.
	DefaultFetchTimeout = 10 * time.Second
	// StaleGrace is how far past its max-age the key set in hand may be
	// before Status calls it stale: the time a background fetch may take.
	StaleGrace  = DefaultFetchTimeout
	maxJWKSSize = 1 << 20
	// failureLogEvery rate-limits the warnings of failed fetches.
	failureLogEvery = time.Minute
)

// Results of a key set fetch, as passed to Config.OnFetch.
const (
	FetchOK          = "ok"          // a valid, non-empty key set
	FetchUnreachable = "unreachable" // no answer (connection, timeout, body cut)
	FetchBadStatus   = "bad_status"  // an answer other than 200
	FetchInvalid     = "invalid"     // too large, malformed or empty
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
	// HTTPClient fetches the key set; a client with DefaultFetchTimeout
	// when nil.
	HTTPClient *http.Client
	// MaxAge, when set, is how long a fetched key set is used before it is
	// fetched again, whatever the provider's Cache-Control says. Zero: the
	// provider's max-age (or Expires), bounded by MinMaxAge and MaxMaxAge.
	MaxAge time.Duration
	// MinMaxAge and MaxMaxAge bound the provider's max-age;
	// DefaultMinMaxAge and DefaultMaxMaxAge when zero. MinMaxAge is also
	// the wait before a failed background fetch is tried again.
	MinMaxAge, MaxMaxAge time.Duration
	// MinRefreshInterval bounds fetches caused by tokens with an unknown
	// key id; DefaultMinRefreshInterval when zero.
	MinRefreshInterval time.Duration
	// RefreshWait bounds how long such a token waits for the fetch;
	// DefaultRefreshWait when zero.
	RefreshWait time.Duration
	// Logger receives failed fetches (warn, rate-limited), the recovery
	// (info) and groups claims that do not count (debug); nil is
	// slog.Default().
	Logger *slog.Logger
	// OnFetch, when set, is called after every fetch with its result
	// (FetchOK, FetchUnreachable, FetchBadStatus, FetchInvalid).
	OnFetch func(result string)
	// Now is the clock of token times and of Status; time.Now when nil.
	Now func() time.Time
	// Skew is the tolerated clock skew; DefaultSkew when zero.
	Skew time.Duration
}

// JWKS verifies RS256 and ES256 tokens against a provider's JSON Web Key
// Set, kept by a jwk.Cache (httprc): fetched at construction, then again
// in the background whenever its max-age runs out, requests meanwhile
// using the set in hand. A token naming a key id the set does not hold
// makes it fetch at once (at most once per MinRefreshInterval, waiting at
// most RefreshWait), which is how a new key is picked up between
// refreshes. A failed fetch keeps the last good set; a key missing from a
// newly fetched set is refused from then on, and the tokens verified with
// it are forgotten.
type JWKS struct {
	cfg   Config
	v     verifier
	log   *slog.Logger
	cache *jwk.Cache
	stop  context.CancelFunc
	res   *httprc.ResourceBase[jwk.Set]

	// seen is the set the memory of verified tokens was made with.
	seen atomic.Pointer[jwk.Set]

	first     chan struct{} // closed after the first fetch, good or not
	firstOnce sync.Once

	mu          sync.Mutex
	lastRefetch time.Time // last fetch caused by an unknown key id
	fetchedAt   time.Time // last good fetch
	maxAge      time.Duration
	failures    int // failed fetches since the last good one
	lastErr     string
	loggedAt    time.Time // last warning of a failed fetch
	unlogged    int       // failed fetches not warned of since loggedAt
}

var _ ports.TokenVerifier = (*JWKS)(nil)

// NewJWKS validates cfg and fetches the key set once; it fails when the
// set cannot be fetched, so a misconfigured deployment does not start.
// Close stops the background refresh.
func NewJWKS(ctx context.Context, cfg Config) (*JWKS, error) {
	if err := checkJWKSURL(cfg.JWKSURL); err != nil {
		return nil, err
	}
	if cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("auth: JWKS mode needs an issuer and an audience")
	}
	cfg = withDefaults(cfg)
	j := &JWKS{cfg: cfg, log: cfg.Logger, first: make(chan struct{})}
	j.v = verifier{
		verified:    &ttlcache.Map[string, ports.Identity]{},
		algs:        []jwa.SignatureAlgorithm{jwa.RS256(), jwa.ES256()},
		key:         j.lookup,
		issuer:      cfg.Issuer,
		audience:    cfg.Audience,
		groupsClaim: cfg.GroupsClaim,
		log:         cfg.Logger,
		now:         cfg.Now,
		skew:        cfg.Skew,
		changed:     j.forgetIfChanged,
	}
	// The cache lives until Close, not as long as ctx (which only bounds
	// the first fetch).
	life, stop := context.WithCancel(context.Background())
	cache, err := jwk.NewCache(life, httprc.NewClient(httprc.WithWorkers(1)))
	if err != nil {
		stop()
		return nil, fmt.Errorf("auth: JWKS cache: %w", err)
	}
	j.cache, j.stop = cache, stop
	fail := func(err error) (*JWKS, error) {
		_ = j.Close()
		return nil, err
	}
	opts := []jwk.RegisterOption{
		jwk.WithHTTPClient(fetcher{j: j, c: cfg.HTTPClient}),
		jwk.WithMaxFetchBodySize(maxJWKSSize),
		jwk.WithMinInterval(cfg.MinMaxAge),
		jwk.WithMaxInterval(cfg.MaxMaxAge),
		jwk.WithWaitReady(false), // a failed first fetch is waited for below
	}
	if cfg.MaxAge > 0 {
		opts = append(opts, jwk.WithConstantInterval(cfg.MaxAge))
	}
	if err := cache.Register(ctx, cfg.JWKSURL, opts...); err != nil {
		return fail(fmt.Errorf("auth: JWKS cache: %w", err))
	}
	if j.res, err = cache.LookupResource(ctx, cfg.JWKSURL); err != nil {
		return fail(fmt.Errorf("auth: JWKS cache: %w", err))
	}
	select {
	case <-j.first:
	case <-ctx.Done():
		return fail(fmt.Errorf("auth: fetch JWKS: %w", ctx.Err()))
	}
	if st := j.Status(); st.FetchedAt.IsZero() {
		return fail(fmt.Errorf("auth: fetch JWKS: %s", st.LastError))
	}
	if err := j.res.Ready(ctx); err != nil {
		return fail(fmt.Errorf("auth: fetch JWKS: %w", err))
	}
	return j, nil
}

func withDefaults(cfg Config) Config {
	if cfg.GroupsClaim == "" {
		cfg.GroupsClaim = DefaultGroupsClaim
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: DefaultFetchTimeout}
	}
	if cfg.MinMaxAge <= 0 {
		cfg.MinMaxAge = DefaultMinMaxAge
	}
	if cfg.MaxMaxAge <= 0 {
		cfg.MaxMaxAge = DefaultMaxMaxAge
	}
	cfg.MaxMaxAge = max(cfg.MaxMaxAge, cfg.MinMaxAge)
	if cfg.MinRefreshInterval == 0 {
		cfg.MinRefreshInterval = DefaultMinRefreshInterval
	}
	if cfg.RefreshWait <= 0 {
		cfg.RefreshWait = DefaultRefreshWait
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Skew == 0 {
		cfg.Skew = DefaultSkew
	}
	return cfg
}

// Close stops the background refresh of the key set.
func (j *JWKS) Close() error {
	if j.cache == nil {
		return nil
	}
	defer j.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return j.cache.Shutdown(ctx)
}

// Verify checks a token against the key set and returns its identity.
func (j *JWKS) Verify(ctx context.Context, token string) (ports.Identity, error) {
	return j.v.verify(ctx, token)
}

// Status describes the key set in hand, for metrics and /readyz.
type Status struct {
	URL string
	// FetchedAt is the time of the last good fetch (zero before one).
	FetchedAt time.Time
	// Age is how long ago that was; MaxAge how long that set is meant to
	// be used (the provider's bounded max-age, or Config.MaxAge).
	Age, MaxAge time.Duration
	// Stale: the set is older than MaxAge + StaleGrace, i.e. fetching it
	// again has failed (or hangs); known keys still work.
	Stale bool
	// Failures counts the fetches failed since the last good one, and
	// LastError says why the last of them failed.
	Failures  int
	LastError string
}

// Status reports the key set in hand.
func (j *JWKS) Status() Status {
	j.mu.Lock()
	defer j.mu.Unlock()
	st := Status{URL: j.cfg.JWKSURL, FetchedAt: j.fetchedAt, MaxAge: j.maxAge, Failures: j.failures, LastError: j.lastErr}
	if !st.FetchedAt.IsZero() {
		st.Age = max(0, j.cfg.Now().Sub(st.FetchedAt))
		st.Stale = st.Age > st.MaxAge+StaleGrace
	}
	return st
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

// forgetIfChanged forgets the verified tokens when the cache holds another
// key set than the one they were verified with: a key may have left it.
func (j *JWKS) forgetIfChanged() {
	set := j.res.Resource()
	if p := j.seen.Load(); p != nil && *p == set {
		return
	}
	j.seen.Store(&set)
	j.v.verified.Clear()
}

// lookup finds the verification key for a token header.
func (j *JWKS) lookup(ctx context.Context, alg jwa.SignatureAlgorithm, kid string) (any, error) {
	if kid == "" {
		return nil, unauth("missing key id")
	}
	key, ok := j.res.Resource().LookupKeyID(kid)
	if !ok && j.mayRefetch() {
		wait, cancel := context.WithTimeout(ctx, j.cfg.RefreshWait)
		// An error is the fetch failing (logged by fetcher) or the wait
		// running out (the fetch goes on in the background): the set in
		// hand answers either way.
		_, _ = j.cache.Refresh(wait, j.cfg.JWKSURL)
		cancel()
		key, ok = j.res.Resource().LookupKeyID(kid)
	}
	if !ok {
		return nil, unauth("unknown key id")
	}
	if err := keyFits(key, alg); err != nil {
		return nil, err
	}
	return key, nil
}

// mayRefetch reports whether an unknown key id may fetch the set now, and
// if so counts the fetch.
func (j *JWKS) mayRefetch() bool {
	now := j.cfg.Now()
	j.mu.Lock()
	defer j.mu.Unlock()
	if now.Sub(j.lastRefetch) < j.cfg.MinRefreshInterval {
		return false
	}
	j.lastRefetch = now
	return true
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

// fetcher is the HTTP client of the cache. It checks each answer before
// the cache may keep it (200, at most maxJWKSSize bytes, a non-empty key
// set), so that a bad answer fails the fetch and the last good set stays;
// and it records, counts and logs the outcome of every fetch.
type fetcher struct {
	j *JWKS
	c *http.Client
}

func (f fetcher) Do(req *http.Request) (*http.Response, error) {
	req.Header.Set("Accept", "application/json")
	resp, err := f.c.Do(req)
	if err != nil {
		return nil, f.j.failed(FetchUnreachable, err)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSSize+1))
	resp.Body.Close()
	switch {
	case resp.StatusCode != http.StatusOK:
		return nil, f.j.failed(FetchBadStatus, fmt.Errorf("status %d", resp.StatusCode))
	case err != nil:
		return nil, f.j.failed(FetchUnreachable, err)
	case len(body) > maxJWKSSize:
		return nil, f.j.failed(FetchInvalid, fmt.Errorf("key set larger than %d bytes", maxJWKSSize))
	}
	set, err := jwk.Parse(body)
	if err != nil {
		return nil, f.j.failed(FetchInvalid, err)
	}
	if set.Len() == 0 {
		return nil, f.j.failed(FetchInvalid, errors.New("key set is empty"))
	}
	f.j.fetched(f.j.maxAgeOf(resp.Header))
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// maxAgeOf is how long the cache will use the set of an answer with
// header h, worked out as httprc does: Config.MaxAge, else Cache-Control
// max-age, else Expires, bounded by MinMaxAge and MaxMaxAge.
func (j *JWKS) maxAgeOf(h http.Header) time.Duration {
	if j.cfg.MaxAge > 0 {
		return j.cfg.MaxAge
	}
	var d time.Duration
	if dir, err := httpcc.ParseResponse(h.Get("Cache-Control")); err == nil {
		if s, ok := dir.MaxAge(); ok {
			d = time.Duration(s) * time.Second
		}
	}
	if d == 0 {
		if t, err := http.ParseTime(h.Get("Expires")); err == nil {
			d = time.Until(t)
		}
	}
	return min(max(d, j.cfg.MinMaxAge), j.cfg.MaxMaxAge)
}

// fetched records a good fetch.
func (j *JWKS) fetched(maxAge time.Duration) {
	now := j.cfg.Now()
	j.mu.Lock()
	failures := j.failures
	j.fetchedAt, j.maxAge, j.failures, j.lastErr, j.unlogged = now, maxAge, 0, "", 0
	j.mu.Unlock()
	j.firstOnce.Do(func() { close(j.first) })
	if j.cfg.OnFetch != nil {
		j.cfg.OnFetch(FetchOK)
	}
	if failures > 0 {
		j.log.Info("JWKS fetched again", "url", j.cfg.JWKSURL, "failed_fetches", failures, "max_age", maxAge)
	}
}

// failed records a failed fetch and warns of it, at most once per
// failureLogEvery (the first failure after a good fetch at once), saying
// how many went unlogged. It returns err.
func (j *JWKS) failed(result string, err error) error {
	now := j.cfg.Now()
	j.mu.Lock()
	j.failures++
	j.lastErr = result + ": " + err.Error()
	j.unlogged++
	failures, unlogged := j.failures, j.unlogged
	logIt := failures == 1 || now.Sub(j.loggedAt) >= failureLogEvery
	if logIt {
		j.loggedAt, j.unlogged = now, 0
	}
	var age time.Duration
	if !j.fetchedAt.IsZero() {
		age = now.Sub(j.fetchedAt)
	}
	j.mu.Unlock()
	j.firstOnce.Do(func() { close(j.first) })
	if j.cfg.OnFetch != nil {
		j.cfg.OnFetch(result)
	}
	if logIt {
		j.log.Warn("JWKS fetch failed; the key set in hand stays in use", "url", j.cfg.JWKSURL, "result", result,
			"err", err, "failed_fetches", failures, "not_logged_since_last", unlogged-1, "key_set_age", age.Round(time.Second))
	}
	return err
}
