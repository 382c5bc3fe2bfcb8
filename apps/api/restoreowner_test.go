package api_test

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/internal/testenv"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestPlatformAdminRestoresAnOwner: an account that lost its last owner
// (nobody left may assign owner) gets one back from a platform admin, with
// a reason, audited; nobody else may, and a refused restore changes
// nothing.
func TestPlatformAdminRestoresAnOwner(t *testing.T) {
	t.Parallel()
	logs := &testenv.Buffer{}
	env := apitest.New(t, apitest.WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
	ops := env.Token("ops@platform.test", apitest.Admin())
	acct := env.NewAccount(t, "Acme", "gone@a.test", "adm@a.test")
	adm := env.Token("adm@a.test")
	// The owner is gone: the membership is no more (a repair of the
	// database, a user removed at the IdP's request).
	err := env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		u, err := tx.Users().GetByEmail(ctx, "gone@a.test")
		if err != nil {
			return err
		}
		return tx.Members().Delete(ctx, uuid.MustParse(acct), []uuid.UUID{u.ID})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := members(t, env, acct, adm); len(got) != 1 || got["adm@a.test"] != "admin" {
		t.Fatalf("members = %v", got)
	}
	// Nobody left may assign owner.
	apitest.Must(t, env.Do(t, "PATCH", "/users?account-id="+acct, adm, users("adm@a.test", "owner")), http.StatusForbidden)

	path := "/accounts/owner?account-id=" + acct
	body := func(email, reason string) map[string]any { return map[string]any{"email": email, "reason": reason} }
	mustProblem(t, env.Do(t, "POST", path, adm, body("adm@a.test", "I am the admin")), http.StatusForbidden, "platform admins")
	mustProblem(t, env.Do(t, "POST", path, ops, body("adm@a.test", " ")), http.StatusUnprocessableEntity, `"body.reason"`)
	mustProblem(t, env.Do(t, "POST", path, ops, body("erin@northwind", "the owner left")), http.StatusUnprocessableEntity, `"body.email"`)
	mustProblem(t, env.Do(t, "POST", "/accounts/owner?account-id=individual", ops, body("adm@a.test", "the owner left")), http.StatusUnprocessableEntity)
	mustProblem(t, env.Do(t, "POST", "/accounts/owner?account-id="+uuid.NewString(), ops, body("adm@a.test", "the owner left")), http.StatusNotFound)
	if got := members(t, env, acct, adm); len(got) != 1 || got["adm@a.test"] != "admin" {
		t.Fatalf("refused restores changed members: %v", got)
	}

	r := apitest.Must(t, env.Do(t, "POST", path, ops, body("ADM@a.test", "the owner left the company (ticket 4711)")), http.StatusOK).Map(t)
	if m := r["member"].(map[string]any); m["email"] != "adm@a.test" || m["role"] != "owner" || r["previous_role"] != "admin" || r["owners_before"] != 0.0 {
		t.Fatalf("restore = %v", r)
	}
	mustProblem(t, env.Do(t, "POST", path, ops, body("adm@a.test", "again")), http.StatusConflict, "already an owner")
	// Someone who was no member is added as an owner.
	r = apitest.Must(t, env.Do(t, "POST", path, ops, body("new@a.test", "a second owner")), http.StatusOK).Map(t)
	if r["previous_role"] != "" || r["owners_before"] != 1.0 {
		t.Fatalf("restore of a non-member = %v", r)
	}
	if got := members(t, env, acct, adm); got["adm@a.test"] != "owner" || got["new@a.test"] != "owner" || len(got) != 2 {
		t.Fatalf("members = %v", got)
	}
	// The owner manages the account again.
	apitest.Must(t, env.Do(t, "POST", "/users?account-id="+acct, adm, users("third@a.test", "admin")), http.StatusCreated)

	// Audited: one record per restore, naming who, where, whom, why.
	records := logs.Lines(`"action":"account.owner_restored"`)
	if len(records) != 2 {
		t.Fatalf("%d audit records, want 2:\n%s", len(records), strings.Join(records, "\n"))
	}
	for _, want := range []string{`"audit":true`, `"platform_admin":"ops@platform.test"`, `"account_id":"` + acct + `"`, `"owner":"adm@a.test"`,
		`"previous_role":"admin"`, `"owners_before":0`, `"reason":"the owner left the company (ticket 4711)"`} {
		if !strings.Contains(records[0], want) {
			t.Fatalf("audit record lacks %s: %s", want, records[0])
		}
	}
	// The new owners are told, by the platform admin.
	env.Drain(t)
	for _, e := range []string{"adm@a.test", "new@a.test"} {
		if n := len(env.Mail.Find(func(m mailtmpl.Mail) bool { return m.To == e && strings.Contains(m.Text, "ops@platform.test") })); n != 1 {
			t.Fatalf("%s got %d mails naming the platform admin, want 1", e, n)
		}
	}
}
