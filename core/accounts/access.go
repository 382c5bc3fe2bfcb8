package accounts

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/ports"
)

// Actor is the authenticated caller as the use cases see it.
type Actor struct {
	UserID        uuid.UUID
	Email         string
	Name          string
	Verified      bool
	PlatformAdmin bool
}

// ErrPlatformAdminOnly refuses a platform-admin action to anyone else.
var ErrPlatformAdminOnly = core.Forbidden("this action is limited to platform admins (the %s group)", ports.PlatformAdminGroup)

// RequirePlatformAdmin refuses a caller outside the Admins group.
func RequirePlatformAdmin(a Actor) error {
	if !a.PlatformAdmin {
		return ErrPlatformAdminOnly
	}
	return nil
}

// Individual is the account-id of the caller's personal space.
const Individual = "individual"

// AccountRef names the account a request acts in: an organization by id,
// or the caller's personal space.
type AccountRef struct {
	ID       uuid.UUID
	Personal bool
}

// ParseAccountRef reads an account-id: an account UUID or "individual".
func ParseAccountRef(raw string) (AccountRef, error) {
	raw = strings.TrimSpace(raw)
	switch raw {
	case "":
		return AccountRef{}, core.Invalid("AccountRef", "is required")
	case Individual:
		return AccountRef{Personal: true}, nil
	}
	id, err := uuid.Parse(raw)
	if err != nil {
		return AccountRef{}, core.Invalid("AccountRef", "must be an account UUID or %q", Individual)
	}
	return AccountRef{ID: id}, nil
}

// String is the reference as the API spells it.
func (r AccountRef) String() string {
	if r.Personal {
		return Individual
	}
	return r.ID.String()
}

// ParseID parses a UUID given in field.
func ParseID(field, raw string) (uuid.UUID, error) {
	id, err := uuid.Parse(strings.TrimSpace(raw))
	if err != nil {
		return uuid.Nil, core.Invalid(field, "must be a UUID")
	}
	return id, nil
}

// Access is a resolved account and the caller's role in it.
type Access struct {
	Account Account
	Role    Role
}

// Authorize resolves ref for the actor and checks the minimum role.
func Authorize(ctx context.Context, tx Tx, a Actor, ref AccountRef, min Role) (Access, error) {
	id := ref.ID
	if ref.Personal {
		id = a.UserID
	}
	m, err := tx.Accounts().MembershipOf(ctx, id, a.UserID)
	if errors.Is(err, core.ErrNotFound) {
		return Access{}, core.Forbidden("you are not a member of account %s", ref)
	}
	if err != nil {
		return Access{}, err
	}
	acc := m.Account
	if acc.Personal && !ref.Personal {
		// A personal space is addressed only as "individual".
		return Access{}, core.Forbidden("use account-id=%s for your personal space", Individual)
	}
	if !acc.Active {
		return Access{}, core.Forbidden("account %s is not active", ref)
	}
	if !m.Role.AtLeast(min) {
		return Access{}, core.Forbidden("this action needs the %s role or higher in the account; you are %s", min, m.Role)
	}
	return Access{Account: acc, Role: m.Role}, nil
}
