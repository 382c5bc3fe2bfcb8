package accounts_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
)

const (
	o = accounts.RoleOwner
	a = accounts.RoleAdmin
	m = accounts.RoleMember
	v = accounts.RoleViewer
)

// roster is an account whose members hold roles, in order, as
// "0@acme.test", "1@acme.test", ...
func roster(actor accounts.Role, roles ...accounts.Role) *accounts.Roster {
	ms := make([]accounts.Member, len(roles))
	for i, r := range roles {
		ms[i] = accounts.Member{UserID: uuid.New(), Email: string(rune('0'+i)) + "@acme.test", Role: r}
	}
	return accounts.NewRoster(actor, ms)
}

func TestRosterCountsOwners(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		roles []accounts.Role
		want  int
	}{{nil, 0}, {[]accounts.Role{a, v}, 0}, {[]accounts.Role{o, m}, 1}, {[]accounts.Role{o, a, o}, 2}} {
		if got := roster(o, tt.roles...).Owners(); got != tt.want {
			t.Errorf("%v: Owners = %d, want %d", tt.roles, got, tt.want)
		}
	}
}

func TestRosterAssign(t *testing.T) {
	t.Parallel()
	all := []accounts.Role{v, m, a, o}
	for _, actor := range all {
		for _, target := range all {
			var want error
			switch {
			case actor == v || actor == m:
				want = core.ErrForbidden
			case actor == a && target == o:
				want = core.ErrForbidden
			}
			t.Run(actor.String()+"->"+target.String(), func(t *testing.T) {
				wantErr(t, roster(actor, o).Assign(target), want)
			})
		}
	}
}

func TestRosterChangeRole(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		actor    accounts.Role
		members  []accounts.Role // the first is changed
		to       accounts.Role
		want     error
		changed  bool
		ownersAf int
	}{
		{"owner promotes member to owner", o, []accounts.Role{m, o}, o, nil, true, 2},
		{"owner demotes admin", o, []accounts.Role{a, o}, v, nil, true, 1},
		{"admin promotes viewer to admin", a, []accounts.Role{v, o}, a, nil, true, 1},
		{"admin demotes admin", a, []accounts.Role{a, o}, m, nil, true, 1},
		{"admin may not set owner", a, []accounts.Role{m, o}, o, core.ErrForbidden, false, 1},
		{"admin may not change an owner", a, []accounts.Role{o, o}, m, core.ErrForbidden, false, 2},
		{"member may not manage", m, []accounts.Role{v, o}, m, core.ErrForbidden, false, 1},
		{"viewer may not manage", v, []accounts.Role{v, o}, m, core.ErrForbidden, false, 1},
		{"last owner cannot be demoted", o, []accounts.Role{o}, a, core.ErrConflict, false, 1},
		{"last owner cannot be demoted to viewer", o, []accounts.Role{o, a}, v, core.ErrConflict, false, 1},
		{"one of two owners may be demoted", o, []accounts.Role{o, o}, a, nil, true, 1},
		{"owner to owner is no change", o, []accounts.Role{o}, o, nil, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := roster(tt.actor, tt.members...)
			got, old, changed, err := r.ChangeRole("0@acme.test", tt.to)
			wantErr(t, err, tt.want)
			if changed != tt.changed || r.Owners() != tt.ownersAf {
				t.Fatalf("changed %v, owners %d; want %v, %d", changed, r.Owners(), tt.changed, tt.ownersAf)
			}
			if err == nil && (got.Role != tt.to || old != tt.members[0]) {
				t.Fatalf("member %v (was %v), want %v (was %v)", got.Role, old, tt.to, tt.members[0])
			}
		})
	}
}

// TestRosterJudgesEachChangeAgainstTheOnesBefore: a request that demotes
// both owners of an account gets the first and is refused the second, the
// count moving with the first.
func TestRosterJudgesEachChangeAgainstTheOnesBefore(t *testing.T) {
	t.Parallel()
	r := roster(o, o, o)
	if _, _, _, err := r.ChangeRole("0@acme.test", a); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := r.ChangeRole("1@acme.test", a)
	wantErr(t, err, core.ErrConflict)
	r = roster(o, o, o)
	if _, err := r.Remove("0@acme.test"); err != nil {
		t.Fatal(err)
	}
	_, err = r.Remove("1@acme.test")
	wantErr(t, err, core.ErrConflict)
}

func TestRosterRemove(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		actor   accounts.Role
		members []accounts.Role // the first is removed
		want    error
	}{
		{"owner removes member", o, []accounts.Role{m, o}, nil},
		{"admin removes admin", a, []accounts.Role{a, o}, nil},
		{"admin removes viewer", a, []accounts.Role{v, o}, nil},
		{"owner removes one of two owners", o, []accounts.Role{o, o}, nil},
		{"last owner cannot be removed", o, []accounts.Role{o, a}, core.ErrConflict},
		{"admin may not remove owner", a, []accounts.Role{o, o}, core.ErrForbidden},
		{"member may not remove", m, []accounts.Role{v, o}, core.ErrForbidden},
		{"viewer may not remove", v, []accounts.Role{v, o}, core.ErrForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := roster(tt.actor, tt.members...)
			_, err := r.Remove("0@acme.test")
			wantErr(t, err, tt.want)
			if err == nil && r.Has("0@acme.test") {
				t.Fatal("removed member still on the roster")
			}
		})
	}
}

func TestRosterUnknownMemberIsNotFound(t *testing.T) {
	t.Parallel()
	r := roster(o, o)
	_, _, _, err := r.ChangeRole("nobody@acme.test", m)
	wantErr(t, err, core.ErrNotFound)
	_, err = r.Remove("nobody@acme.test")
	wantErr(t, err, core.ErrNotFound)
}
