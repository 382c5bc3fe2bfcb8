package api_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
)

func members(t *testing.T, env *apitest.Env, acct, tok string) map[string]string {
	t.Helper()
	r := apitest.Must(t, env.Do(t, "GET", "/users?account-id="+acct, tok, nil), 200)
	out := map[string]string{}
	for _, m := range r.Map(t)["members"].([]any) {
		mm := m.(map[string]any)
		out[mm["email"].(string)] = mm["role"].(string)
	}
	return out
}

func users(pairs ...string) map[string]any {
	var us []map[string]string
	for i := 0; i+1 < len(pairs); i += 2 {
		u := map[string]string{"email": pairs[i]}
		if pairs[i+1] != "" {
			u["role"] = pairs[i+1]
		}
		us = append(us, u)
	}
	return map[string]any{"users": us}
}

func TestCreateAccountRoles(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.Token("ops@platform.test", apitest.Admin())
	r := apitest.Must(t, env.Do(t, "POST", "/accounts", admin, map[string]any{"account": "Acme", "users": []string{"first@a.test", "second@a.test", "third@a.test"}}), 201).Map(t)
	acct := r["id"].(string)
	if r["active"] != true || r["name"] != "Acme" || len(r["members"].([]any)) != 3 {
		t.Fatalf("create answer %v", r)
	}
	owner := env.Token("first@a.test")
	got := members(t, env, acct, owner)
	want := map[string]string{"first@a.test": "owner", "second@a.test": "admin", "third@a.test": "admin"}
	for e, role := range want {
		if got[e] != role {
			t.Fatalf("%s is %q, want %q (all: %v)", e, got[e], role, got)
		}
	}
	// master-list exists with the account.
	apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+acct+"&vendor-list=master-list", owner, nil), 200)
	// Duplicate account name (case-insensitive) is a conflict.
	apitest.Must(t, env.Do(t, "POST", "/accounts", admin, map[string]any{"account": "ACME", "users": []string{"x@a.test"}}), 409)
	// Every member got a mail.
	env.Drain(t)
	for e := range want {
		if n := len(env.Mail.Find(func(m mailtmpl.Mail) bool { return m.To == e })); n != 1 {
			t.Fatalf("%s got %d mails, want 1", e, n)
		}
	}
}

func TestMemberRules(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "owner@a.test", "admin@a.test")
	owner, admin := env.Token("owner@a.test"), env.Token("admin@a.test")
	path := "/users?account-id=" + acct

	// Default role is member.
	r := apitest.Must(t, env.Do(t, "POST", path, admin, users("m@a.test", "")), 201).Map(t)
	if role := r["members"].([]any)[0].(map[string]any)["role"]; role != "member" {
		t.Fatalf("default role %v, want member", role)
	}
	// Adding an existing member is a conflict.
	apitest.Must(t, env.Do(t, "POST", path, owner, users("m@a.test", "viewer")), 409)
	// An admin may not assign owner, by adding or by changing.
	apitest.Must(t, env.Do(t, "POST", path, admin, users("o2@a.test", "owner")), 403)
	apitest.Must(t, env.Do(t, "PATCH", path, admin, users("m@a.test", "owner")), 403)
	// An admin may not demote an owner.
	apitest.Must(t, env.Do(t, "PATCH", path, admin, users("owner@a.test", "member")), 403)
	// A member may not manage members at all.
	apitest.Must(t, env.Do(t, "PATCH", path, env.Token("m@a.test"), users("m@a.test", "admin")), 403)
	// The last owner can be neither demoted nor removed.
	apitest.Must(t, env.Do(t, "PATCH", path, owner, users("owner@a.test", "admin")), 409)
	apitest.Must(t, env.Do(t, "DELETE", path, owner, users("owner@a.test", "")), 409)
	// An owner may assign owner; then one of two owners may step down.
	apitest.Must(t, env.Do(t, "PATCH", path, owner, users("m@a.test", "owner")), 200)
	apitest.Must(t, env.Do(t, "PATCH", path, owner, users("owner@a.test", "admin")), 200)
	// Now m@a.test is the last owner again.
	m := env.Token("m@a.test")
	apitest.Must(t, env.Do(t, "PATCH", path, m, users("m@a.test", "viewer")), 409)
	apitest.Must(t, env.Do(t, "DELETE", path, m, users("m@a.test", "")), 409)
	// Demoting both owners in one request would leave none: refused whole.
	apitest.Must(t, env.Do(t, "PATCH", path, m, users("owner@a.test", "owner")), 200)
	apitest.Must(t, env.Do(t, "PATCH", path, m, users("owner@a.test", "admin", "m@a.test", "admin")), 409)
	got := members(t, env, acct, m)
	if got["owner@a.test"] != "owner" || got["m@a.test"] != "owner" {
		t.Fatalf("a refused request changed roles: %v", got)
	}
	// Removing an unknown member is not found and removes nothing.
	apitest.Must(t, env.Do(t, "DELETE", path, m, users("admin@a.test", "", "ghost@a.test", "")), 404)
	if _, ok := members(t, env, acct, m)["admin@a.test"]; !ok {
		t.Fatal("a refused removal removed a member")
	}
	apitest.Must(t, env.Do(t, "DELETE", path, m, users("admin@a.test", "")), 200)
	if _, ok := members(t, env, acct, m)["admin@a.test"]; ok {
		t.Fatal("removed member still listed")
	}
	// Bad input: invalid e-mail and invalid role are 422.
	apitest.Must(t, env.Do(t, "POST", path, m, users("not-an-email", "")), 422)
	apitest.Must(t, env.Do(t, "POST", path, m, users("x@a.test", "superuser")), 422)
}

