package accounts

import (
	"context"
	"errors"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/ttlcache"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/ports"
)

// Deps are the ports the account use cases need.
type Deps struct {
	uow.Unit[Tx]
	// Mail sends the member mails.
	Mail mailonce.Mail[Tx]
	// PublicURL is the base URL for links in mail (no trailing slash).
	PublicURL string
	// Log takes the audit records (restoreowner.go); nil is slog.Default().
	Log *slog.Logger
	// Opened gives a new account, in the unit of work that creates it, what
	// every account starts with: its master list (core/lists, wired by
	// core/usecases). Required.
	Opened func(ctx context.Context, tx Tx, accountID uuid.UUID, now time.Time) error
	// Files returns the blob keys of the evidence files an account holds
	// (core/assessments), deleted with the account. Required.
	Files func(ctx context.Context, tx Tx, accountID uuid.UUID) ([]string, error)
}

func (s *Service) log() *slog.Logger {
	if s.d.Log == nil {
		return slog.Default()
	}
	return s.d.Log
}

// Service implements the account use cases.
type Service struct {
	d   Deps
	ids *ttlcache.Map[string, knownIdentity] // users by token subject, see IdentityTTL
}

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	missing := d.Missing()
	if d.Mail.Mailer == nil {
		missing = append(missing, "Mailer")
	}
	if d.Opened == nil {
		missing = append(missing, "Opened")
	}
	if d.Files == nil {
		missing = append(missing, "Files")
	}
	if len(missing) > 0 {
		return nil, errors.New("accounts: missing dependencies: " + strings.Join(missing, ", "))
	}
	return &Service{d: d, ids: &ttlcache.Map[string, knownIdentity]{Max: maxIdentities}}, nil
}

// IdentityTTL is how long a signed-in user is remembered by token subject,
// so that a caller's requests after the first skip the store on sign-in.
// Nothing but Identify changes a user's e-mail, name or verification, and
// users are never deleted, so a remembered user is only ever older than the
// token's claims, which Identify compares before it trusts the memory.
const IdentityTTL = time.Minute

// maxIdentities bounds the memory of signed-in users (ttlcache.Map.Max).
const maxIdentities = 100_000

// Identify provisions the caller's user on first sight of a token (linking a
// member added earlier by e-mail) and keeps e-mail, name and verification in
// step with the token. It writes only when something changed.
func (s *Service) Identify(ctx context.Context, id ports.Identity) (Actor, error) {
	now := s.d.Now()
	// The claims of a token seen within IdentityTTL: checked and found in
	// step with the user then, so nothing to parse or compare again.
	if k, ok := s.ids.Get(id.Subject, now); ok && k.email == id.Email && k.name == id.Name && k.verified == id.EmailVerified {
		return actorOf(k.user, id), nil
	}
	if strings.TrimSpace(id.Subject) == "" {
		return Actor{}, core.Unauthenticated("token has no subject")
	}
	email, err := IdentityEmail(id.Email)
	if err != nil {
		return Actor{}, core.Unauthenticated("token has no valid email claim")
	}
	// A name claim that is not plain text (control characters) is ignored
	// rather than refusing the sign-in: the IdP vouches for the e-mail, not
	// for the name.
	name, err := core.PlainText("Identity.Name", id.Name, MaxNameLen)
	if err != nil {
		name = ""
	}
	current := func(u User) bool {
		return u.Email == email && (u.Name == name || name == "") && (u.EmailVerified || !id.EmailVerified)
	}
	remember := func(u User) {
		s.ids.Put(id.Subject, knownIdentity{user: u, email: id.Email, name: id.Name, verified: id.EmailVerified}, now.Add(IdentityTTL), now)
	}
	var u User
	err = s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		u, err = tx.Users().GetBySubject(ctx, id.Subject)
		return err
	})
	if err == nil && current(u) {
		remember(u)
		return actorOf(u, id), nil
	}
	if err != nil && !errors.Is(err, core.ErrNotFound) {
		return Actor{}, err
	}
	err = s.d.Store.InTx(ctx, func(ctx context.Context, tx Tx) error {
		u, err = tx.Users().GetBySubject(ctx, id.Subject)
		if errors.Is(err, core.ErrNotFound) {
			u, err = tx.Users().GetByEmail(ctx, email)
			if err == nil && u.Subject != "" && u.Subject != id.Subject {
				// The token is genuine but may not act as that user: its
				// provider account is not the one the e-mail signed in with.
				return core.Forbidden("the e-mail %s of this token belongs to another sign-in (another token subject); "+
					"sign in with the account that first used it", email)
			}
			if errors.Is(err, core.ErrNotFound) {
				u, err = s.newUser(ctx, tx, email)
			}
		}
		if err != nil {
			return err
		}
		u.Subject = id.Subject
		u.Email = email
		if name != "" {
			u.Name = name
		}
		// Once verified, an e-mail stays verified for this user.
		u.EmailVerified = u.EmailVerified || id.EmailVerified
		return tx.Users().Save(ctx, u)
	})
	if err != nil {
		return Actor{}, err
	}
	remember(u)
	return actorOf(u, id), nil
}

