package api_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// readyz asks /readyz with token (none when empty) and returns its
// warnings.
func readyz(t *testing.T, env *apitest.Env, token string) []map[string]string {
	t.Helper()
	var body struct {
		Status   string              `json:"status"`
		Warnings []map[string]string `json:"warnings"`
	}
	apitest.Must(t, env.Do(t, "GET", "/readyz", token, nil), 200).JSON(t, &body)
	if body.Status != "ok" {
		t.Fatalf("readyz status %q", body.Status)
	}
	return body.Warnings
}

// TestProductionSignInOutageIsVisible: while the provider is down, a
// known key keeps signing in; the failed fetch is counted; once the key
// set is older than its max-age, /readyz stays 200 and tells a platform
// admin (and nobody else) that the key set is stale, and the age gauge
// shows it.
func TestProductionSignInOutageIsVisible(t *testing.T) {
	t.Parallel()
	o := newOIDC(t)
	env := apitest.New(t, apitest.WithConfig(o.configure))
	admin := o.token(t, env, "admin", map[string]any{"vetted_groups": []string{"Admins"}})
	member := o.token(t, env, "member", nil)
	if w := readyz(t, env, admin); len(w) != 0 {
		t.Fatalf("warnings with a fresh key set: %v", w)
	}

	o.down.Store(true)
	unknown := o.token(t, env, "stranger", nil)
	parts := strings.Split(unknown, ".")
	hdr, _ := json.Marshal(map[string]string{"alg": "ES256", "kid": "not-published", "typ": "JWT"})
	forged := base64.RawURLEncoding.EncodeToString(hdr) + "." + parts[1] + "." + parts[2]
	apitest.Must(t, env.Do(t, "GET", "/accounts", forged, nil), 401)
	env.Clock.Advance(5*time.Minute + auth.StaleGrace + time.Second)

	warnings := readyz(t, env, admin)
	if len(warnings) != 1 || warnings[0]["name"] != "auth" || !strings.Contains(warnings[0]["message"], "past its max-age") ||
		!strings.Contains(warnings[0]["message"], "503") {
		t.Fatalf("warnings to an admin with a stale key set: %v", warnings)
	}
	t.Logf("readyz warning to an admin: %s", warnings[0]["message"])
	for name, tok := range map[string]string{"anonymous": "", "member": member} {
		if w := readyz(t, env, tok); len(w) != 0 {
			t.Fatalf("warnings shown to %s: %v", name, w)
		}
	}
	apitest.Must(t, env.Do(t, "GET", "/accounts", member, nil), 200)

	reg := env.App.Metrics.Registry
	for result, want := range map[string]float64{"ok": 1, "bad_status": 1} {
		if n := metricValue(t, reg, "vetted_auth_jwks_fetch_total", result); n != want {
			t.Errorf("fetches counted as %s: %v, want %v", result, n, want)
		}
	}
	if age := metricValue(t, reg, "vetted_auth_jwks_age_seconds", ""); age < 300 {
		t.Errorf("key set age %v s, want past its 300 s max-age", age)
	}
}

// metricValue reads the counter or gauge name (of the series labelled
// result, when given) from reg.
func metricValue(t *testing.T, reg *prometheus.Registry, name, result string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if result != "" && (len(m.GetLabel()) != 1 || m.GetLabel()[0].GetValue() != result) {
				continue
			}
			if c := m.GetCounter(); c != nil {
				return c.GetValue()
			}
			return m.GetGauge().GetValue()
		}
	}
	return 0
}