func TestMemberMail(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "owner@a.test")
	owner := env.Token("owner@a.test")
	env.Drain(t)
	env.Mail.Reset()
	apitest.Must(t, env.Do(t, "POST", "/users?account-id="+acct, owner, users("new@a.test", "viewer")), 201)
	apitest.Must(t, env.Do(t, "PATCH", "/users?account-id="+acct, owner, users("new@a.test", "admin")), 200)
	// Setting the same role again is not a change and sends nothing.
	apitest.Must(t, env.Do(t, "PATCH", "/users?account-id="+acct, owner, users("new@a.test", "admin")), 200)
	env.Drain(t)
	env.Drain(t)
	got := env.Mail.Find(func(m mailtmpl.Mail) bool { return m.To == "new@a.test" })
	if len(got) != 2 {
		t.Fatalf("new member got %d mails, want 2 (added, role changed)", len(got))
	}
	if !strings.Contains(got[0].Text+got[1].Text, `"viewer" to "admin"`) {
		t.Fatalf("role-change mail does not name the change: %q / %q", got[0].Text, got[1].Text)
	}
	// A refused request mails nobody.
	env.Mail.Reset()
	apitest.Must(t, env.Do(t, "POST", "/users?account-id="+acct, owner, users("a@a.test", "", "bad", "")), 422)
	env.Drain(t)
	if n := len(env.Mail.Sent()); n != 0 {
		t.Fatalf("a refused request sent %d mails", n)
	}
}

func TestDeleteAccounts(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.Token("ops@platform.test", apitest.Admin())
	a := env.NewAccount(t, "A", "a@a.test")
	b := env.NewAccount(t, "B", "b@b.test")
	// All-or-nothing: one unknown id deletes nothing.
	apitest.Must(t, env.Do(t, "DELETE", "/accounts?account_ids="+a+",01900000-0000-7000-8000-000000000000", admin, nil), 404)
	apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+a, env.Token("a@a.test"), nil), 200)
	// Body form with several ids.
	r := apitest.Must(t, env.Do(t, "DELETE", "/accounts", admin, map[string]any{"account_ids": []string{a, b}}), 200).Map(t)
	if len(r["deleted"].([]any)) != 2 {
		t.Fatalf("deleted %v", r)
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+a, env.Token("a@a.test"), nil), 403)
	if n := len(apitest.Must(t, env.Do(t, "GET", "/accounts", admin, nil), 200).Map(t)["accounts"].([]any)); n != 0 {
		t.Fatalf("%d accounts left", n)
	}
	apitest.Must(t, env.Do(t, "DELETE", "/accounts", admin, nil), 422)
}

// TestLastOwnerUnderConcurrency has two owners demote each other at the same
// moment, many times: exactly one owner must remain every time.
func TestLastOwnerUnderConcurrency(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	for round := 0; round < 15; round++ {
		a, b := "a@race.test", "b@race.test"
		acct := env.NewAccount(t, "Race "+string(rune('A'+round)), a)
		ta, tb := env.Token(a), env.Token(b)
		env.AddMember(t, acct, ta, b, "owner")
		path := "/users?account-id=" + acct
		statuses := make(chan int, 2)
		start := make(chan struct{})
		for _, c := range []struct{ tok, other string }{{ta, b}, {tb, a}} {
			go func(tok, other string) {
				<-start
				statuses <- env.Do(t, "PATCH", path, tok, users(other, "admin")).Status
			}(c.tok, c.other)
		}
		close(start)
		s1, s2 := <-statuses, <-statuses
		owners := 0
		for _, role := range members(t, env, acct, ta) {
			if role == "owner" {
				owners++
			}
		}
		if s1+s2 != 200+403 && s1+s2 != 200+409 {
			t.Fatalf("round %d: statuses %d and %d; want one 200 and one refusal", round, s1, s2)
		}
		if owners != 1 {
			t.Fatalf("round %d: %d owners left (statuses %d, %d)", round, owners, s1, s2)
		}
	}
}

