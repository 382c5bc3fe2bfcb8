package records

import (
	"slices"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
)

// The contact rule. A contact is someone to call at the vendor: a name (1
// to MaxContactName characters of plain text), a valid e-mail address
// (accounts.NormalizeEmail, stored lower-cased) and a role from
// ContactRoles. A record holds at most MaxContacts of them. A bad contact
// is refused naming its index and field (contacts[2].email).
type Contact struct {
	Name  string
	Email string
	Role  string
}

// The contact roles.
const (
	RoleSecurity = "security"
	RolePrivacy  = "privacy"
	RoleAccount  = "account"
	RoleLegal    = "legal"
)

// ContactRoles lists the roles a contact may have.
func ContactRoles() []string { return []string{RoleSecurity, RolePrivacy, RoleAccount, RoleLegal} }

// Bounds of the contact rule.
const (
	MaxContacts    = 50
	MaxContactName = 200
)

// NormalizeContacts checks contacts and returns them cleaned (trimmed
// names, lower-cased addresses); every bad field is named.
func NormalizeContacts(in []Contact) ([]Contact, error) {
	if len(in) > MaxContacts {
		return nil, core.Invalid(patchField("contacts"), "at most %d contacts", MaxContacts)
	}
	var errs core.Fields
	out := make([]Contact, 0, len(in))
	for i, c := range in {
		at := core.Index(patchField("contacts"), i)
		name, err := core.PlainText(at+".name", c.Name, MaxContactName)
		switch {
		case err != nil:
			errs.AddErr(err)
		case name == "":
			errs.Add(at+".name", "is required")
		}
		email, err := accounts.NormalizeEmail(c.Email)
		if err != nil {
			errs.AddErr(core.WithField(err, at+".email"))
		}
		if !slices.Contains(ContactRoles(), c.Role) {
			errs.Add(at+".role", "must be one of security, privacy, account, legal")
		}
		out = append(out, Contact{Name: name, Email: email, Role: c.Role})
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
