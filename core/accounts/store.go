package accounts

import (
	"context"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// Tx is what the accounts area reads and writes in one unit of work: its
// own repositories, the outbox and the mail delivery keys. What a new or
// deleted account means to other areas (its master list, its evidence
// files) reaches them through Deps.Opened and Deps.Files, wired by
// core/usecases, so this area imports none of them.
type Tx interface {
	Users() UserRepo
	Accounts() AccountRepo
	Members() MemberRepo
	outbox.Tx
	mailonce.Tx
}

// UserRepo stores users. Emails are stored lower-case and are unique.
type UserRepo interface {
	// Get returns a user by id, or core.ErrNotFound.
	Get(ctx context.Context, id uuid.UUID) (User, error)
	// GetBySubject returns the user with that token subject, or core.ErrNotFound.
	GetBySubject(ctx context.Context, subject string) (User, error)
	// GetByEmail returns the user with that e-mail, or core.ErrNotFound.
	GetByEmail(ctx context.Context, email string) (User, error)
	// ListByEmails returns the users among emails that exist (any order).
	ListByEmails(ctx context.Context, emails []string) ([]User, error)
	// Save inserts or updates a user by id; core.ErrConflict if another user
	// already has the e-mail or subject.
	Save(ctx context.Context, u User) error
}

// AccountRepo stores accounts (organizations and personal spaces).
type AccountRepo interface {
	// Create inserts an account; core.ErrConflict if an organization account
	// with the same name (case-insensitive) or the same id exists.
	Create(ctx context.Context, a Account) error
	// Get returns an account, or core.ErrNotFound.
	Get(ctx context.Context, id uuid.UUID) (Account, error)
	// Lock takes a write lock on the account row for the rest of the unit of
	// work (SELECT ... FOR UPDATE), so member changes serialise per account;
	// core.ErrNotFound if it does not exist.
	Lock(ctx context.Context, id uuid.UUID) error
	// ListOrganizations returns every non-personal account, by name.
	ListOrganizations(ctx context.Context) ([]Account, error)
	// ListReviewing returns every active account, personal spaces
	// included, that holds at least one assessment, by id: the accounts
	// the review reminder job walks.
	ListReviewing(ctx context.Context) ([]Account, error)
	// ListForUser returns the non-personal accounts the user is a member of,
	// with the user's role, by account name.
	ListForUser(ctx context.Context, userID uuid.UUID) ([]Membership, error)
	// MembershipOf returns an account, personal or not, with the user's
	// role in it, in one read (every account-scoped request asks it);
	// core.ErrNotFound if the account does not exist or the user is not a
	// member.
	MembershipOf(ctx context.Context, accountID, userID uuid.UUID) (Membership, error)
	// Delete removes an account and everything it owns: members, lists with
	// their entries and products, quota claims, assessments with their audit
	// events, documents and subscribers. core.ErrNotFound if absent.
	Delete(ctx context.Context, id uuid.UUID) error
}

// MemberRepo stores memberships. Reads join the user for e-mail and name.
type MemberRepo interface {
	// Get returns the membership of a user in an account, or core.ErrNotFound.
	Get(ctx context.Context, accountID, userID uuid.UUID) (Member, error)
	// List returns an account's members ordered by e-mail.
	List(ctx context.Context, accountID uuid.UUID) ([]Member, error)
	// Put inserts or updates memberships (account, user, role, created_at).
	Put(ctx context.Context, ms []Member) error
	// Delete removes the memberships of the given users; absent ones are ignored.
	Delete(ctx context.Context, accountID uuid.UUID, userIDs []uuid.UUID) error
}
