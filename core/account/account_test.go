package account_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/account"
)

// wantErr fails unless err matches want (nil meaning "no error").
func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if !errors.Is(err, want) {
		t.Fatalf("error = %v, want one matching %v", err, want)
	}
}

func TestParseRole(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want account.Role
		err  error
	}{
		{"owner", account.RoleOwner, nil},
		{"admin", account.RoleAdmin, nil},
		{"member", account.RoleMember, nil},
		{"viewer", account.RoleViewer, nil},
		{"OWNER", account.RoleOwner, nil},
		{"Admin", account.RoleAdmin, nil},
		{"  viewer ", account.RoleViewer, nil},
		{"", account.RoleMember, nil},
		{"superuser", 0, core.ErrInvalid},
		{"owners", 0, core.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := account.ParseRole(tt.in)
			wantErr(t, err, tt.err)
			if got != tt.want {
				t.Fatalf("ParseRole(%q) = %v, want %v", tt.in, got, tt.want)
			}
			if tt.err != nil && !strings.Contains(err.Error(), "owner, admin, member, viewer") {
				t.Fatalf("error %q does not list the roles", err)
			}
		})
	}
}

func TestRoleNamesRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range account.RoleValues() {
		r, err := account.ParseRole(name)
		if err != nil {
			t.Fatalf("ParseRole(%q): %v", name, err)
		}
		if r.String() != name || !r.Valid() {
			t.Fatalf("role %q: String() = %q, Valid() = %v", name, r.String(), r.Valid())
		}
	}
	if account.Role(0).Valid() || account.Role(5).Valid() {
		t.Fatal("roles outside viewer..owner must not be valid")
	}
}

func TestRoleOrder(t *testing.T) {
	t.Parallel()
	order := []account.Role{account.RoleViewer, account.RoleMember, account.RoleAdmin, account.RoleOwner}
	for i, r := range order {
		for j, floor := range order {
			if got, want := r.AtLeast(floor), i >= j; got != want {
				t.Errorf("%v.AtLeast(%v) = %v, want %v", r, floor, got, want)
			}
		}
	}
	if account.ReadRole != account.RoleViewer || account.WriteRole != account.RoleMember || account.ManageRole != account.RoleAdmin {
		t.Fatal("read/write/manage thresholds must be viewer/member/admin")
	}
}

func TestCheckAssign(t *testing.T) {
	t.Parallel()
	all := []account.Role{account.RoleViewer, account.RoleMember, account.RoleAdmin, account.RoleOwner}
	for _, actor := range all {
		for _, target := range all {
			var want error
			switch {
			case actor == account.RoleViewer || actor == account.RoleMember:
				want = core.ErrForbidden
			case actor == account.RoleAdmin && target == account.RoleOwner:
				want = core.ErrForbidden
			}
			t.Run(actor.String()+"->"+target.String(), func(t *testing.T) {
				t.Parallel()
				wantErr(t, account.CheckAssign(actor, target), want)
			})
		}
	}
}

func TestCheckChange(t *testing.T) {
	t.Parallel()
	const (
		o = account.RoleOwner
		a = account.RoleAdmin
		m = account.RoleMember
		v = account.RoleViewer
	)
	tests := []struct {
		name            string
		actor, from, to account.Role
		owners          int
		want            error
	}{
		{"owner promotes member to owner", o, m, o, 1, nil},
		{"owner demotes admin", o, a, v, 1, nil},
		{"admin promotes viewer to admin", a, v, a, 1, nil},
		{"admin demotes admin", a, a, m, 1, nil},
		{"admin may not set owner", a, m, o, 1, core.ErrForbidden},
		{"admin may not change an owner", a, o, m, 2, core.ErrForbidden},
		{"member may not manage", m, v, m, 1, core.ErrForbidden},
		{"viewer may not manage", v, v, m, 1, core.ErrForbidden},
		{"last owner cannot be demoted", o, o, a, 1, core.ErrConflict},
		{"last owner cannot be demoted to viewer", o, o, v, 1, core.ErrConflict},
		{"one of two owners may be demoted", o, o, a, 2, nil},
		{"owner to owner is no demotion", o, o, o, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wantErr(t, account.CheckChange(tt.actor, tt.from, tt.to, tt.owners), tt.want)
		})
	}
}

