package auth_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/internal/testenv"

	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/ports"
)

// fakeClock is the real time moved on by what a test adds.
type fakeClock struct{ off atomic.Int64 }

func (c *fakeClock) now() time.Time          { return time.Now().Add(time.Duration(c.off.Load())) }
func (c *fakeClock) advance(d time.Duration) { c.off.Add(int64(d)) }

// logBuffer gathers log lines written from several goroutines.
type logBuffer struct{ testenv.Buffer }

// lines returns the lines holding every one of parts.
func (b *logBuffer) lines(parts ...string) []string { return b.Lines(parts...) }

func (b *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// fetchResults counts Config.OnFetch calls by result.
type fetchResults struct {
	mu sync.Mutex
	n  map[string]int
}

func (f *fetchResults) record(result string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == nil {
		f.n = map[string]int{}
	}
	f.n[result]++
}

func (f *fetchResults) count(result string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n[result]
}

// newJWKSWith builds a verifier of srv's key set from cfg, completed with
// the test issuer and audience.
func newJWKSWith(t *testing.T, srv *jwksServer, cfg auth.Config) *auth.JWKS {
	t.Helper()
	cfg.JWKSURL, cfg.Issuer, cfg.Audience = srv.URL+"/.well-known/jwks.json", testIssuer, testAudience
	v, err := auth.NewJWKS(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = v.Close() })
	return v
}

// eventually calls f until it reports true, failing the test after limit;
// it returns how long that took.
func eventually(t *testing.T, limit time.Duration, what string, f func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !f() {
		if time.Since(start) > limit {
			t.Fatalf("%s: not so after %s", what, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return time.Since(start)
}

// TestJWKSRotationFollowsMaxAge: the key set is fetched again in the
// background when the max-age the provider sends runs out, with no token
// asking for it: a key added by the provider is accepted, and a key it
// withdrew is refused (its tokens verified earlier are forgotten), each
// within the max-age. The fetch an unknown key id may cause is spent
// first, so only the background refresh can explain either.
func TestJWKSRotationFollowsMaxAge(t *testing.T) {
	t.Parallel()
	old := newKey(t, "2026-01", jwa.RS256())
	next := newKey(t, "2026-02", jwa.ES256())
	srv := newJWKSServer(t, old)
	srv.answer("public, max-age=1", 0, nil)
	v := newJWKSWith(t, srv, auth.Config{MinMaxAge: time.Second, MaxMaxAge: 2 * time.Second, MinRefreshInterval: time.Hour})
	if st := v.Status(); st.MaxAge != time.Second {
		t.Fatalf("max-age = %s, want the provider's 1s", st.MaxAge)
	}
	ctx := context.Background()
	oldToken, nextToken := old.sign(t, oidcClaims()), next.sign(t, oidcClaims())
	if _, err := v.Verify(ctx, oldToken); err != nil {
		t.Fatalf("old key: %v", err)
	}
	verifyAs(t, v, forgedKid(t, old, "spends-the-refetch"), "unknown key id")

	srv.publish(old, next)
	added := eventually(t, 20*time.Second, "the added key is accepted", func() bool {
		_, err := v.Verify(ctx, nextToken)
		return err == nil
	})
	srv.publish(next)
	removed := eventually(t, 20*time.Second, "the withdrawn key is refused", func() bool {
		_, err := v.Verify(ctx, oldToken)
		return errors.Is(err, core.ErrUnauthenticated)
	})
	if _, err := v.Verify(ctx, nextToken); err != nil {
		t.Fatalf("the new key after the old one left: %v", err)
	}
	t.Logf("max-age 1s on loopback: added key accepted after %s, withdrawn key refused after %s (%d fetches)",
		added.Round(time.Millisecond), removed.Round(time.Millisecond), srv.hits.Load())
}

// TestJWKSMaxAgeBounds: the provider's max-age is used between the
// bounds (1 and 15 minutes by default), and the configured MaxAge
// replaces it.
func TestJWKSMaxAgeBounds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		cacheControl string
		override     time.Duration
		want         time.Duration
	}{
		{"provider's max-age", "max-age=300", 0, 5 * time.Minute},
		{"below the floor", "max-age=5", 0, time.Minute},
		{"zero", "max-age=0, must-revalidate", 0, time.Minute},
		{"above the ceiling", "public, max-age=86400", 0, 15 * time.Minute},
		{"none sent", "", 0, time.Minute},
		{"configured", "max-age=300", 2 * time.Minute, 2 * time.Minute},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newJWKSServer(t, newKey(t, "k", jwa.ES256()))
			srv.answer(tc.cacheControl, 0, nil)
			v := newJWKSWith(t, srv, auth.Config{MaxAge: tc.override})
			if st := v.Status(); st.MaxAge != tc.want || st.Stale || st.FetchedAt.IsZero() {
				t.Fatalf("status = %+v, want max-age %s, fresh", st, tc.want)
			}
		})
	}
}

