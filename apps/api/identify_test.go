package api_test

import (
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// TestSignInFollowsTheTokensClaims: a signed-in user is remembered by the
// token subject (service.IdentityTTL), yet a later token of the same
// subject whose name or verification differs is seen at once: the member
// list shows the new name and the e-mail verified.
func TestSignInFollowsTheTokensClaims(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	owner := env.Token("owner@claims.test", apitest.Verified())
	acct := env.NewAccount(t, "Claims Org", "owner@claims.test")
	env.AddMember(t, acct, owner, "ann@claims.test", "member")
	ann := func() map[string]any {
		body := apitest.Must(t, env.Do(t, "GET", "/users?account-id="+acct, owner, nil), 200).Map(t)
		for _, m := range body["members"].([]any) {
			if m := m.(map[string]any); m["email"] == "ann@claims.test" {
				return m
			}
		}
		t.Fatal("ann is not a member")
		return nil
	}
	for _, step := range []struct {
		token    string
		name     string
		verified bool
	}{
		{env.Token("ann@claims.test", apitest.Named("Ann")), "Ann", false},
		{env.Token("ann@claims.test", apitest.Named("Ann Lee")), "Ann Lee", false},
		{env.Token("ann@claims.test", apitest.Named("Ann Lee"), apitest.Verified()), "Ann Lee", true},
	} {
		apitest.Must(t, env.Do(t, "GET", "/users?account-id="+acct, step.token, nil), 200)
		if m := ann(); m["name"] != step.name || m["email_verified"] != step.verified {
			t.Fatalf("after a token named %q (verified %v): member %v", step.name, step.verified, m)
		}
	}
}