// knownIdentity is a user as a token's claims left it, with those claims.
type knownIdentity struct {
	user        User
	email, name string
	verified    bool
}

func actorOf(u User, id ports.Identity) Actor {
	return Actor{UserID: u.ID, Email: u.Email, Name: u.Name, Verified: u.EmailVerified, PlatformAdmin: id.IsPlatformAdmin()}
}

// newUser creates a user by e-mail with its personal space and master list.
func (s *Service) newUser(ctx context.Context, tx Tx, email string) (User, error) {
	now := s.d.Now()
	u := User{ID: s.d.IDs.New(), Email: email, CreatedAt: now}
	if err := tx.Users().Save(ctx, u); err != nil {
		return User{}, err
	}
	personal := NewPersonal(u.ID, now)
	if err := tx.Accounts().Create(ctx, personal); err != nil {
		return User{}, err
	}
	if err := tx.Members().Put(ctx, []Member{{AccountID: u.ID, UserID: u.ID, Role: RoleOwner, CreatedAt: now}}); err != nil {
		return User{}, err
	}
	if err := s.d.Opened(ctx, tx, u.ID, s.d.Now()); err != nil {
		return User{}, err
	}
	return u, nil
}

// usersByEmail returns the users for emails, creating the missing ones.
func (s *Service) usersByEmail(ctx context.Context, tx Tx, emails []string) (map[string]User, error) {
	found, err := tx.Users().ListByEmails(ctx, emails)
	if err != nil {
		return nil, err
	}
	out := make(map[string]User, len(emails))
	for _, u := range found {
		out[u.Email] = u
	}
	for _, e := range emails {
		if _, ok := out[e]; ok {
			continue
		}
		u, err := s.newUser(ctx, tx, e)
		if err != nil {
			return nil, err
		}
		out[e] = u
	}
	return out, nil
}

// AccountView is an account with its members.
type AccountView struct {
	Account Account
	Members []Member
}

// CreateAccount creates an organization (platform admins only): the first
// user becomes owner, the others admin; master-list is created with it and
// every member is told by e-mail.
func (s *Service) CreateAccount(ctx context.Context, a Actor, name string, users []string) (AccountView, error) {
	if err := RequirePlatformAdmin(a); err != nil {
		return AccountView{}, err
	}
	emails, err := NormalizeEmails("Users", users)
	if err != nil {
		return AccountView{}, err
	}
	if len(emails) == 0 {
		return AccountView{}, core.Invalid("Users", "must name at least one user, who becomes the owner")
	}
	acc, err := NewAccount(s.d.IDs.New(), name, s.d.Now())
	if err != nil {
		return AccountView{}, err
	}
	var view AccountView
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.Accounts().Create(ctx, acc); err != nil {
			return err
		}
		if err := s.d.Opened(ctx, tx, acc.ID, s.d.Now()); err != nil {
			return err
		}
		us, err := s.usersByEmail(ctx, tx, emails)
		if err != nil {
			return err
		}
		ms := make([]Member, 0, len(emails))
		for i, e := range emails {
			role := RoleAdmin
			if i == 0 {
				role = RoleOwner
			}
			ms = append(ms, Member{AccountID: acc.ID, UserID: us[e].ID, Role: role, CreatedAt: s.d.Now()})
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
func (s *Service) ListAccounts(ctx context.Context, a Actor) ([]Account, error) {
	var out []Account
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
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
// Repeated ids count once; the deleted ids are returned in order.
func (s *Service) DeleteAccounts(ctx context.Context, a Actor, ids []uuid.UUID) ([]uuid.UUID, error) {
	if err := RequirePlatformAdmin(a); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, core.Invalid("AccountIDs", "account_id or account_ids is required")
	}
	unique := make([]uuid.UUID, 0, len(ids))
	seen := map[uuid.UUID]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			unique = append(unique, id)
		}
	}
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		var keys []string
		for _, id := range unique {
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
			files, err := s.d.Files(ctx, tx, id)
			if err != nil {
				return err
			}
			keys = append(keys, files...)
			if err := tx.Accounts().Delete(ctx, id); err != nil {
				return err
			}
		}
		if len(keys) > 0 {
			return s.d.Emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: keys})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return unique, nil
}

