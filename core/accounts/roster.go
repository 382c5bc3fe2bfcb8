package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Roster is an account's members as read under the account's lock
// (AccountRepo.Lock), with the role of the caller who changes them. Its
// methods are where the membership rules live: who may assign which role,
// who may change or remove an owner, and that the last owner can neither be
// demoted nor removed. The owner count they check is kept here too, in step
// with every change they allow, so a request that changes several members
// is judged member by member against what the earlier ones left.
type Roster struct {
	actor   Role
	byEmail map[string]Member
	owners  int
}

// NewRoster is the roster of members as changed by a caller holding actor.
func NewRoster(actor Role, members []Member) *Roster {
	r := &Roster{actor: actor, byEmail: make(map[string]Member, len(members))}
	for _, m := range members {
		r.byEmail[m.Email] = m
		if m.Role == RoleOwner {
			r.owners++
		}
	}
	return r
}

func loadRoster(ctx context.Context, tx Tx, accountID uuid.UUID, actor Role) (*Roster, error) {
	ms, err := tx.Members().List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	return NewRoster(actor, ms), nil
}

// Owners is the number of owners the roster has now.
func (r *Roster) Owners() int { return r.owners }

// Has reports whether email is a member.
func (r *Roster) Has(email string) bool { _, ok := r.byEmail[email]; return ok }

// Assign checks that the caller may give role to a member: owners and
// admins manage members; an owner may assign any role, an admin any but
// owner.
func (r *Roster) Assign(role Role) error {
	if !r.actor.AtLeast(ManageRole) {
		return core.Forbidden("only an owner or admin may manage members")
	}
	if role == RoleOwner && r.actor != RoleOwner {
		return core.Forbidden("only an owner may assign the owner role")
	}
	return nil
}

// ChangeRole gives the member with email the role to: only an owner may
// set owner or change an owner's role, and the last owner cannot be
// demoted. It returns the member as changed, its role before, and whether
// the role actually changed.
func (r *Roster) ChangeRole(email string, to Role) (m Member, old Role, changed bool, err error) {
	cur, ok := r.byEmail[email]
	if !ok {
		return m, 0, false, core.NotFound("%s is not a member of the account", email)
	}
	if err := r.Assign(to); err != nil {
		return m, 0, false, err
	}
	if cur.Role == RoleOwner && r.actor != RoleOwner {
		return m, 0, false, core.Forbidden("only an owner may change an owner's role")
	}
	if cur.Role == RoleOwner && to != RoleOwner && r.owners <= 1 {
		return m, 0, false, core.Conflict("the last owner cannot be demoted")
	}
	if cur.Role == to {
		return cur, cur.Role, false, nil
	}
	if cur.Role == RoleOwner {
		r.owners--
	}
	if to == RoleOwner {
		r.owners++
	}
	old, cur.Role = cur.Role, to
	r.byEmail[email] = cur
	return cur, old, true, nil
}

// Remove takes the member with email off the roster: owners and admins
// remove members, only an owner removes an owner, and the last owner
// cannot be removed.
func (r *Roster) Remove(email string) (Member, error) {
	cur, ok := r.byEmail[email]
	if !ok {
		return Member{}, core.NotFound("%s is not a member of the account", email)
	}
	if !r.actor.AtLeast(ManageRole) {
		return Member{}, core.Forbidden("only an owner or admin may remove members")
	}
	if cur.Role == RoleOwner && r.actor != RoleOwner {
		return Member{}, core.Forbidden("only an owner may remove an owner")
	}
	if cur.Role == RoleOwner && r.owners <= 1 {
		return Member{}, core.Conflict("the last owner cannot be removed")
	}
	if cur.Role == RoleOwner {
		r.owners--
	}
	delete(r.byEmail, email)
	return cur, nil
}