// A role outside the allowed values is named at its own location with the
// allowed values, not as an element matching neither form of users[]; a
// plain e-mail string is still one of the forms; nothing changes.
func TestBadRoleIsNamedWhereItIs(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "owner@a.test", "admin@a.test")
	owner := env.Token("owner@a.test")
	path := "/users?account-id=" + acct
	before := members(t, env, acct, owner)
	tests := []struct {
		method string
		body   map[string]any
		where  []string
	}{
		{"POST", users("x@a.test", "superuser"), []string{"body.users[0].role row 0 "}},
		{"PATCH", users("admin@a.test", "Owner "), []string{"body.users[0].role row 0 "}},
		{"POST", map[string]any{"users": []any{"y@a.test", map[string]string{"email": "z@a.test", "role": "boss"}}}, []string{"body.users[1].role row 0 "}},
		{"DELETE", users("admin@a.test", "root"), []string{"body.users[0].role row 0 "}},
	}
	for _, tt := range tests {
		res := env.Do(t, tt.method, path, owner, tt.body)
		mustProblem(t, res, http.StatusUnprocessableEntity, "must be one of "+strings.Join(accounts.RoleValues(), ", "))
		if strings.Contains(res.String(), "matched none") {
			t.Fatalf("%s: the vague failure is still there: %s", tt.method, res.Body)
		}
		if _, cells := problemCells(t, res); !reflect.DeepEqual(cells, tt.where) {
			t.Fatalf("%s: failures at %q, want %q: %s", tt.method, cells, tt.where, res.Body)
		}
	}
	// A value of neither form still says so.
	res := env.Do(t, "POST", path, owner, map[string]any{"users": []any{42}})
	mustProblem(t, res, http.StatusUnprocessableEntity, "body.users[0]")
	if after := members(t, env, acct, owner); !reflect.DeepEqual(after, before) {
		t.Fatalf("refused requests changed members: %v -> %v", before, after)
	}
}

// TestEmailsNeedADomainWithADot: members, subscribers and sponsor contacts
// are addresses mail must reach: erin@northwind and a@b are refused (422,
// at their place), and nothing is written.
func TestEmailsNeedADomainWithADot(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	before := members(t, env, o.acct, o.owner)
	subs := "/subscribers?account-id=" + o.acct + "&vendor-list-id=" + o.master
	for _, c := range []struct {
		method, path string
		body         map[string]any
		where        string
	}{
		{"POST", "/users?account-id=" + o.acct, users("ok@acme.test", "member", "erin@northwind", "member"), "body.users[1].email"},
		{"POST", "/users?account-id=" + o.acct, map[string]any{"users": []any{"a@b"}}, "body.users[0].email"},
		{"POST", "/accounts", map[string]any{"account": "Northwind", "users": []string{"erin@northwind"}}, "body.users[0]"},
		{"POST", subs, map[string]any{"subscriber-email": "a@b"}, "body.subscriber-email[0]"},
		{"POST", subs, map[string]any{"subscriber-email": []string{"ok@acme.test", "erin@northwind"}}, "body.subscriber-email[1]"},
		{"POST", "/vendor-assessments?account-id=" + o.acct + "&vendor-list-id=" + o.master, map[string]any{"vendor_name": "Slack", "sponsor_contact": "erin@northwind"}, "body.sponsor_contact"},
	} {
		tok := o.owner
		if c.path == "/accounts" {
			tok = o.admin
		}
		res := env.Do(t, c.method, c.path, tok, c.body)
		mustProblem(t, res, http.StatusUnprocessableEntity, "domain needs a dot", `"`+c.where+`"`)
	}
	if after := members(t, env, o.acct, o.owner); !reflect.DeepEqual(after, before) {
		t.Fatalf("refused requests changed members: %v -> %v", before, after)
	}
	if got := apitest.Must(t, env.Do(t, "GET", subs, o.owner, nil), 200).Map(t)["subscribers"].([]any); len(got) != 0 {
		t.Fatalf("refused requests added subscribers: %v", got)
	}
}
