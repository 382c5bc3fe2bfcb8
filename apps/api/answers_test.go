package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestRememberedAnswers: an account read asked again is answered from
// memory (a change made behind the service's back, straight in the store,
// does not show), byte for byte; a write through the service shows at once
// in the next read; each caller has answers of its own (a viewer's and an
// outsider's); and an answer is never older than a second by the service's
// clock.
func TestRememberedAnswers(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	env.AddMember(t, acct, owner, "look@acme.test", "viewer")
	viewer := env.Token("look@acme.test", apitest.Verified())
	outsider := env.Token("out@other.test", apitest.Verified())
	users := "/users?account-id=" + acct
	first := apitest.Must(t, env.Do(t, "GET", users, owner, nil), 200).String()

	// Behind the service's back: a member written straight into the store.
	behind := func(email string) { t.Helper(); memberBehind(t, env, acct, email) }
	behind("hidden@acme.test")
	if again := apitest.Must(t, env.Do(t, "GET", users, owner, nil), 200).String(); again != first {
		t.Fatalf("the read asked again was not the remembered answer:\n%s\nwant\n%s", again, first)
	}
	// The viewer's first read is its own, made now: it shows the hidden member.
	if v := apitest.Must(t, env.Do(t, "GET", users, viewer, nil), 200).String(); v == first {
		t.Fatal("the viewer was sent the owner's remembered answer")
	}
	apitest.Must(t, env.Do(t, "GET", users, outsider, nil), 403)
	apitest.Must(t, env.Do(t, "GET", users, outsider, nil), 403)

	// A write through the service shows in the very next read.
	env.AddMember(t, acct, owner, "new@acme.test", "member")
	after := apitest.Must(t, env.Do(t, "GET", users, owner, nil), 200).String()
	for _, want := range []string{"new@acme.test", "hidden@acme.test"} {
		if !contains(after, want) {
			t.Fatalf("after a write the read does not show %s:\n%s", want, after)
		}
	}

	// Time alone: past a second by the service's clock, the read is made again.
	behind("later@acme.test")
	if again := apitest.Must(t, env.Do(t, "GET", users, owner, nil), 200).String(); contains(again, "later@acme.test") {
		t.Fatal("within the second, the remembered answer was not sent")
	}
	env.Clock.Advance(time.Second)
	if again := apitest.Must(t, env.Do(t, "GET", users, owner, nil), 200).String(); !contains(again, "later@acme.test") {
		t.Fatalf("a second later the answer was still the remembered one:\n%s", again)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// memberBehind writes a member of an account straight into the store,
// behind the service's back (no notice, so no remembered answer forgets).
func memberBehind(t *testing.T, env *apitest.Env, acct, email string) {
	t.Helper()
	u := accounts.User{ID: uuid.Must(uuid.NewV7()), Email: email, CreatedAt: env.Clock.Now()}
	err := env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Users().Save(ctx, u); err != nil {
			return err
		}
		return tx.Members().Put(ctx, []accounts.Member{{AccountID: uuid.MustParse(acct), UserID: u.ID, Role: accounts.RoleMember, CreatedAt: env.Clock.Now()}})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRememberedAnswersPerAccount: a write in one account leaves the other
// accounts' remembered answers alone, while every write that other
// accounts can see (a directory entry given a website) makes theirs again.
func TestRememberedAnswersPerAccount(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	a := env.NewAccount(t, "Alpha", "owner@alpha.test")
	b := env.NewAccount(t, "Beta", "owner@beta.test")
	ownerA := env.Token("owner@alpha.test", apitest.Verified())
	ownerB := env.Token("owner@beta.test", apitest.Verified())
	env.SaveVendors(t, ownerB, b, "Shared Co")
	listB := "/vendor-lists?account-id=" + b + "&vendor-list=master-list"
	usersB := "/users?account-id=" + b
	// Each owner has signed in (a first sign-in writes the user, which
	// every account may show).
	apitest.Must(t, env.Do(t, "GET", "/accounts", ownerA, nil), 200)
	first := apitest.Must(t, env.Do(t, "GET", usersB, ownerB, nil), 200).String()
	if l := apitest.Must(t, env.Do(t, "GET", listB, ownerB, nil), 200).String(); contains(l, "shared.example") {
		t.Fatalf("the list shows a website nobody gave yet:\n%s", l)
	}

	// Behind the service's back: a member of B written straight into the store.
	memberBehind(t, env, b, "hidden@beta.test")

	// Writes in A alone: B's answer is still the remembered one.
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+a+"&vendor-list=Second", ownerA, nil), 201)
	env.SaveVendors(t, ownerA, a, "Only Alpha")
	if again := apitest.Must(t, env.Do(t, "GET", usersB, ownerB, nil), 200).String(); again != first {
		t.Fatalf("a write in another account made B's answer again:\n%s\nwant\n%s", again, first)
	}

	// A in turn gives Shared Co a website: B's list holds the vendor, so
	// B's answers are made again and show it.
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+a+"&operation=save-vendors&vendor-list=Second", ownerA,
		map[string]any{"vendors": []map[string]string{{"vendor_name": "Shared Co", "website_url": "https://shared.example"}}}), 200)
	if l := apitest.Must(t, env.Do(t, "GET", listB, ownerB, nil), 200).String(); !contains(l, "shared.example") {
		t.Fatalf("after another account gave its vendor a website, B's list does not show it:\n%s", l)
	}
	if again := apitest.Must(t, env.Do(t, "GET", usersB, ownerB, nil), 200).String(); !contains(again, "hidden@beta.test") {
		t.Fatalf("after a write every account may see, B's answer was still the remembered one:\n%s", again)
	}
}
