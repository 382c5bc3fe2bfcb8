package accounts_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// env is the memory store behind the account use cases, counting the
// reads (View) made through it, and the accounts given what a new account
// starts with (Deps.Opened).
type env struct {
	ports.UnitOfWork[accounts.Tx]
	s      *memstore.Store
	reads  int
	opened []uuid.UUID
}

func (e *env) View(ctx context.Context, fn func(context.Context, accounts.Tx) error) error {
	e.reads++
	return e.UnitOfWork.View(ctx, fn)
}

// seed writes rows to s in one unit of work.
func seed(t *testing.T, s *memstore.Store, fn func(context.Context, stores.Tx) error) {
	t.Helper()
	if err := s.InTx(t.Context(), fn); err != nil {
		t.Fatal(err)
	}
}

// account returns the stored account id.
func (e *env) account(t *testing.T, id uuid.UUID) (a accounts.Account) {
	t.Helper()
	if err := e.s.View(t.Context(), func(ctx context.Context, tx stores.Tx) (err error) {
		a, err = tx.Accounts().Get(ctx, id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return a
}

type clk struct{}

func (clk) Now() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }

type noMail struct{}

func (noMail) Send(context.Context, mailtmpl.Mail) error { return nil }

func newService(t *testing.T) (*accounts.Service, *env) {
	t.Helper()
	ms := memstore.New()
	d := &env{UnitOfWork: ports.Narrow[accounts.Tx](ms), s: ms}
	s, err := accounts.NewService(accounts.Deps{Unit: uow.Unit[accounts.Tx]{Store: d, Clock: clk{}, IDs: ports.UUIDv7{}},
		Mail: mailonce.Mail[accounts.Tx]{Store: d, Clock: clk{}, Mailer: noMail{}}, PublicURL: "https://vetted.test",
		Opened: func(_ context.Context, _ accounts.Tx, id uuid.UUID, _ time.Time) error {
			d.opened = append(d.opened, id)
			return nil
		},
		Files: func(context.Context, accounts.Tx, uuid.UUID) ([]string, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return s, d
}

func identify(t *testing.T, s *accounts.Service, subject, email string, groups ...string) accounts.Actor {
	t.Helper()
	a, err := s.Identify(context.Background(), ports.Identity{Subject: subject, Email: email, EmailVerified: true, Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestIdentifyProvisionsAndRemembers(t *testing.T) {
	t.Parallel()
	s, d := newService(t)
	ctx := context.Background()
	ann := identify(t, s, "sub-ann", "Ann@Acme.test")
	if ann.Email != "ann@acme.test" || !ann.Verified || ann.PlatformAdmin {
		t.Fatalf("actor %+v", ann)
	}
	// A new user gets a personal space, opened (given its master list).
	if p := d.account(t, ann.UserID); !p.Personal || len(d.opened) != 1 || d.opened[0] != ann.UserID {
		t.Fatalf("personal space %+v, opened %v", p, d.opened)
	}
	reads := d.reads
	if again := identify(t, s, "sub-ann", "Ann@Acme.test"); again.UserID != ann.UserID || d.reads != reads {
		t.Fatalf("a known token read the store again (%d reads)", d.reads-reads)
	}
	// Another sign-in with the same e-mail may not act as Ann.
	if _, err := s.Identify(ctx, ports.Identity{Subject: "sub-other", Email: "ann@acme.test"}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("another subject: %v", err)
	}
	for _, id := range []ports.Identity{{Email: "x@acme.test"}, {Subject: "s", Email: "nope"}} {
		if _, err := s.Identify(ctx, id); !errors.Is(err, core.ErrUnauthenticated) {
			t.Errorf("%+v: %v", id, err)
		}
	}
	if admin := identify(t, s, "sub-ops", "ops@acme.test", ports.PlatformAdminGroup); !admin.PlatformAdmin {
		t.Fatal("an Admins member is no platform admin")
	}
}

func TestMembersKeepAnOwner(t *testing.T) {
	t.Parallel()
	s, d := newService(t)
	ctx := context.Background()
	admin := identify(t, s, "sub-ops", "ops@vetted.test", ports.PlatformAdminGroup)
	if _, err := s.CreateAccount(ctx, accounts.Actor{}, "Acme", []string{"ann@acme.test"}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("a non-admin created an account: %v", err)
	}
	if _, err := s.CreateAccount(ctx, admin, "Acme", nil); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("an account without users: %v", err)
	}
	v, err := s.CreateAccount(ctx, admin, "Acme", []string{"ann@acme.test", "bob@acme.test"})
	if err != nil || len(v.Members) != 2 || v.Members[0].Role != accounts.RoleOwner || v.Members[1].Role != accounts.RoleAdmin {
		t.Fatalf("CreateAccount: %+v, %v", v, err)
	}
	if n := len(d.s.Undelivered()); n != 2 {
		t.Fatalf("%d member mails queued, want 2", n)
	}
	ref := accounts.AccountRef{ID: v.Account.ID}
	ann := identify(t, s, "sub-ann", "ann@acme.test")
	bob := identify(t, s, "sub-bob", "bob@acme.test")

	// Bob (admin) may add members but not owners; a member twice is a conflict.
	if _, err := s.AddMembers(ctx, bob, ref, []accounts.MemberInput{{Email: "cat@acme.test", Role: "owner"}}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("admin adds an owner: %v", err)
	}
	if ms, err := s.AddMembers(ctx, bob, ref, []accounts.MemberInput{{Email: "cat@acme.test"}}); err != nil || ms[0].Role != accounts.RoleMember {
		t.Fatalf("admin adds a member: %+v, %v", ms, err)
	}
	if _, err := s.AddMembers(ctx, bob, ref, []accounts.MemberInput{{Email: "cat@acme.test"}}); !errors.Is(err, core.ErrConflict) {
		t.Fatalf("a member added twice: %v", err)
	}
	// Ann is the last owner: she can be neither demoted nor removed, by herself or by Bob.
	if _, err := s.ChangeRoles(ctx, ann, ref, []accounts.MemberInput{{Email: "ann@acme.test", Role: "admin"}}); !errors.Is(err, core.ErrConflict) {
		t.Fatalf("last owner demoted: %v", err)
	}
	if _, err := s.RemoveMembers(ctx, bob, ref, []string{"ann@acme.test"}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("admin removes the owner: %v", err)
	}
	// With a second owner, Ann may step down.
	if ms, err := s.ChangeRoles(ctx, ann, ref, []accounts.MemberInput{{Email: "bob@acme.test", Role: "owner"}, {Email: "ann@acme.test", Role: "admin"}}); err != nil ||
		len(ms) != 2 || ms[0].Role != accounts.RoleAdmin || ms[1].Role != accounts.RoleOwner {
		t.Fatalf("hand over: %+v, %v", ms, err)
	}
	if removed, err := s.RemoveMembers(ctx, bob, ref, []string{"Cat@Acme.test"}); err != nil || removed[0] != "cat@acme.test" {
		t.Fatalf("remove: %v, %v", removed, err)
	}
	if ms, err := s.Members(ctx, ann, ref); err != nil || len(ms) != 2 {
		t.Fatalf("members: %+v, %v", ms, err)
	}
	if mine, err := s.MyAccounts(ctx, ann); err != nil || len(mine) != 1 || mine[0].Role != accounts.RoleAdmin {
		t.Fatalf("my accounts: %+v, %v", mine, err)
	}
	if all, err := s.ListAccounts(ctx, admin); err != nil || len(all) != 1 {
		t.Fatalf("all accounts: %+v, %v", all, err)
	}
	// The personal space has no other members.
	if _, err := s.AddMembers(ctx, ann, accounts.AccountRef{Personal: true}, []accounts.MemberInput{{Email: "x@acme.test"}}); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("members of a personal space: %v", err)
	}
	// Deleting: a repeated id counts once; an unknown one deletes nothing.
	if _, err := s.DeleteAccounts(ctx, admin, []uuid.UUID{uuid.New(), v.Account.ID}); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("delete with an unknown id: %v", err)
	}
	if got, err := s.DeleteAccounts(ctx, admin, []uuid.UUID{v.Account.ID, v.Account.ID}); err != nil || len(got) != 1 {
		t.Fatalf("delete: %v, %v", got, err)
	}
}
