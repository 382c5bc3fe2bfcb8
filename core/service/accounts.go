package service

import (
	"context"
	"errors"
	"sort"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/account"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// AccountView is an account with its members.
type AccountView struct {
	Account account.Account
	Members []account.Member
}

// CreateAccount creates an organization (platform admins only): the first
// user becomes owner, the others admin; master-list is created with it and
// every member is told by e-mail.
func (s *Service) CreateAccount(ctx context.Context, a Actor, name string, users []string) (AccountView, error) {
	if err := requirePlatformAdmin(a); err != nil {
		return AccountView{}, err
	}
	emails, err := normalizeEmails("users", users)
	if err != nil {
		return AccountView{}, err
	}
	if len(emails) == 0 {
		return AccountView{}, core.Invalid("users", "must name at least one user, who becomes the owner")
	}
	acc, err := account.NewAccount(s.d.IDs.New(), name, s.now())
	if err != nil {
		return AccountView{}, err
	}
	var view AccountView
	err = s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		if err := tx.Accounts().Create(ctx, acc); err != nil {
			return err
		}
		if err := s.createMasterList(ctx, tx, acc.ID); err != nil {
			return err
		}
		us, err := s.usersByEmail(ctx, tx, emails)
		if err != nil {
			return err
		}
		ms := make([]account.Member, 0, len(emails))
		for i, e := range emails {
			role := account.RoleAdmin
			if i == 0 {
				role = account.RoleOwner
			}
			ms = append(ms, account.Member{AccountID: acc.ID, UserID: us[e].ID, Role: role, CreatedAt: s.now()})
			if err := s.emitMemberMail(ctx, tx, acc, e, role, 0, a); err != nil {
				return err
			}
		}
		if err := tx.Members().Put(ctx, ms); err != nil {
			return err
		}
		view.Account = acc
		view.Members, err = tx.Members().List(ctx, acc.ID)
		return err
	})
	return view, err
}

// ListAccounts lists every organization for platform admins and the caller's
// own organizations otherwise.
func (s *Service) ListAccounts(ctx context.Context, a Actor) ([]account.Account, error) {
	var out []account.Account
	err := s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
		if a.PlatformAdmin {
			var err error
			out, err = tx.Accounts().ListOrganizations(ctx)
			return err
		}
		ms, err := tx.Accounts().ListForUser(ctx, a.UserID)
		for _, m := range ms {
			out = append(out, m.Account)
		}
		return err
	})
	return out, err
}

// DeleteAccounts deletes organizations with everything they own (platform
// admins only). It is all-or-nothing: an unknown id deletes nothing.
func (s *Service) DeleteAccounts(ctx context.Context, a Actor, ids []string) ([]uuid.UUID, error) {
	if err := requirePlatformAdmin(a); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, core.Invalid("account_id", "account_id or account_ids is required")
	}
	parsed := make([]uuid.UUID, 0, len(ids))
	seen := map[uuid.UUID]bool{}
	for _, raw := range ids {
		id, err := parseID("account_ids", raw)
		if err != nil {
			return nil, err
		}
		if !seen[id] {
			seen[id] = true
			parsed = append(parsed, id)
		}
	}
	err := s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		var keys []string
		for _, id := range parsed {
			acc, err := tx.Accounts().Get(ctx, id)
			if err == nil && acc.Personal {
				err = core.ErrNotFound
			}
			if err != nil {
				if errors.Is(err, core.ErrNotFound) {
					return core.NotFound("account %s", id)
				}
				return err
			}
			docs, err := tx.Documents().ListByAccount(ctx, id)
			if err != nil {
				return err
			}
			for _, d := range docs {
				keys = append(keys, d.ObjectKey)
			}
			if err := tx.Accounts().Delete(ctx, id); err != nil {
				return err
			}
		}
		if len(keys) > 0 {
			return s.emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: keys})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return parsed, nil
}

// MyAccounts returns the caller's organizations with the caller's role.
func (s *Service) MyAccounts(ctx context.Context, a Actor) ([]account.Membership, error) {
	var out []account.Membership
	err := s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
		var err error
		out, err = tx.Accounts().ListForUser(ctx, a.UserID)
		return err
	})
	return out, err
}

