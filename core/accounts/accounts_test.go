package accounts_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/ports"
)

// db holds users, accounts and members as the account use cases
// read and write them. Units of work run one at a time and are not rolled
// back: each test checks what a refused request left, where it matters.
type db struct {
	users    map[uuid.UUID]accounts.User
	accounts map[uuid.UUID]accounts.Account
	members  map[uuid.UUID]map[uuid.UUID]accounts.Role // account -> user -> role
	opened   []uuid.UUID                               // accounts given what a new account starts with (Deps.Opened)
	outbox   []outbox.Message
	reads    int
}

func newDB() *db {
	return &db{users: map[uuid.UUID]accounts.User{}, accounts: map[uuid.UUID]accounts.Account{}, members: map[uuid.UUID]map[uuid.UUID]accounts.Role{}}
}

func (d *db) InTx(ctx context.Context, fn func(context.Context, accounts.Tx) error) error {
	return fn(ctx, dbTx{d: d})
}
func (d *db) View(ctx context.Context, fn func(context.Context, accounts.Tx) error) error {
	d.reads++
	return fn(ctx, dbTx{d: d})
}
func (d *db) Ping(context.Context) error { return nil }

type dbTx struct {
	accounts.Tx
	d *db
}

func (t dbTx) Users() accounts.UserRepo       { return users{d: t.d} }
func (t dbTx) Accounts() accounts.AccountRepo { return accts{d: t.d} }
func (t dbTx) Members() accounts.MemberRepo   { return mems{d: t.d} }
func (t dbTx) Outbox() outbox.Repo            { return obox{d: t.d} }

type users struct{ d *db }

func (r users) find(match func(accounts.User) bool) (accounts.User, error) {
	for _, u := range r.d.users {
		if match(u) {
			return u, nil
		}
	}
	return accounts.User{}, core.ErrNotFound
}
func (r users) Get(_ context.Context, id uuid.UUID) (accounts.User, error) {
	return r.find(func(u accounts.User) bool { return u.ID == id })
}
func (r users) GetBySubject(_ context.Context, s string) (accounts.User, error) {
	return r.find(func(u accounts.User) bool { return u.Subject == s })
}
func (r users) GetByEmail(_ context.Context, e string) (accounts.User, error) {
	return r.find(func(u accounts.User) bool { return u.Email == e })
}
func (r users) ListByEmails(_ context.Context, es []string) ([]accounts.User, error) {
	var out []accounts.User
	for _, u := range r.d.users {
		if slices.Contains(es, u.Email) {
			out = append(out, u)
		}
	}
	return out, nil
}
func (r users) Save(_ context.Context, u accounts.User) error { r.d.users[u.ID] = u; return nil }

type accts struct {
	accounts.AccountRepo
	d *db
}

func (r accts) Create(_ context.Context, a accounts.Account) error {
	for _, b := range r.d.accounts {
		if !a.Personal && !b.Personal && strings.EqualFold(a.Name, b.Name) {
			return core.ErrConflict
		}
	}
	r.d.accounts[a.ID] = a
	return nil
}
func (r accts) Get(_ context.Context, id uuid.UUID) (accounts.Account, error) {
	a, ok := r.d.accounts[id]
	if !ok {
		return a, core.ErrNotFound
	}
	return a, nil
}
func (r accts) Lock(context.Context, uuid.UUID) error { return nil }
func (r accts) ListOrganizations(context.Context) ([]accounts.Account, error) {
	var out []accounts.Account
	for _, a := range r.d.accounts {
		if !a.Personal {
			out = append(out, a)
		}
	}
	return out, nil
}
func (r accts) ListForUser(_ context.Context, user uuid.UUID) ([]accounts.Membership, error) {
	var out []accounts.Membership
	for id, ms := range r.d.members {
		if role, ok := ms[user]; ok && !r.d.accounts[id].Personal {
			out = append(out, accounts.Membership{Account: r.d.accounts[id], Role: role})
		}
	}
	return out, nil
}
func (r accts) MembershipOf(_ context.Context, id, user uuid.UUID) (accounts.Membership, error) {
	role, ok := r.d.members[id][user]
	if !ok {
		return accounts.Membership{}, core.ErrNotFound
	}
	return accounts.Membership{Account: r.d.accounts[id], Role: role}, nil
}
func (r accts) Delete(_ context.Context, id uuid.UUID) error {
	delete(r.d.accounts, id)
	delete(r.d.members, id)
	return nil
}

type mems struct {
	accounts.MemberRepo
	d *db
}

func (r mems) List(_ context.Context, id uuid.UUID) ([]accounts.Member, error) {
	var out []accounts.Member
	for user, role := range r.d.members[id] {
		out = append(out, accounts.Member{AccountID: id, UserID: user, Email: r.d.users[user].Email, Role: role})
	}
	slices.SortFunc(out, func(a, b accounts.Member) int { return strings.Compare(a.Email, b.Email) })
	return out, nil
}
func (r mems) Put(_ context.Context, ms []accounts.Member) error {
	for _, m := range ms {
		if r.d.members[m.AccountID] == nil {
			r.d.members[m.AccountID] = map[uuid.UUID]accounts.Role{}
		}
		r.d.members[m.AccountID][m.UserID] = m.Role
	}
	return nil
}
func (r mems) Delete(_ context.Context, id uuid.UUID, users []uuid.UUID) error {
	for _, u := range users {
		delete(r.d.members[id], u)
	}
	return nil
}

type obox struct {
	outbox.Repo
	d *db
}

func (r obox) Add(_ context.Context, ms ...outbox.Message) error {
	r.d.outbox = append(r.d.outbox, ms...)
	return nil
}

type clk struct{}

func (clk) Now() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }

type noMail struct{}

func (noMail) Send(context.Context, mailtmpl.Mail) error { return nil }

func newService(t *testing.T) (*accounts.Service, *db) {
	t.Helper()
	d := newDB()
	s, err := accounts.New(accounts.Deps{Unit: uow.Unit[accounts.Tx]{Store: d, Clock: clk{}, IDs: ports.UUIDv7{}},
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
	if p, ok := d.accounts[ann.UserID]; !ok || !p.Personal || len(d.opened) != 1 || d.opened[0] != ann.UserID {
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
	if len(d.outbox) != 2 {
		t.Fatalf("%d member mails queued, want 2", len(d.outbox))
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
