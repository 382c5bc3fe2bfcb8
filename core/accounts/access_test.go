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
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

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

// world is an organization with a member, an inactive organization of
// the viewer, and the viewer's personal space.
type world struct {
	s                     *memstore.Store
	org, closed           uuid.UUID
	viewer, member, other accounts.Actor
}

func newWorld(t *testing.T) world {
	t.Helper()
	w := world{s: memstore.New(), org: uuid.New(), closed: uuid.New(),
		viewer: accounts.Actor{UserID: uuid.New()}, member: accounts.Actor{UserID: uuid.New()}, other: accounts.Actor{UserID: uuid.New()}}
	seed(t, w.s, func(ctx context.Context, tx stores.Tx) error {
		for _, u := range []accounts.Actor{w.viewer, w.member, w.other} {
			if err := tx.Users().Save(ctx, accounts.User{ID: u.UserID, Email: u.UserID.String() + "@acme.test"}); err != nil {
				return err
			}
		}
		for _, m := range []struct {
			acc  accounts.Account
			user uuid.UUID
			role accounts.Role
		}{
			{accounts.Account{ID: w.org, Name: "Acme", Active: true}, w.member.UserID, accounts.RoleMember},
			{accounts.Account{ID: w.closed, Name: "Closed"}, w.viewer.UserID, accounts.RoleOwner},
			{accounts.NewPersonal(w.viewer.UserID, time.Time{}), w.viewer.UserID, accounts.RoleOwner},
		} {
			if err := tx.Accounts().Create(ctx, m.acc); err != nil {
				return err
			}
			if err := tx.Members().Put(ctx, []accounts.Member{{AccountID: m.acc.ID, UserID: m.user, Role: m.role}}); err != nil {
				return err
			}
		}
		return nil
	})
	return w
}

// view runs fn in a read of the world's store.
func (w world) view(t *testing.T, fn func(context.Context, stores.Tx)) {
	t.Helper()
	if err := w.s.View(t.Context(), func(ctx context.Context, tx stores.Tx) error { fn(ctx, tx); return nil }); err != nil {
		t.Fatal(err)
	}
}

func TestAccountAccess(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
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
			w.view(t, func(ctx context.Context, tx stores.Tx) {
				got, err := accounts.Authorize(ctx, tx, tt.a, tt.ref, tt.min)
				wantKind(t, err, tt.want)
				if err != nil && !strings.Contains(err.Error(), tt.inMsg) {
					t.Fatalf("error %q does not say %q", err, tt.inMsg)
				}
				if err == nil && got.Account.ID == uuid.Nil {
					t.Fatal("no account resolved")
				}
			})
		})
	}
}

func TestListResolution(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	master := lists.List{ID: uuid.New(), AccountID: w.org, Name: lists.MasterList}
	mine := lists.List{ID: uuid.New(), AccountID: w.org, Name: "Mine"}
	elsewhere := lists.List{ID: uuid.New(), AccountID: w.viewer.UserID, Name: "Mine"}
	seed(t, w.s, func(ctx context.Context, tx stores.Tx) error {
		for _, l := range []lists.List{master, mine, elsewhere} {
			if err := tx.Lists().Create(ctx, l); err != nil {
				return err
			}
		}
		return nil
	})
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
			w.view(t, func(ctx context.Context, tx stores.Tx) {
				_, l, err := lists.AccountList(ctx, tx, w.member, accounts.AccountRef{ID: w.org}, accounts.WriteRole, tt.ref, tt.defaultMaster)
				wantKind(t, err, tt.err)
				if l.ID != tt.want {
					t.Fatalf("list %s, want %s", l.ID, tt.want)
				}
			})
		})
	}
	w.view(t, func(ctx context.Context, tx stores.Tx) {
		if _, _, err := lists.AccountList(ctx, tx, w.other, accounts.AccountRef{ID: w.org}, accounts.ReadRole, lists.ListRef{ID: mine.ID}, false); !errors.Is(err, core.ErrForbidden) {
			t.Fatalf("a non-member resolved a list: %v", err)
		}
	})
}

func TestVendorLookup(t *testing.T) {
	t.Parallel()
	w := world{s: memstore.New()}
	acme := vendors.Vendor{ID: uuid.New(), Name: "Acme"}
	// A vendor named like a UUID that is no vendor's id is found by name.
	odd := vendors.Vendor{ID: uuid.New(), Name: vendors.Name(uuid.NewString())}
	seed(t, w.s, func(ctx context.Context, tx stores.Tx) error {
		_, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{acme, odd})
		return err
	})
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
		w.view(t, func(ctx context.Context, tx stores.Tx) {
			v, err := vendors.Resolve(ctx, tx, ref)
			wantKind(t, err, tt.err)
			if v.ID != tt.want {
				t.Errorf("%q: vendor %s, want %s", tt.raw, v.ID, tt.want)
			}
		})
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