// MyAccounts returns the caller's organizations with the caller's role.
func (s *Service) MyAccounts(ctx context.Context, a Actor) ([]Membership, error) {
	var out []Membership
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		out, err = tx.Accounts().ListForUser(ctx, a.UserID)
		return err
	})
	return out, err
}

// Members lists an account's members (viewer or above).
func (s *Service) Members(ctx context.Context, a Actor, ref AccountRef) ([]Member, error) {
	var out []Member
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := Authorize(ctx, tx, a, ref, ReadRole)
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
	role  Role
}

func parseMembers(in []MemberInput) ([]parsedMember, error) {
	if len(in) == 0 {
		return nil, core.Invalid("Users", "must name at least one user")
	}
	var errs core.Fields
	seen := map[string]bool{}
	out := make([]parsedMember, 0, len(in))
	for i, m := range in {
		e, err := NormalizeEmail(m.Email)
		if err != nil {
			errs.AddErr(core.Nest(err, core.Index("Users", i)))
			continue
		}
		r, err := ParseRole(m.Role)
		if err != nil {
			errs.AddErr(core.Nest(err, core.Index("Users", i)))
			continue
		}
		if seen[e] {
			errs.Add(core.Index("Users", i)+".Email", "%s appears twice", e)
			continue
		}
		seen[e] = true
		out = append(out, parsedMember{email: e, role: r})
	}
	return out, errs.Err()
}

// manageable resolves an organization account whose members the actor may
// manage, locks it for the rest of the unit of work and reads its roster.
func (s *Service) manageable(ctx context.Context, tx Tx, a Actor, ref AccountRef) (Access, *Roster, error) {
	acc, err := Authorize(ctx, tx, a, ref, ReadRole)
	if err != nil {
		return Access{}, nil, err
	}
	if acc.Account.Personal {
		return Access{}, nil, core.Invalid("AccountRef", "a personal space has no other members")
	}
	if !acc.Role.AtLeast(ManageRole) {
		return Access{}, nil, core.Forbidden("only an owner or admin may manage members; you are %s", acc.Role)
	}
	if err := tx.Accounts().Lock(ctx, acc.Account.ID); err != nil {
		return Access{}, nil, err
	}
	r, err := loadRoster(ctx, tx, acc.Account.ID, acc.Role)
	return acc, r, err
}

// AddMembers adds members by e-mail (owner or admin; only an owner may add an
// owner). An e-mail that is already a member is a conflict. Each new member
// is told by e-mail.
func (s *Service) AddMembers(ctx context.Context, a Actor, ref AccountRef, in []MemberInput) ([]Member, error) {
	return s.editMembers(ctx, a, ref, in, func(ctx context.Context, tx Tx, acc Access, roster *Roster, ms []parsedMember) ([]string, error) {
		for _, m := range ms {
			if err := roster.Assign(m.role); err != nil {
				return nil, err
			}
		}
		emails := make([]string, 0, len(ms))
		for _, m := range ms {
			if roster.Has(m.email) {
				return nil, core.Conflict("%s is already a member; change the role with PATCH", m.email)
			}
			emails = append(emails, m.email)
		}
		us, err := s.usersByEmail(ctx, tx, emails)
		if err != nil {
			return nil, err
		}
		rows := make([]Member, 0, len(ms))
		for _, m := range ms {
			rows = append(rows, Member{AccountID: acc.Account.ID, UserID: us[m.email].ID, Role: m.role, CreatedAt: s.d.Now()})
			if err := s.emitMemberMail(ctx, tx, acc.Account, m.email, m.role, 0, a); err != nil {
				return nil, err
			}
		}
		return emails, tx.Members().Put(ctx, rows)
	})
}

