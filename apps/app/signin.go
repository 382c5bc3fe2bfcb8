package app

import (
	"context"
	"fmt"
	"time"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/ports"
)

// openJWKS builds the production token verifier: the provider's key set,
// refreshed in the background, with its fetches counted and its age
// exported (apps/obs) and a stale set reported to admins on /readyz.
func (a *App) openJWKS(ctx context.Context, cfg Config, clock ports.Clock) (ports.TokenVerifier, error) {
	j, err := auth.NewJWKS(ctx, auth.Config{JWKSURL: cfg.AuthJWKSURL, Issuer: cfg.AuthIssuer, Audience: cfg.AuthAudience,
		GroupsClaim: cfg.AuthGroupsClaim, MaxAge: cfg.AuthJWKSMaxAge, Logger: a.log, OnFetch: a.Metrics.JWKSFetched, Now: clock.Now})
	if err != nil {
		return nil, err
	}
	a.onClose(func(context.Context) error { return j.Close() })
	a.Metrics.WatchJWKS(func() (time.Duration, time.Duration) {
		st := j.Status()
		return st.Age, st.MaxAge
	})
	a.warnings = append(a.warnings, api.ReadyWarning{Name: "auth", Check: func() string { return jwksWarning(j.Status()) }})
	return j, nil
}

// jwksWarning says what /readyz tells admins of the key set: nothing while
// it is fresh.
func jwksWarning(st auth.Status) string {
	if !st.Stale {
		return ""
	}
	why := "no fetch has ended yet"
	if st.Failures > 0 {
		why = fmt.Sprintf("failed fetches since the last good one: %d, the last one %s", st.Failures, st.LastError)
	}
	return fmt.Sprintf("the sign-in key set (JWKS) from %s is %s old, past its max-age of %s (%s); "+
		"tokens signed with the keys it holds are still accepted, keys added or withdrawn since are not seen",
		st.URL, st.Age.Round(time.Second), st.MaxAge, why)
}
