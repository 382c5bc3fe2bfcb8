package records

import (
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
)

// The business owner rule. The person in the organization who owns the
// relationship with the vendor is a member of the account, of any role,
// named by e-mail compared without regard to case and stored lower-cased.
// Empty means none. Anyone else, or an address that is not one, is refused
// (business_owner).
func NormalizeOwner(raw string, members []accounts.Member) (string, error) {
	if raw == "" {
		return "", nil
	}
	e, err := accounts.IdentityEmail(raw)
	if err != nil {
		return "", core.WithField(err, patchField("business_owner"))
	}
	for _, m := range members {
		if m.Email == e {
			return e, nil
		}
	}
	return "", core.Invalid(patchField("business_owner"), "%s is not a member of the account", e)
}
