package accounts_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// fakeTx answers the reads access makes from a few rows; every other
// repository method is nil and would panic, which no test reaches.
type fakeTx struct {
	stores.Tx
	memberships []accounts.Membership // with Membership.Account and the member's user in userOf
	userOf      map[uuid.UUID]uuid.UUID
	lists       []lists.List
	vendors     []vendors.Vendor
}

func (t *fakeTx) Accounts() accounts.AccountRepo { return fakeAccounts{t: t} }
func (t *fakeTx) Lists() lists.ListRepo          { return fakeLists{t: t} }
func (t *fakeTx) Vendors() vendors.VendorRepo    { return fakeVendors{t: t} }

type fakeAccounts struct {
	accounts.AccountRepo
	t *fakeTx
}

func (r fakeAccounts) MembershipOf(_ context.Context, accountID, userID uuid.UUID) (accounts.Membership, error) {
	for _, m := range r.t.memberships {
		if m.Account.ID == accountID && r.t.userOf[accountID] == userID {
			return m, nil
		}
	}
	return accounts.Membership{}, core.ErrNotFound
}

type fakeLists struct {
	lists.ListRepo
	t *fakeTx
}

func (r fakeLists) Get(_ context.Context, accountID, id uuid.UUID) (lists.List, error) {
	for _, l := range r.t.lists {
		if l.AccountID == accountID && l.ID == id {
			return l, nil
		}
	}
	return lists.List{}, core.ErrNotFound
}

func (r fakeLists) GetByName(_ context.Context, accountID uuid.UUID, name string) (lists.List, error) {
	for _, l := range r.t.lists {
		if l.AccountID == accountID && l.Name == name {
			return l, nil
		}
	}
	return lists.List{}, core.ErrNotFound
}

type fakeVendors struct {
	vendors.VendorRepo
	t *fakeTx
}

func (r fakeVendors) Get(_ context.Context, id uuid.UUID) (vendors.Vendor, error) {
	for _, v := range r.t.vendors {
		if v.ID == id {
			return v, nil
		}
	}
	return vendors.Vendor{}, core.ErrNotFound
}

func (r fakeVendors) GetByName(_ context.Context, n vendors.Name) (vendors.Vendor, error) {
	for _, v := range r.t.vendors {
		if v.Name.Key() == n.Key() {
			return v, nil
		}
	}
	return vendors.Vendor{}, core.ErrNotFound
}

func wantKind(t *testing.T, err, kind error) {
	t.Helper()
	if kind == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if !errors.Is(err, kind) {
		t.Fatalf("error %v, want %v", err, kind)
	}
}