// Members lists an account's members (viewer or above).
func (s *Service) Members(ctx context.Context, a Actor, ref string) ([]account.Member, error) {
	var out []account.Member
	err := s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.access(ctx, tx, a, ref, account.ReadRole)
		if err != nil {
			return err
		}
		out, err = tx.Members().List(ctx, acc.Account.ID)
		return err
	})
	return out, err
}

// MemberInput names a member and a role ("" = member).
type MemberInput struct {
	Email string
	Role  string
}

type parsedMember struct {
	email string
	role  account.Role
}

func parseMembers(in []MemberInput) ([]parsedMember, error) {
	if len(in) == 0 {
		return nil, core.Invalid("users", "must name at least one user")
	}
	var errs core.Fields
	seen := map[string]bool{}
	out := make([]parsedMember, 0, len(in))
	for i, m := range in {
		e, err := account.NormalizeEmail(m.Email)
		if err != nil {
			errs.AddErr(core.Nest(err, core.Index("users", i)))
			continue
		}
		r, err := account.ParseRole(m.Role)
		if err != nil {
			errs.AddErr(core.Nest(err, core.Index("users", i)))
			continue
		}
		if seen[e] {
			errs.Add(core.Index("users", i)+".email", "%s appears twice", e)
			continue
		}
		seen[e] = true
		out = append(out, parsedMember{email: e, role: r})
	}
	return out, errs.Err()
}

// manageable resolves an organization account whose members the actor may
// manage, locked for the rest of the unit of work.
func (s *Service) manageable(ctx context.Context, tx ports.Tx, a Actor, ref string) (Access, error) {
	acc, err := s.access(ctx, tx, a, ref, account.ReadRole)
	if err != nil {
		return Access{}, err
	}
	if acc.Account.Personal {
		return Access{}, core.Invalid("account-id", "a personal space has no other members")
	}
	if !acc.Role.AtLeast(account.ManageRole) {
		return Access{}, core.Forbidden("only an owner or admin may manage members; you are %s", acc.Role)
	}
	if err := tx.Accounts().Lock(ctx, acc.Account.ID); err != nil {
		return Access{}, err
	}
	return acc, nil
}

// AddMembers adds members by e-mail (owner or admin; only an owner may add an
// owner). An e-mail that is already a member is a conflict. Each new member
// is told by e-mail.
func (s *Service) AddMembers(ctx context.Context, a Actor, ref string, in []MemberInput) ([]account.Member, error) {
	ms, err := parseMembers(in)
	if err != nil {
		return nil, err
	}
	var out []account.Member
	err = s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.manageable(ctx, tx, a, ref)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if err := account.CheckAssign(acc.Role, m.role); err != nil {
				return err
			}
		}
		current, err := tx.Members().List(ctx, acc.Account.ID)
		if err != nil {
			return err
		}
		byEmail := map[string]bool{}
		for _, c := range current {
			byEmail[c.Email] = true
		}
		emails := make([]string, 0, len(ms))
		for _, m := range ms {
			if byEmail[m.email] {
				return core.Conflict("%s is already a member; change the role with PATCH", m.email)
			}
			emails = append(emails, m.email)
		}
		us, err := s.usersByEmail(ctx, tx, emails)
		if err != nil {
			return err
		}
		rows := make([]account.Member, 0, len(ms))
		for _, m := range ms {
			rows = append(rows, account.Member{AccountID: acc.Account.ID, UserID: us[m.email].ID, Role: m.role, CreatedAt: s.now()})
			if err := s.emitMemberMail(ctx, tx, acc.Account, m.email, m.role, 0, a); err != nil {
				return err
			}
		}
		if err := tx.Members().Put(ctx, rows); err != nil {
			return err
		}
		out, err = pickMembers(ctx, tx, acc.Account.ID, emails)
		return err
	})
	return out, err
}

