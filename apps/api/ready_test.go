package api_test

import (
	"net/http"
	"testing"

	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
)

// /readyz tells a platform admin which change feed keeps the vendor views
// of replicas in step, and tells no one else.
func TestReadyzNamesTheInvalidationToPlatformAdmins(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{app.InvalidationLocal, app.InvalidationNone} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			env := apitest.New(t, apitest.WithConfig(func(c *app.Config) { c.Invalidation = mode }))
			type answer struct {
				Status       string
				Invalidation *api.InvalidationJSON
			}
			for _, c := range []struct {
				who, token string
				detail     bool
			}{
				{"anonymous", "", false},
				{"a user", env.Token("ann@ready.test", apitest.Verified()), false},
				{"a platform admin", env.Token("root@ready.test", apitest.Verified(), apitest.Admin()), true},
			} {
				var got answer
				apitest.Must(t, env.Do(t, http.MethodGet, "/readyz", c.token, nil), 200).JSON(t, &got)
				if got.Status != "ok" || (got.Invalidation != nil) != c.detail {
					t.Fatalf("%s: %+v", c.who, got)
				}
				if !c.detail {
					continue
				}
				// Build does not subscribe (Serve does): the feed is not listening.
				want := api.InvalidationJSON{Mode: mode, Connected: false, MaxStalenessSeconds: 5}
				if *got.Invalidation != want {
					t.Fatalf("%s: invalidation %+v, want %+v", c.who, *got.Invalidation, want)
				}
			}
			// A token that does not verify is answered as anonymous: a
			// readiness probe never fails on its token.
			var got answer
			apitest.Must(t, env.Do(t, http.MethodGet, "/readyz", "not-a-token", nil), 200).JSON(t, &got)
			if got.Status != "ok" || got.Invalidation != nil {
				t.Fatalf("a bad token: %+v", got)
			}
		})
	}
}
