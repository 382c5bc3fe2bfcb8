package obs_test

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/vetted-dev/vetted/apps/obs"
)

func TestJWKSMetrics(t *testing.T) {
	t.Parallel()
	m := obs.NewMetrics()
	m.JWKSFetched("ok")
	m.JWKSFetched("unreachable")
	m.JWKSFetched("unreachable")
	m.WatchJWKS(func() (time.Duration, time.Duration) { return 90 * time.Second, time.Minute })
	want := `
# HELP vetted_auth_jwks_age_seconds Age of the sign-in key set (JWKS) in hand: time since its last good fetch.
# TYPE vetted_auth_jwks_age_seconds gauge
vetted_auth_jwks_age_seconds 90
# HELP vetted_auth_jwks_fetch_total Fetches of the sign-in key set (JWKS), by result (ok, unreachable, bad_status, invalid).
# TYPE vetted_auth_jwks_fetch_total counter
vetted_auth_jwks_fetch_total{result="ok"} 1
vetted_auth_jwks_fetch_total{result="unreachable"} 2
# HELP vetted_auth_jwks_max_age_seconds How long the key set in hand is meant to be used before it is fetched again (the provider's bounded max-age, or VETTED_AUTH_JWKS_MAX_AGE).
# TYPE vetted_auth_jwks_max_age_seconds gauge
vetted_auth_jwks_max_age_seconds 60
`
	if err := testutil.GatherAndCompare(m.Registry, strings.NewReader(want),
		"vetted_auth_jwks_fetch_total", "vetted_auth_jwks_age_seconds", "vetted_auth_jwks_max_age_seconds"); err != nil {
		t.Fatal(err)
	}
}