// ChangeRoles changes members' roles. Only an owner may set or change owner,
// and the last owner cannot be demoted. The affected people are told by
// e-mail when their role actually changes.
func (s *Service) ChangeRoles(ctx context.Context, a Actor, ref string, in []MemberInput) ([]account.Member, error) {
	ms, err := parseMembers(in)
	if err != nil {
		return nil, err
	}
	var out []account.Member
	err = s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.manageable(ctx, tx, a, ref)
		if err != nil {
			return err
		}
		byEmail, owners, err := membersByEmail(ctx, tx, acc.Account.ID)
		if err != nil {
			return err
		}
		var changed []account.Member
		emails := make([]string, 0, len(ms))
		for _, m := range ms {
			cur, ok := byEmail[m.email]
			if !ok {
				return core.NotFound("%s is not a member of the account", m.email)
			}
			emails = append(emails, m.email)
			if err := account.CheckChange(acc.Role, cur.Role, m.role, owners); err != nil {
				return err
			}
			if cur.Role == m.role {
				continue
			}
			if cur.Role == account.RoleOwner {
				owners--
			}
			if m.role == account.RoleOwner {
				owners++
			}
			old := cur.Role
			cur.Role = m.role
			byEmail[m.email] = cur
			changed = append(changed, cur)
			if err := s.emitMemberMail(ctx, tx, acc.Account, m.email, m.role, old, a); err != nil {
				return err
			}
		}
		if len(changed) > 0 {
			if err := tx.Members().Put(ctx, changed); err != nil {
				return err
			}
		}
		out, err = pickMembers(ctx, tx, acc.Account.ID, emails)
		return err
	})
	return out, err
}

// RemoveMembers removes members by e-mail. The last owner cannot be removed,
// and only an owner may remove an owner. Unknown e-mails are not found.
func (s *Service) RemoveMembers(ctx context.Context, a Actor, ref string, emails []string) ([]string, error) {
	norm, err := normalizeEmails("users", emails)
	if err != nil {
		return nil, err
	}
	if len(norm) == 0 {
		return nil, core.Invalid("users", "must name at least one user")
	}
	err = s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.manageable(ctx, tx, a, ref)
		if err != nil {
			return err
		}
		byEmail, owners, err := membersByEmail(ctx, tx, acc.Account.ID)
		if err != nil {
			return err
		}
		ids := make([]uuid.UUID, 0, len(norm))
		for _, e := range norm {
			cur, ok := byEmail[e]
			if !ok {
				return core.NotFound("%s is not a member of the account", e)
			}
			if err := account.CheckRemove(acc.Role, cur.Role, owners); err != nil {
				return err
			}
			if cur.Role == account.RoleOwner {
				owners--
			}
			ids = append(ids, cur.UserID)
		}
		return tx.Members().Delete(ctx, acc.Account.ID, ids)
	})
	if err != nil {
		return nil, err
	}
	return norm, nil
}

// membersByEmail returns an account's members by e-mail and its owner count.
func membersByEmail(ctx context.Context, tx ports.Tx, accountID uuid.UUID) (map[string]account.Member, int, error) {
	current, err := tx.Members().List(ctx, accountID)
	if err != nil {
		return nil, 0, err
	}
	byEmail := make(map[string]account.Member, len(current))
	for _, c := range current {
		byEmail[c.Email] = c
	}
	return byEmail, account.CountOwners(current), nil
}

func pickMembers(ctx context.Context, tx ports.Tx, accountID uuid.UUID, emails []string) ([]account.Member, error) {
	all, err := tx.Members().List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, e := range emails {
		want[e] = true
	}
	out := make([]account.Member, 0, len(emails))
	for _, m := range all {
		if want[m.Email] {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Email < out[j].Email })
	return out, nil
}

func (s *Service) emitMemberMail(ctx context.Context, tx ports.Tx, acc account.Account, email string, role, old account.Role, by Actor) error {
	p := outbox.MemberMail{EventID: s.d.IDs.New(), AccountID: acc.ID, AccountName: acc.Name, Email: email, Role: role.String(), Change: "added", By: by.Email}
	if old != 0 {
		p.Change = "role_changed"
		p.OldRole = old.String()
	}
	return s.emit(ctx, tx, outbox.KindMemberMail, p)
}

func normalizeEmails(field string, in []string) ([]string, error) {
	var errs core.Fields
	seen := map[string]bool{}
	out := make([]string, 0, len(in))
	for i, raw := range in {
		e, err := account.NormalizeEmail(raw)
		if err != nil {
			errs.AddErr(core.WithField(err, core.Index(field, i)))
			continue
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out, errs.Err()
}