// TestJWKSOutage: while the provider hangs or fails, keys already known
// keep working; a token naming a new key id is refused without waiting
// for the hanging fetch; every failure is counted, the first one logged
// at warn with the URL and the reason, the next ones within the minute
// not; the set is reported stale past its max-age; and once the provider
// answers again a new key is accepted at the next token that names it
// (after the short refetch interval, not a fixed minute), with the
// recovery logged.
func TestJWKSOutage(t *testing.T) {
	t.Parallel()
	k1 := newKey(t, "k1", jwa.RS256())
	k2 := newKey(t, "k2", jwa.ES256())
	srv := newJWKSServer(t, k1)
	srv.answer("max-age=60", 0, nil)
	clk := &fakeClock{}
	logs := &logBuffer{}
	results := &fetchResults{}
	v := newJWKSWith(t, srv, auth.Config{Now: clk.now, Logger: logs.logger(), OnFetch: results.record,
		HTTPClient: &http.Client{Timeout: time.Minute}, // longer than the test may wait
	})
	ctx := context.Background()
	claims := func(sub string) map[string]any { return with(oidcClaims(), "sub", sub) }
	if _, err := v.Verify(ctx, k1.sign(t, claims("u1"))); err != nil {
		t.Fatal(err)
	}

	release := srv.hang(t)
	srv.publish(k1, k2)
	if _, err := v.Verify(ctx, k1.sign(t, claims("u2"))); err != nil {
		t.Fatalf("known key while the provider hangs: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := v.Verify(ctx, k2.sign(t, claims("u3")))
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, core.ErrUnauthenticated) || !strings.Contains(err.Error(), "unknown key id") {
			t.Fatalf("new kid while the provider hangs: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("a token with a new kid waits for the hanging provider")
	}

	srv.answer("", http.StatusServiceUnavailable, []byte(`{"message":"down"}`))
	release()
	clk.advance(auth.DefaultMinRefreshInterval)
	verifyAs(t, v, k2.sign(t, claims("u4")), "unknown key id")
	eventually(t, 20*time.Second, "the failed fetches are counted", func() bool { return results.count(auth.FetchBadStatus) >= 2 })
	warned := logs.lines("level=WARN", "JWKS fetch failed", srv.URL+"/.well-known/jwks.json", "status 503")
	if len(warned) != 1 {
		t.Fatalf("%d warnings for %d failed fetches within a minute, want 1:\n%s", len(warned), results.count(auth.FetchBadStatus), strings.Join(warned, "\n"))
	}

	clk.advance(time.Minute + auth.StaleGrace)
	st := v.Status()
	if !st.Stale || st.Failures < 2 || !strings.Contains(st.LastError, "503") {
		t.Fatalf("status during the outage = %+v, want stale with the failures", st)
	}
	if _, err := v.Verify(ctx, k1.sign(t, claims("u5"))); err != nil {
		t.Fatalf("known key with a stale set: %v", err)
	}

	srv.answer("max-age=60", 0, nil)
	clk.advance(auth.DefaultMinRefreshInterval)
	if _, err := v.Verify(ctx, k2.sign(t, claims("u6"))); err != nil {
		t.Fatalf("new key once the provider is back: %v", err)
	}
	if st := v.Status(); st.Stale || st.Failures != 0 || st.LastError != "" {
		t.Fatalf("status after recovery = %+v", st)
	}
	if len(logs.lines("level=INFO", "JWKS fetched again")) != 1 {
		t.Fatal("the recovery is not logged")
	}
	if results.count(auth.FetchOK) != 2 {
		t.Fatalf("%d good fetches counted, want 2", results.count(auth.FetchOK))
	}
}

// TestJWKSBadAnswersKeepTheSet: an answer that is not a usable key set
// fails the fetch, counted by its kind, and the set in hand stays.
func TestJWKSBadAnswersKeepTheSet(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		status int
		body   []byte
		result string
	}{
		{"server error", http.StatusInternalServerError, []byte(`{}`), auth.FetchBadStatus},
		{"too large", 0, bytes.Repeat([]byte(" "), 2<<20), auth.FetchInvalid},
		{"malformed", 0, []byte(`{"keys":[{"kty":`), auth.FetchInvalid},
		{"empty set", 0, []byte(`{"keys":[]}`), auth.FetchInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			k := newKey(t, "k", jwa.RS256())
			srv := newJWKSServer(t, k)
			results := &fetchResults{}
			v := newJWKSWith(t, srv, auth.Config{OnFetch: results.record, MinRefreshInterval: time.Nanosecond,
				Logger: slog.New(slog.DiscardHandler)})
			srv.answer("", tc.status, tc.body)
			verifyAs(t, v, forgedKid(t, k, "unknown"), "unknown key id")
			if results.count(tc.result) != 1 {
				t.Fatalf("results = %v, want one %s", results.n, tc.result)
			}
			if _, err := v.Verify(context.Background(), k.sign(t, oidcClaims())); err != nil {
				t.Fatalf("known key after a bad answer: %v", err)
			}
		})
	}
}

