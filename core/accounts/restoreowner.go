package accounts

import (
	"context"
	"errors"
	"fmt"

	"github.com/vetted-dev/vetted/core"
)

// The owner-restore rule: a platform admin may make someone an owner of an
// organization, the way back for an account whose last owner is gone (left
// the company, lost the sign-in) and where nobody left may assign owner.
// It is the one organization change a platform admin makes without being
// a member (DECISIONS.md, Access), so it needs a reason, and it is
// audited: an "audit" log record names the platform admin, the account,
// the new owner, the role they had and the reason, and the new owner is
// mailed as any member whose role changes (by the platform admin). The
// person becomes an owner whether or not they were a member; the other
// members and owners stay as they are. A personal space has no owners to
// restore (it is its user's alone).

// MaxReasonLen bounds the reason of an owner restore.
const MaxReasonLen = 500

// Restored is the outcome of an owner restore.
type Restored struct {
	Member Member
	// Previous is the role the person had before (0: not a member).
	Previous Role
	// OwnersBefore counts the account's owners before the restore.
	OwnersBefore int
}

// RestoreOwner makes email an owner of the account (platform admins only),
// with a reason for the audit record.
func (s *Service) RestoreOwner(ctx context.Context, a Actor, ref AccountRef, email, reason string) (Restored, error) {
	if err := RequirePlatformAdmin(a); err != nil {
		return Restored{}, err
	}
	if ref.Personal {
		return Restored{}, core.Invalid("AccountRef", "a personal space belongs to its user alone: it has no owner to restore")
	}
	var errs core.Fields
	e, err := NormalizeEmail(email)
	errs.AddErr(core.WithField(err, "Email"))
	reason, err = core.PlainText("Reason", reason, MaxReasonLen)
	if !errs.AddErr(err) && reason == "" {
		errs.Add("Reason", "is required: say why the account needs an owner (it goes to the audit record)")
	}
	if err := errs.Err(); err != nil {
		return Restored{}, err
	}
	var out Restored
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := tx.Accounts().Get(ctx, ref.ID)
		if errors.Is(err, core.ErrNotFound) || (err == nil && acc.Personal) {
			return core.NotFound("account %s", ref.ID)
		}
		if err != nil {
			return err
		}
		if err := tx.Accounts().Lock(ctx, acc.ID); err != nil {
			return err
		}
		roster, err := loadRoster(ctx, tx, acc.ID, RoleOwner)
		if err != nil {
			return err
		}
		out.OwnersBefore = roster.Owners()
		m, ok := roster.byEmail[e]
		switch {
		case ok && m.Role == RoleOwner:
			return core.Conflict("%s is already an owner of the account", e)
		case ok:
			out.Previous = m.Role
		default:
			us, err := s.usersByEmail(ctx, tx, []string{e})
			if err != nil {
				return err
			}
			m = Member{AccountID: acc.ID, UserID: us[e].ID, CreatedAt: s.d.Now()}
		}
		m.Role = RoleOwner
		if err := tx.Members().Put(ctx, []Member{m}); err != nil {
			return err
		}
		if err := s.emitMemberMail(ctx, tx, acc, e, RoleOwner, out.Previous, a); err != nil {
			return err
		}
		ms, err := pickMembers(ctx, tx, acc.ID, []string{e})
		if err != nil {
			return err
		}
		if len(ms) != 1 {
			return fmt.Errorf("accounts: the restored owner %s was not stored", e)
		}
		out.Member = ms[0]
		return nil
	})
	if err != nil {
		return Restored{}, err
	}
	previous := "none"
	if out.Previous != 0 {
		previous = out.Previous.String()
	}
	s.log().InfoContext(ctx, "audit: account owner restored by a platform admin", "audit", true, "action", "account.owner_restored",
		"platform_admin", a.Email, "account_id", ref.ID.String(), "owner", out.Member.Email, "previous_role", previous,
		"owners_before", out.OwnersBefore, "reason", reason)
	return out, nil
}
