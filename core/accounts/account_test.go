package accounts_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
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
		want accounts.Role
		err  error
	}{
		{"owner", accounts.RoleOwner, nil},
		{"admin", accounts.RoleAdmin, nil},
		{"member", accounts.RoleMember, nil},
		{"viewer", accounts.RoleViewer, nil},
		{"OWNER", accounts.RoleOwner, nil},
		{"Admin", accounts.RoleAdmin, nil},
		{"  viewer ", accounts.RoleViewer, nil},
		{"", accounts.RoleMember, nil},
		{"superuser", 0, core.ErrInvalid},
		{"owners", 0, core.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := accounts.ParseRole(tt.in)
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
	for _, name := range accounts.RoleValues() {
		r, err := accounts.ParseRole(name)
		if err != nil {
			t.Fatalf("ParseRole(%q): %v", name, err)
		}
		if r.String() != name || !r.Valid() {
			t.Fatalf("role %q: String() = %q, Valid() = %v", name, r.String(), r.Valid())
		}
	}
	if accounts.Role(0).Valid() || accounts.Role(5).Valid() {
		t.Fatal("roles outside viewer..owner must not be valid")
	}
}

func TestRoleOrder(t *testing.T) {
	t.Parallel()
	order := []accounts.Role{accounts.RoleViewer, accounts.RoleMember, accounts.RoleAdmin, accounts.RoleOwner}
	for i, r := range order {
		for j, floor := range order {
			if got, want := r.AtLeast(floor), i >= j; got != want {
				t.Errorf("%v.AtLeast(%v) = %v, want %v", r, floor, got, want)
			}
		}
	}
	if accounts.ReadRole != accounts.RoleViewer || accounts.WriteRole != accounts.RoleMember || accounts.ManageRole != accounts.RoleAdmin {
		t.Fatal("read/write/manage thresholds must be viewer/member/admin")
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
			got, err := accounts.NormalizeEmail(tt.in)
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
			a, err := accounts.NewAccount(id, tt.in, now)
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
	a := accounts.NewPersonal(id, time.Now())
	if a.ID != id || !a.Personal || !a.Active || a.Name != "individual" {
		t.Fatalf("NewPersonal = %+v", a)
	}
}

func TestNormalizeEmailRefusesControlCharacters(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{"ann\u0085@acme.test", "ann@acme.test\x00", "ann@ac\u009bme.test", "a\x7fnn@acme.test"} {
		if e, err := accounts.NormalizeEmail(raw); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want ErrInvalid", raw, e, err)
		}
	}
}

func TestNormalizeEmails(t *testing.T) {
	t.Parallel()
	got, err := accounts.NormalizeEmails("users", []string{"Ann@Acme.test", " ann@acme.test", "bob@acme.test"})
	if err != nil || strings.Join(got, ",") != "ann@acme.test,bob@acme.test" {
		t.Fatalf("NormalizeEmails = %v, %v", got, err)
	}
	_, err = accounts.NormalizeEmails("users", []string{"ann@acme.test", "nope", "also nope"})
	fs := core.Failures(err)
	if len(fs) != 2 || fs[0].Field != "users[1]" || fs[1].Field != "users[2]" {
		t.Fatalf("failures %+v", fs)
	}
}
