package accounts_test

import (
	"errors"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
)

// TestEmailDomainNeedsADot: an address given to write to needs a domain
// with a dot; a token's e-mail (IdentityEmail) does not.
func TestEmailDomainNeedsADot(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"erin@northwind", "a@b", "Erin@Northwind", "a@b.", "a@localhost"} {
		if e, err := accounts.NormalizeEmail(bad); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want ErrInvalid", bad, e, err)
		}
		if _, err := accounts.NormalizeEmails("Users", []string{"ok@acme.test", bad}); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("NormalizeEmails(%q): %v; want ErrInvalid", bad, err)
		}
	}
	for in, want := range map[string]string{"Erin@Northwind.Example": "erin@northwind.example", "a@b.co": "a@b.co", " x@mail.acme.test ": "x@mail.acme.test"} {
		if got, err := accounts.NormalizeEmail(in); err != nil || got != want {
			t.Errorf("NormalizeEmail(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if got, err := accounts.IdentityEmail("Root@Localhost"); err != nil || got != "root@localhost" {
		t.Errorf("IdentityEmail(Root@Localhost) = %q, %v", got, err)
	}
	if _, err := accounts.IdentityEmail("Name <a@b.c>"); !errors.Is(err, core.ErrInvalid) {
		t.Errorf("IdentityEmail keeps the rest of the rule: %v", err)
	}
}