// ChangeRoles changes members' roles (see Roster.ChangeRole). The affected
// people are told by e-mail when their role actually changes.
func (s *Service) ChangeRoles(ctx context.Context, a Actor, ref AccountRef, in []MemberInput) ([]Member, error) {
	return s.editMembers(ctx, a, ref, in, func(ctx context.Context, tx Tx, acc Access, roster *Roster, ms []parsedMember) ([]string, error) {
		var changed []Member
		emails := make([]string, 0, len(ms))
		for _, m := range ms {
			emails = append(emails, m.email)
			cur, old, did, err := roster.ChangeRole(m.email, m.role)
			if err != nil {
				return nil, err
			}
			if !did {
				continue
			}
			changed = append(changed, cur)
			if err := s.emitMemberMail(ctx, tx, acc.Account, m.email, m.role, old, a); err != nil {
				return nil, err
			}
		}
		if len(changed) > 0 {
			if err := tx.Members().Put(ctx, changed); err != nil {
				return nil, err
			}
		}
		return emails, nil
	})
}

// editMembers is the frame of AddMembers and ChangeRoles: it parses the
// members a request names, runs edit in one unit of work under the lock of
// an account the actor manages (manageable), and answers the members of the
// e-mails edit returns, as stored.
func (s *Service) editMembers(ctx context.Context, a Actor, ref AccountRef, in []MemberInput,
	edit func(ctx context.Context, tx Tx, acc Access, roster *Roster, ms []parsedMember) ([]string, error)) ([]Member, error) {
	ms, err := parseMembers(in)
	if err != nil {
		return nil, err
	}
	var out []Member
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, roster, err := s.manageable(ctx, tx, a, ref)
		if err != nil {
			return err
		}
		emails, err := edit(ctx, tx, acc, roster, ms)
		if err != nil {
			return err
		}
		out, err = pickMembers(ctx, tx, acc.Account.ID, emails)
		return err
	})
	return out, err
}

// RemoveMembers removes members by e-mail (see Roster.Remove). Unknown
// e-mails are not found.
func (s *Service) RemoveMembers(ctx context.Context, a Actor, ref AccountRef, emails []string) ([]string, error) {
	norm, err := NormalizeEmails("Users", emails)
	if err != nil {
		return nil, err
	}
	if len(norm) == 0 {
		return nil, core.Invalid("Users", "must name at least one user")
	}
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, roster, err := s.manageable(ctx, tx, a, ref)
		if err != nil {
			return err
		}
		ids := make([]uuid.UUID, 0, len(norm))
		for _, e := range norm {
			m, err := roster.Remove(e)
			if err != nil {
				return err
			}
			ids = append(ids, m.UserID)
		}
		return tx.Members().Delete(ctx, acc.Account.ID, ids)
	})
	if err != nil {
		return nil, err
	}
	return norm, nil
}

func pickMembers(ctx context.Context, tx Tx, accountID uuid.UUID, emails []string) ([]Member, error) {
	all, err := tx.Members().List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, e := range emails {
		want[e] = true
	}
	out := make([]Member, 0, len(emails))
	for _, m := range all {
		if want[m.Email] {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Email < out[j].Email })
	return out, nil
}

func (s *Service) emitMemberMail(ctx context.Context, tx Tx, acc Account, email string, role, old Role, by Actor) error {
	p := outbox.MemberMail{EventID: s.d.IDs.New(), AccountID: acc.ID, AccountName: acc.Name, Email: email, Role: role.String(), Change: "added", By: by.Email}
	if old != 0 {
		p.Change = "role_changed"
		p.OldRole = old.String()
	}
	return s.d.Emit(ctx, tx, outbox.KindMemberMail, p)
}

// SendMemberMail delivers the mail of a member change (the KindMemberMail job).
func (s *Service) SendMemberMail(ctx context.Context, p outbox.MemberMail) error {
	m := mailtmpl.MemberMail(p.Email, "member:"+p.EventID.String(), mailtmpl.MemberData{AccountName: p.AccountName, Role: p.Role,
		OldRole: p.OldRole, Change: p.Change, By: p.By, AppURL: s.d.PublicURL + "/docs"})
	return s.d.Mail.Once(ctx, m)
}

// Ready reports whether the store answers.
func (s *Service) Ready(ctx context.Context) error { return s.d.Store.Ping(ctx) }
