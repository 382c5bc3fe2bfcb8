package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/adapters/auth"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/ports"
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

// TestAnotherSubjectsEmailIsForbidden: a genuine token whose e-mail has
// signed in before under another subject is refused with 403 and the
// reason, and changes nothing: the first sign-in keeps the user.
func TestAnotherSubjectsEmailIsForbidden(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	first := env.Token("kim@subjects.test", apitest.Verified())
	apitest.Must(t, env.Do(t, "GET", "/accounts", first, nil), 200)
	other, err := env.App.Dev.Mint(auth.Claims{Subject: "another-provider|kim", Email: "Kim@Subjects.test", EmailVerified: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/accounts", "/vendors/all"} {
		r := apitest.Must(t, env.Do(t, "GET", path, other, nil), 403)
		if body := r.Map(t); !strings.Contains(body["detail"].(string), "kim@subjects.test") || !strings.Contains(body["detail"].(string), "another sign-in") {
			t.Fatalf("%s: detail %q does not give the reason", path, body["detail"])
		}
	}
	apitest.Must(t, env.Do(t, "GET", "/accounts", first, nil), 200)
	u, err := env.Svc.Accounts.Identify(context.Background(), ports.Identity{Subject: "sub-kim@subjects.test", Email: "kim@subjects.test", EmailVerified: true})
	if err != nil || u.Email != "kim@subjects.test" {
		t.Fatalf("the first sign-in after the refusal: %+v, %v", u, err)
	}
}
