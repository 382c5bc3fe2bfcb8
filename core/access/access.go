// Package access is who may do what, and the typed references requests
// name things by. apps/api parses every reference once at the edge
// (ParseAccountRef, ParseListRef, ParseID, directory.ParseRef); the use
// cases receive values that cannot be malformed and resolve them here.
//
// The rules: platform admins (the Admins group) create and delete accounts
// and edit the global vendor directory; on routes that take an account,
// viewer reads and member or above writes; the personal space
// ("individual") is owned by its user alone. A caller who is not a member
// of an account gets core.ErrForbidden whether or not it exists, so account
// ids cannot be probed; records that exist only in another account are
// core.ErrNotFound.
package access

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/account"
	"github.com/vetted-dev/vetted/core/directory"
	"github.com/vetted-dev/vetted/core/vendorlist"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
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
	Account account.Account
	Role    account.Role
}

// Account resolves ref for the actor and checks the minimum role.
func Account(ctx context.Context, tx stores.Tx, a Actor, ref AccountRef, min account.Role) (Access, error) {
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

// ListRef names a list of an account: by id, or by name. The zero ListRef
// names none; the operations that allow it use master-list.
type ListRef struct {
	ID   uuid.UUID
	Name string
}

// MasterList names the list every account keeps.
var MasterList = ListRef{Name: vendorlist.MasterList}

// ParseListRef reads vendor-list-id (a UUID) and vendor-list (an id or a
// name); the first given wins.
func ParseListRef(listID, list string) (ListRef, error) {
	switch {
	case strings.TrimSpace(listID) != "":
		id, err := ParseID("ListRef.ID", listID)
		return ListRef{ID: id}, err
	case strings.TrimSpace(list) != "":
		if id, err := uuid.Parse(strings.TrimSpace(list)); err == nil {
			return ListRef{ID: id}, nil
		}
		return ListRef{Name: strings.Join(strings.Fields(list), " ")}, nil
	}
	return ListRef{}, nil
}

// Empty reports whether r names no list.
func (r ListRef) Empty() bool { return r.ID == uuid.Nil && r.Name == "" }

// List resolves r in an account; with no list named it is master-list when
// defaultMaster, else invalid.
func List(ctx context.Context, tx stores.Tx, accountID uuid.UUID, r ListRef, defaultMaster bool) (vendorlist.List, error) {
	var (
		l   vendorlist.List
		err error
	)
	switch {
	case r.ID != uuid.Nil:
		l, err = tx.Lists().Get(ctx, accountID, r.ID)
	case r.Name != "":
		l, err = tx.Lists().GetByName(ctx, accountID, r.Name)
	case defaultMaster:
		l, err = tx.Lists().GetByName(ctx, accountID, vendorlist.MasterList)
	default:
		return l, core.Invalid("ListRef", "vendor-list-id or vendor-list is required")
	}
	if errors.Is(err, core.ErrNotFound) {
		return l, core.NotFound("vendor list not found in this account")
	}
	return l, err
}

// AccountList resolves an account for the actor with a minimum role, then
// one of its lists.
func AccountList(ctx context.Context, tx stores.Tx, a Actor, ref AccountRef, min account.Role, lr ListRef, defaultMaster bool) (Access, vendorlist.List, error) {
	acc, err := Account(ctx, tx, a, ref, min)
	if err != nil {
		return Access{}, vendorlist.List{}, err
	}
	l, err := List(ctx, tx, acc.Account.ID, lr, defaultMaster)
	return acc, l, err
}

// Vendor finds the directory entry a reference names: by id, else by name
// (a vendor named like a UUID that is no vendor's id is found by its name).
func Vendor(ctx context.Context, tx stores.Tx, ref directory.Ref) (directory.Vendor, error) {
	var (
		v   directory.Vendor
		err error
	)
	id, byID := ref.ID()
	if byID {
		v, err = tx.Vendors().Get(ctx, id)
	}
	if !byID || errors.Is(err, core.ErrNotFound) {
		if n, ok := ref.Name(); ok {
			v, err = tx.Vendors().GetByName(ctx, n)
		}
	}
	if errors.Is(err, core.ErrNotFound) {
		return v, core.NotFound("vendor %q is not in the directory", ref.String())
	}
	return v, err
}
