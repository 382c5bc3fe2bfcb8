// Package service holds Vetted's use cases: what the API and the worker call.
// Each write runs in one unit of work (ports.Store.InTx); side effects that
// leave the process are written to the outbox in the same unit and delivered
// afterwards by the relay and the job handlers in dispatch.go.
//
// Access rules live here, in one place: platform admins (the Admins group)
// create and delete accounts and edit the global vendor directory; on routes
// that take an account, viewer reads and member or above writes; the
// personal space ("individual") is owned by its user alone. A caller who is
// not a member of an account gets ErrForbidden whether or not it exists, so
// account ids cannot be probed; records that exist only in another account
// are ErrNotFound.
package service

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/account"
	"github.com/vetted-dev/vetted/core/memo"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/signing"
	"github.com/vetted-dev/vetted/core/vendorlist"
	"github.com/vetted-dev/vetted/ports"
)

// Deps are the ports the use cases need. All are required except Notify.
type Deps struct {
	Store     ports.Store
	Clock     ports.Clock
	IDs       ports.IDs
	Blobs     ports.BlobStore
	Mailer    ports.Mailer
	Enricher  ports.Enricher
	Incidents ports.IncidentSource
	Signer    *signing.Signer
	// PublicURL is the base URL for links in mail (no trailing slash).
	PublicURL string
	// Logger receives operational messages; nil means slog.Default().
	Logger *slog.Logger
	// Notify, when set, is called after a unit of work that wrote to the
	// outbox commits, to wake the relay.
	Notify func()
	// Changes, when set, carries the vendors each unit of work wrote to the
	// other processes that share the store; their subscribers call
	// ForgetVendors. Nil: other processes see a change within
	// DirectoryMaxAge.
	Changes ports.ChangeFeed
}

// Service implements the use cases.
type Service struct {
	d   Deps
	log *slog.Logger
	ids *memo.Map[string, knownIdentity] // users by token subject, see IdentityTTL
	dir *viewCache                       // vendor views, see DirectoryTTL
}

// New checks the dependencies and returns the service.
func New(d Deps) (*Service, error) {
	var missing []string
	if d.Store == nil {
		missing = append(missing, "Store")
	}
	if d.Clock == nil {
		missing = append(missing, "Clock")
	}
	if d.IDs == nil {
		missing = append(missing, "IDs")
	}
	if d.Blobs == nil {
		missing = append(missing, "Blobs")
	}
	if d.Mailer == nil {
		missing = append(missing, "Mailer")
	}
	if d.Enricher == nil {
		missing = append(missing, "Enricher")
	}
	if d.Incidents == nil {
		missing = append(missing, "Incidents")
	}
	if d.Signer == nil {
		missing = append(missing, "Signer")
	}
	if len(missing) > 0 {
		return nil, errors.New("service: missing dependencies: " + strings.Join(missing, ", "))
	}
	d.PublicURL = strings.TrimRight(d.PublicURL, "/")
	log := d.Logger
	if log == nil {
		log = slog.Default()
	}
	dir := newDirectory()
	d.Store = watchedStore{Store: d.Store, dir: dir, feed: d.Changes, onErr: func(err error) {
		log.Warn("announce changed vendors (other processes see them within the directory's max age)", "err", err)
	}}
	return &Service{d: d, log: log, dir: dir, ids: &memo.Map[string, knownIdentity]{Max: maxIdentities}}, nil
}

// ForgetVendors drops the vendor views remembered of the vendors c names (or
// all of them), so that the next read of each goes to the store. A change
// feed's subscriber calls it for every notice, and with All after it lost
// and regained its connection.
func (s *Service) ForgetVendors(c ports.Changed) { s.dir.evict(c) }

// Ready reports whether the store answers.
func (s *Service) Ready(ctx context.Context) error { return s.d.Store.Ping(ctx) }

func (s *Service) now() time.Time { return s.d.Clock.Now().UTC() }

// write runs fn in a unit of work and wakes the relay afterwards.
func (s *Service) write(ctx context.Context, fn func(ctx context.Context, tx ports.Tx) error) error {
	if err := s.d.Store.InTx(ctx, fn); err != nil {
		return err
	}
	if s.d.Notify != nil {
		s.d.Notify()
	}
	return nil
}

func (s *Service) emit(ctx context.Context, tx ports.Tx, kind outbox.Kind, payload any) error {
	return tx.Outbox().Add(ctx, outbox.New(s.d.IDs.New(), kind, payload, s.now()))
}

// Actor is the authenticated caller as the use cases see it.
type Actor struct {
	UserID        uuid.UUID
	Email         string
	Name          string
	Verified      bool
	PlatformAdmin bool
}

