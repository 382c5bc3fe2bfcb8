package api_test

import (
	"net/http"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// fixture is an environment with two organizations: A with one member per
// role, and B owned by a stranger.
type fixture struct {
	env     *apitest.Env
	a, b    string // account ids
	tokens  map[string]string
	listA   string // a second list of A (id)
	vendorA string // a vendor on A's master-list (id)
	masterA string
	listB   string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	env := apitest.New(t)
	f := &fixture{env: env, tokens: map[string]string{}}
	f.a = env.NewAccount(t, "Acme", "owner@a.test")
	f.b = env.NewAccount(t, "Beta", "owner@b.test")
	f.tokens["owner"] = env.Token("owner@a.test", apitest.Verified())
	f.tokens["stranger"] = env.Token("owner@b.test", apitest.Verified())
	f.tokens["platform-admin"] = env.Token("ops@platform.test", apitest.Admin())
	for _, r := range []string{"admin", "member", "viewer"} {
		env.AddMember(t, f.a, f.tokens["owner"], r+"@a.test", r)
		f.tokens[r] = env.Token(r+"@a.test", apitest.Verified())
	}
	res := env.SaveVendors(t, f.tokens["owner"], f.a, "Slack", "Zoom")
	f.vendorA = res["added"].([]any)[0].(map[string]any)["vendor_id"].(string)
	f.masterA = res["list"].(map[string]any)["id"].(string)
	f.listA = apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists?account-id="+f.a+"&vendor-list=Second", f.tokens["owner"], nil), http.StatusCreated).Map(t)["id"].(string)
	f.listB = apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists?account-id="+f.b+"&vendor-list=Secret", f.tokens["stranger"], nil), http.StatusCreated).Map(t)["id"].(string)
	return f
}

func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	env := f.env
	// A member of A never sees B's lists, by account or by list id.
	r := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+f.a, f.tokens["member"], nil), 200)
	for _, l := range r.Map(t)["lists"].([]any) {
		if l.(map[string]any)["id"] == f.listB {
			t.Fatal("B's list is visible in A's lists")
		}
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+f.a+"&vendor-list-id="+f.listB, f.tokens["member"], nil), 404)
	apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+f.b, f.tokens["member"], nil), 403)
	// GET /accounts shows only the caller's own organizations.
	accs := apitest.Must(t, env.Do(t, "GET", "/accounts", f.tokens["member"], nil), 200).Map(t)["accounts"].([]any)
	if len(accs) != 1 || accs[0].(map[string]any)["id"] != f.a {
		t.Fatalf("member sees accounts %v", accs)
	}
	// Platform admins see every organization.
	all := apitest.Must(t, env.Do(t, "GET", "/accounts", f.tokens["platform-admin"], nil), 200).Map(t)["accounts"].([]any)
	if len(all) != 2 {
		t.Fatalf("platform admin sees %d accounts, want 2", len(all))
	}
	// GET /users without account-id: the caller's organizations with role.
	mine := apitest.Must(t, env.Do(t, "GET", "/users", f.tokens["viewer"], nil), 200).Map(t)["accounts"].([]any)
	if len(mine) != 1 || mine[0].(map[string]any)["role"] != "viewer" {
		t.Fatalf("GET /users = %v", mine)
	}
}

func TestPersonalSpace(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	alice, bob := env.Token("alice@x.test"), env.Token("bob@x.test")
	env.SaveVendors(t, alice, "individual", "Figma")
	l := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id=individual&vendor-list=master-list", alice, nil), 200).Map(t)
	if n := len(l["vendors"].([]any)); n != 1 {
		t.Fatalf("alice's personal master-list has %d vendors, want 1", n)
	}
	lb := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id=individual&vendor-list=master-list", bob, nil), 200).Map(t)
	if n := len(lb["vendors"].([]any)); n != 0 {
		t.Fatalf("bob sees %d vendors in his personal list, want 0", n)
	}
	// Alice's personal space by its id is not reachable for Bob.
	aliceSpace := l["list"].(map[string]any)["account_id"].(string)
	apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+aliceSpace, bob, nil), 403)
	// Personal spaces have no other members.
	apitest.Must(t, env.Do(t, "POST", "/users?account-id=individual", alice, map[string]any{"users": []map[string]string{{"email": "bob@x.test"}}}), 422)
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	cases := map[string]string{
		"missing":   "",
		"malformed": "not-a-jwt",
		"expired":   env.Token("a@x.test", apitest.TTL(-2*60*60*1e9)),
		"forged":    forge(env.Token("a@x.test")),
	}
	for name, tok := range cases {
		r := env.Do(t, "GET", "/accounts", tok, nil)
		if r.Status != 401 {
			t.Fatalf("%s token: status %d, want 401", name, r.Status)
		}
		if r.Header.Get("WWW-Authenticate") == "" || r.Header.Get("Content-Type") != "application/problem+json" {
			t.Fatalf("%s token: headers %v", name, r.Header)
		}
	}
	apitest.Must(t, env.Do(t, "GET", "/healthz", "", nil), 200)
	apitest.Must(t, env.Do(t, "GET", "/readyz", "", nil), 200)
}

// forge flips a character of the signature.
func forge(tok string) string {
	b := []byte(tok)
	i := len(b) - 3
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithRateLimit(1))
	tok := env.Token("a@x.test")
	var limited *apitest.Resp
	for i := 0; i < 20; i++ {
		if r := env.Do(t, "GET", "/accounts", tok, nil); r.Status == http.StatusTooManyRequests {
			limited = r
			break
		}
	}
	if limited == nil {
		t.Fatal("20 requests at 1 rps were never limited")
	}
	if limited.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
}

// TestPlatformAdminBeforeValidation: a caller without the privilege gets 403
// from an admin route even with an invalid body (not a 422 that would reveal
// the input rules).
func TestPlatformAdminBeforeValidation(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	owner := env.Token("o@a.test")
	for _, c := range []struct{ method, path string }{
		{"POST", "/vendor/enrich"}, {"POST", "/accounts"}, {"POST", "/vendors/incident-backfill"}, {"PATCH", "/vendor/Slack"},
	} {
		if r := env.Do(t, c.method, c.path, owner, `{"vendors": [], "bogus": 1}`); r.Status != http.StatusForbidden {
			t.Fatalf("%s %s with a bad body as a non-admin: %d, want 403", c.method, c.path, r.Status)
		}
	}
}