func TestParseAccountRef(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	for _, tt := range []struct {
		raw    string
		want   accounts.AccountRef
		detail string // of the refusal
	}{
		{" individual ", accounts.AccountRef{Personal: true}, ""},
		{id.String(), accounts.AccountRef{ID: id}, ""},
		{"  ", accounts.AccountRef{}, "is required"},
		{"acme", accounts.AccountRef{}, `must be an account UUID or "individual"`},
	} {
		got, err := accounts.ParseAccountRef(tt.raw)
		if tt.detail != "" {
			e, ok := core.AsError(err)
			if !ok || e.Field != "AccountRef" || e.Detail != tt.detail {
				t.Errorf("%q: error %v, want AccountRef %s", tt.raw, err, tt.detail)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q: %+v, %v; want %+v", tt.raw, got, err, tt.want)
		}
		if got.String() != strings.TrimSpace(tt.raw) {
			t.Errorf("%q: String() = %q", tt.raw, got.String())
		}
	}
}

func TestParseListRef(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	for _, tt := range []struct {
		listID, list string
		want         lists.ListRef
		bad          bool
	}{
		{"", "", lists.ListRef{}, false},
		{id.String(), "ignored", lists.ListRef{ID: id}, false},
		{"", " " + id.String(), lists.ListRef{ID: id}, false},
		{"", "  My   vendors ", lists.ListRef{Name: "My vendors"}, false},
		{"nope", "", lists.ListRef{}, true},
	} {
		got, err := lists.ParseListRef(tt.listID, tt.list)
		if tt.bad {
			if e, ok := core.AsError(err); !ok || e.Field != "ListRef.ID" {
				t.Errorf("%q: error %v, want ListRef.ID", tt.listID, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("(%q, %q): %+v, %v; want %+v", tt.listID, tt.list, got, err, tt.want)
		}
	}
	if !(lists.ListRef{}).Empty() || lists.MasterRef.Empty() {
		t.Error("Empty is wrong")
	}
}

// world is an organization with a viewer, a member and an inactive
// organization, and each user's personal space.
type world struct {
	tx                    *fakeTx
	org, closed           uuid.UUID
	viewer, member, other accounts.Actor
}

func newWorld() world {
	w := world{org: uuid.New(), closed: uuid.New(),
		viewer: accounts.Actor{UserID: uuid.New()}, member: accounts.Actor{UserID: uuid.New()}, other: accounts.Actor{UserID: uuid.New()}}
	w.tx = &fakeTx{userOf: map[uuid.UUID]uuid.UUID{}}
	add := func(acc accounts.Account, user uuid.UUID, role accounts.Role) {
		w.tx.memberships = append(w.tx.memberships, accounts.Membership{Account: acc, Role: role})
		w.tx.userOf[acc.ID] = user
	}
	// One member per account is all the fake keeps; the member's org and
	// personal spaces are enough for the rules.
	add(accounts.Account{ID: w.org, Name: "Acme", Active: true}, w.member.UserID, accounts.RoleMember)
	add(accounts.Account{ID: w.closed, Name: "Closed"}, w.viewer.UserID, accounts.RoleOwner)
	add(accounts.NewPersonal(w.viewer.UserID, time.Time{}), w.viewer.UserID, accounts.RoleOwner)
	return w
}

func TestAccountAccess(t *testing.T) {
	t.Parallel()
	w := newWorld()
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		a     accounts.Actor
		ref   accounts.AccountRef
		min   accounts.Role
		want  error
		inMsg string
	}{
		{"a member reads", w.member, accounts.AccountRef{ID: w.org}, accounts.ReadRole, nil, ""},
		{"a member writes", w.member, accounts.AccountRef{ID: w.org}, accounts.WriteRole, nil, ""},
		{"a member does not manage", w.member, accounts.AccountRef{ID: w.org}, accounts.ManageRole, core.ErrForbidden, "needs the admin role"},
		{"a non-member is forbidden", w.other, accounts.AccountRef{ID: w.org}, accounts.ReadRole, core.ErrForbidden, "not a member"},
		{"an unknown account is forbidden too", w.other, accounts.AccountRef{ID: uuid.New()}, accounts.ReadRole, core.ErrForbidden, "not a member"},
		{"an inactive account is forbidden", w.viewer, accounts.AccountRef{ID: w.closed}, accounts.ReadRole, core.ErrForbidden, "not active"},
		{"the personal space as individual", w.viewer, accounts.AccountRef{Personal: true}, accounts.ManageRole, nil, ""},
		{"the personal space by id is refused", w.viewer, accounts.AccountRef{ID: w.viewer.UserID}, accounts.ReadRole, core.ErrForbidden, "individual"},
		{"someone else's personal space", w.member, accounts.AccountRef{ID: w.viewer.UserID}, accounts.ReadRole, core.ErrForbidden, "not a member"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := accounts.Authorize(ctx, w.tx, tt.a, tt.ref, tt.min)
			wantKind(t, err, tt.want)
			if err != nil && !strings.Contains(err.Error(), tt.inMsg) {
				t.Fatalf("error %q does not say %q", err, tt.inMsg)
			}
			if err == nil && got.Account.ID == uuid.Nil {
				t.Fatal("no account resolved")
			}
		})
	}
}

func TestListResolution(t *testing.T) {
	t.Parallel()
	w := newWorld()
	ctx := context.Background()
	master := lists.List{ID: uuid.New(), AccountID: w.org, Name: lists.MasterList}
	mine := lists.List{ID: uuid.New(), AccountID: w.org, Name: "Mine"}
	elsewhere := lists.List{ID: uuid.New(), AccountID: uuid.New(), Name: "Mine"}
	w.tx.lists = []lists.List{master, mine, elsewhere}
	for _, tt := range []struct {
		name          string
		ref           lists.ListRef
		defaultMaster bool
		want          uuid.UUID
		err           error
	}{
		{"by id", lists.ListRef{ID: mine.ID}, false, mine.ID, nil},
		{"by name", lists.ListRef{Name: "Mine"}, false, mine.ID, nil},
		{"none names master-list where allowed", lists.ListRef{}, true, master.ID, nil},
		{"none is invalid elsewhere", lists.ListRef{}, false, uuid.Nil, core.ErrInvalid},
		{"another account's list is not found", lists.ListRef{ID: elsewhere.ID}, false, uuid.Nil, core.ErrNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, l, err := lists.AccountList(ctx, w.tx, w.member, accounts.AccountRef{ID: w.org}, accounts.WriteRole, tt.ref, tt.defaultMaster)
			wantKind(t, err, tt.err)
			if l.ID != tt.want {
				t.Fatalf("list %s, want %s", l.ID, tt.want)
			}
		})
	}
	if _, _, err := lists.AccountList(ctx, w.tx, w.other, accounts.AccountRef{ID: w.org}, accounts.ReadRole, lists.ListRef{ID: mine.ID}, false); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("a non-member resolved a list: %v", err)
	}
}

func TestVendorLookup(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	acme := vendors.Vendor{ID: uuid.New(), Name: "Acme"}
	// A vendor named like a UUID that is no vendor's id is found by name.
	odd := vendors.Vendor{ID: uuid.New(), Name: vendors.Name(uuid.NewString())}
	tx := &fakeTx{vendors: []vendors.Vendor{acme, odd}}
	for _, tt := range []struct {
		raw  string
		want uuid.UUID
		err  error
	}{
		{acme.ID.String(), acme.ID, nil},
		{"ACME", acme.ID, nil},
		{string(odd.Name), odd.ID, nil},
		{"Globex", uuid.Nil, core.ErrNotFound},
	} {
		ref, err := vendors.ParseRef(tt.raw)
		if err != nil {
			t.Fatal(err)
		}
		v, err := vendors.Resolve(ctx, tx, ref)
		wantKind(t, err, tt.err)
		if v.ID != tt.want {
			t.Errorf("%q: vendor %s, want %s", tt.raw, v.ID, tt.want)
		}
	}
}

func TestPlatformAdmin(t *testing.T) {
	t.Parallel()
	wantKind(t, accounts.RequirePlatformAdmin(accounts.Actor{}), core.ErrForbidden)
	wantKind(t, accounts.RequirePlatformAdmin(accounts.Actor{PlatformAdmin: true}), nil)
	if id, err := accounts.ParseID("x", " "+uuid.Nil.String()+" "); err != nil || id != uuid.Nil {
		t.Fatalf("ParseID: %v %v", id, err)
	}
	if _, err := accounts.ParseID("x", "nope"); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("ParseID(nope): %v", err)
	}
}
