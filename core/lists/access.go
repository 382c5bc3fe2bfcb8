package lists

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
)

// ListRef names a list of an account: by id, or by name. The zero ListRef
// names none; the operations that allow it use master-list.
type ListRef struct {
	ID   uuid.UUID
	Name string
}

// MasterRef names the list every account keeps.
var MasterRef = ListRef{Name: MasterList}

// ParseListRef reads vendor-list-id (a UUID) and vendor-list (an id or a
// name); the first given wins.
func ParseListRef(listID, list string) (ListRef, error) {
	switch {
	case strings.TrimSpace(listID) != "":
		id, err := accounts.ParseID("ListRef.ID", listID)
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

// Resolve finds the list r names in an account; with no list named it is master-list when
// defaultMaster, else invalid.
func Resolve(ctx context.Context, tx Tx, accountID uuid.UUID, r ListRef, defaultMaster bool) (List, error) {
	var (
		l   List
		err error
	)
	switch {
	case r.ID != uuid.Nil:
		l, err = tx.Lists().Get(ctx, accountID, r.ID)
	case r.Name != "":
		l, err = tx.Lists().GetByName(ctx, accountID, r.Name)
	case defaultMaster:
		l, err = tx.Lists().GetByName(ctx, accountID, MasterList)
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
func AccountList(ctx context.Context, tx Tx, a accounts.Actor, ref accounts.AccountRef, min accounts.Role, lr ListRef, defaultMaster bool) (accounts.Access, List, error) {
	acc, err := accounts.Authorize(ctx, tx, a, ref, min)
	if err != nil {
		return accounts.Access{}, List{}, err
	}
	l, err := Resolve(ctx, tx, acc.Account.ID, lr, defaultMaster)
	return acc, l, err
}

// OpenMaster gives a new account the list every account keeps, in the unit
// of work that creates the account (core/accounts' Deps.Opened).
func OpenMaster(ctx context.Context, tx Tx, id, accountID uuid.UUID, now time.Time) error {
	l, err := New(id, accountID, MasterList, now)
	if err != nil {
		return err
	}
	return tx.Lists().Create(ctx, l)
}