// TestJWKSGroupsClaim: only the configured claim counts, as an array of
// strings matched exactly; anything else is no group, noted once per
// issuer at debug level.
func TestJWKSGroupsClaim(t *testing.T) {
	t.Parallel()
	k := newKey(t, "k", jwa.ES256())
	srv := newJWKSServer(t, k)
	logs := &logBuffer{}
	v := newJWKSWith(t, srv, auth.Config{GroupsClaim: "vetted_groups", Logger: logs.logger()})
	tests := []struct {
		name   string
		claims map[string]any
		admin  bool
	}{
		{"configured claim", map[string]any{"vetted_groups": []string{"Ops", "Admins"}}, true},
		{"trailing space", map[string]any{"vetted_groups": []string{"Admins "}}, false},
		{"leading space", map[string]any{"vetted_groups": []string{" Admins"}}, false},
		{"other case", map[string]any{"vetted_groups": []string{"admins"}}, false},
		{"plain string", map[string]any{"vetted_groups": "Admins"}, false},
		{"array with a number", map[string]any{"vetted_groups": []any{"Admins", 7}}, false},
		{"groups claim", map[string]any{"groups": []string{"Admins"}}, false},
		{"cognito claim", map[string]any{"cognito:groups": []string{"Admins"}}, false},
		{"groups beside the configured claim", map[string]any{"vetted_groups": []string{"Ops"}, "groups": []string{"Admins"}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := oidcClaims()
			for name, val := range tc.claims {
				c[name] = val
			}
			id, err := v.Verify(context.Background(), k.sign(t, c))
			if err != nil {
				t.Fatal(err)
			}
			if id.IsPlatformAdmin() != tc.admin {
				t.Fatalf("platform admin = %v, want %v (groups %q)", id.IsPlatformAdmin(), tc.admin, id.Groups)
			}
		})
	}
	for _, sub := range []string{"a", "b"} { // the same problem again: no second note
		c := with(with(oidcClaims(), "sub", sub), "groups", []string{"Admins"})
		if _, err := v.Verify(context.Background(), k.sign(t, c)); err != nil {
			t.Fatal(err)
		}
	}
	for _, problem := range []string{`a \"groups\" claim is ignored`, "is not an array of strings", "not a string"} {
		if n := len(logs.lines("level=DEBUG", "token groups not counted", "issuer="+testIssuer, problem)); n != 1 {
			t.Errorf("%q noted %d times at debug with the issuer, want once:\n%s", problem, n, logs.String())
		}
	}
}

var _ ports.TokenVerifier = (*auth.JWKS)(nil)