func TestCheckRemove(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		actor, target account.Role
		owners        int
		want          error
	}{
		{"owner removes member", account.RoleOwner, account.RoleMember, 1, nil},
		{"admin removes admin", account.RoleAdmin, account.RoleAdmin, 1, nil},
		{"admin removes viewer", account.RoleAdmin, account.RoleViewer, 1, nil},
		{"owner removes one of two owners", account.RoleOwner, account.RoleOwner, 2, nil},
		{"last owner cannot be removed", account.RoleOwner, account.RoleOwner, 1, core.ErrConflict},
		{"admin may not remove owner", account.RoleAdmin, account.RoleOwner, 2, core.ErrForbidden},
		{"member may not remove", account.RoleMember, account.RoleViewer, 1, core.ErrForbidden},
		{"viewer may not remove", account.RoleViewer, account.RoleViewer, 1, core.ErrForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wantErr(t, account.CheckRemove(tt.actor, tt.target, tt.owners), tt.want)
		})
	}
}

func TestNormalizeEmail(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 186) + ".com"    // 255 chars
	atLimit := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 185) + ".com" // 254 chars
	tests := []struct {
		in, want string
		err      error
	}{
		{"Alice@Example.COM", "alice@example.com", nil},
		{"  bob@example.com  ", "bob@example.com", nil},
		{atLimit, atLimit, nil},
		{long, "", core.ErrInvalid},
		{"Name <a@b.c>", "", core.ErrInvalid},
		{"<a@b.c>", "", core.ErrInvalid},
		{"a b@example.com", "", core.ErrInvalid},
		{"a@exa mple.com", "", core.ErrInvalid},
		{"example.com", "", core.ErrInvalid},
		{"", "", core.ErrInvalid},
		{"a@b.c, d@e.f", "", core.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := account.NormalizeEmail(tt.in)
			wantErr(t, err, tt.err)
			if got != tt.want {
				t.Fatalf("NormalizeEmail(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNewAccount(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	tests := []struct {
		name, in, want string
		err            error
	}{
		{"trims and collapses", "  Acme \t  Widgets\n Ltd  ", "Acme Widgets Ltd", nil},
		{"200 runes", strings.Repeat("é", 200), strings.Repeat("é", 200), nil},
		{"empty", "", "", core.ErrInvalid},
		{"blank", " \t\n ", "", core.ErrInvalid},
		{"201 runes", strings.Repeat("x", 201), "", core.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a, err := account.NewAccount(id, tt.in, now)
			wantErr(t, err, tt.err)
			if err != nil {
				return
			}
			if a.Name != tt.want || a.ID != id || !a.Active || a.Personal {
				t.Fatalf("NewAccount = %+v, want name %q, active, not personal", a, tt.want)
			}
			if !a.CreatedAt.Equal(now) || a.CreatedAt.Location() != time.UTC {
				t.Fatalf("CreatedAt = %v, want %v in UTC", a.CreatedAt, now)
			}
		})
	}
}

func TestNewPersonal(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	a := account.NewPersonal(id, time.Now())
	if a.ID != id || !a.Personal || !a.Active || a.Name != "individual" {
		t.Fatalf("NewPersonal = %+v", a)
	}
}

func TestCountOwners(t *testing.T) {
	t.Parallel()
	m := func(r account.Role) account.Member { return account.Member{Role: r} }
	tests := []struct {
		name string
		in   []account.Member
		want int
	}{
		{"none", nil, 0},
		{"no owner", []account.Member{m(account.RoleAdmin), m(account.RoleViewer)}, 0},
		{"one", []account.Member{m(account.RoleOwner), m(account.RoleMember)}, 1},
		{"two", []account.Member{m(account.RoleOwner), m(account.RoleAdmin), m(account.RoleOwner)}, 2},
	}
	for _, tt := range tests {
		if got := account.CountOwners(tt.in); got != tt.want {
			t.Errorf("%s: CountOwners = %d, want %d", tt.name, got, tt.want)
		}
	}
}

func TestNormalizeEmailRefusesControlCharacters(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"ann\u0085@acme.test", "ann@acme.test\x00", "ann@ac\u009bme.test", "a\x7fnn@acme.test"} {
		if e, err := account.NormalizeEmail(raw); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want ErrInvalid", raw, e, err)
		}
	}
}