// Identify provisions the caller's user on first sight of a token (linking a
// member added earlier by e-mail) and keeps e-mail, name and verification in
// step with the token. It writes only when something changed.
func (s *Service) Identify(ctx context.Context, id ports.Identity) (Actor, error) {
	now := s.now()
	// The claims of a token seen within IdentityTTL: checked and found in
	// step with the user then, so nothing to parse or compare again.
	if k, ok := s.ids.Get(id.Subject, now); ok && k.email == id.Email && k.name == id.Name && k.verified == id.EmailVerified {
		return actorOf(k.user, id), nil
	}
	if strings.TrimSpace(id.Subject) == "" {
		return Actor{}, core.Unauthenticated("token has no subject")
	}
	email, err := account.NormalizeEmail(id.Email)
	if err != nil {
		return Actor{}, core.Unauthenticated("token has no valid email claim")
	}
	// A name claim that is not plain text (control characters) is ignored
	// rather than refusing the sign-in: the IdP vouches for the e-mail, not
	// for the name.
	name, err := core.PlainText("name", id.Name, account.MaxNameLen)
	if err != nil {
		name = ""
	}
	current := func(u account.User) bool {
		return u.Email == email && (u.Name == name || name == "") && (u.EmailVerified || !id.EmailVerified)
	}
	remember := func(u account.User) {
		s.ids.Put(id.Subject, knownIdentity{user: u, email: id.Email, name: id.Name, verified: id.EmailVerified}, now.Add(IdentityTTL), now)
	}
	var u account.User
	err = s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
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
	err = s.d.Store.InTx(ctx, func(ctx context.Context, tx ports.Tx) error {
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
	user        account.User
	email, name string
	verified    bool
}

func actorOf(u account.User, id ports.Identity) Actor {
	return Actor{UserID: u.ID, Email: u.Email, Name: u.Name, Verified: u.EmailVerified, PlatformAdmin: id.IsPlatformAdmin()}
}

// newUser creates a user by e-mail with its personal space and master list.
func (s *Service) newUser(ctx context.Context, tx ports.Tx, email string) (account.User, error) {
	now := s.now()
	u := account.User{ID: s.d.IDs.New(), Email: email, CreatedAt: now}
	if err := tx.Users().Save(ctx, u); err != nil {
		return account.User{}, err
	}
	personal := account.NewPersonal(u.ID, now)
	if err := tx.Accounts().Create(ctx, personal); err != nil {
		return account.User{}, err
	}
	if err := tx.Members().Put(ctx, []account.Member{{AccountID: u.ID, UserID: u.ID, Role: account.RoleOwner, CreatedAt: now}}); err != nil {
		return account.User{}, err
	}
	if err := s.createMasterList(ctx, tx, u.ID); err != nil {
		return account.User{}, err
	}
	return u, nil
}

func (s *Service) createMasterList(ctx context.Context, tx ports.Tx, accountID uuid.UUID) error {
	l, err := vendorlist.New(s.d.IDs.New(), accountID, vendorlist.MasterList, s.now())
	if err != nil {
		return err
	}
	return tx.Lists().Create(ctx, l)
}

// usersByEmail returns the users for emails, creating the missing ones.
func (s *Service) usersByEmail(ctx context.Context, tx ports.Tx, emails []string) (map[string]account.User, error) {
	found, err := tx.Users().ListByEmails(ctx, emails)
	if err != nil {
		return nil, err
	}
	out := make(map[string]account.User, len(emails))
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

// Individual is the account-id of the caller's personal space.
const Individual = "individual"

// Access is a resolved account and the caller's role in it.
type Access struct {
	Account account.Account
	Role    account.Role
}

// access resolves an account-id for the actor and checks the minimum role.
func (s *Service) access(ctx context.Context, tx ports.Tx, a Actor, ref string, min account.Role) (Access, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return Access{}, core.Invalid("account-id", "is required")
	}
	var id uuid.UUID
	if ref == Individual {
		id = a.UserID
	} else {
		var err error
		id, err = uuid.Parse(ref)
		if err != nil {
			return Access{}, core.Invalid("account-id", "must be an account UUID or %q", Individual)
		}
	}
	m, err := tx.Accounts().MembershipOf(ctx, id, a.UserID)
	if errors.Is(err, core.ErrNotFound) {
		return Access{}, core.Forbidden("you are not a member of account %s", ref)
	}
	if err != nil {
		return Access{}, err
	}
	acc := m.Account
	if acc.Personal && ref != Individual {
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

// ErrPlatformAdminOnly refuses a platform-admin action to anyone else.
var ErrPlatformAdminOnly = core.Forbidden("this action is limited to platform admins (the %s group)", ports.PlatformAdminGroup)

func requirePlatformAdmin(a Actor) error {
	if !a.PlatformAdmin {
		return ErrPlatformAdminOnly
	}
	return nil
}

// parseID parses a UUID field.
func parseID(field, raw string) (uuid.UUID, error) {
	id, err := uuid.Parse(strings.TrimSpace(raw))
	if err != nil {
		return uuid.Nil, core.Invalid(field, "must be a UUID")
	}
	return id, nil
}
