package accounts

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Role is an organization role. Roles are ordered: viewer < member < admin < owner.
type Role int

// The organization roles, lowest first.
const (
	RoleViewer Role = iota + 1
	RoleMember
	RoleAdmin
	RoleOwner
)

var roleNames = map[Role]string{RoleViewer: "viewer", RoleMember: "member", RoleAdmin: "admin", RoleOwner: "owner"}

// RoleValues lists the role names in the order the API documents them.
func RoleValues() []string { return []string{"owner", "admin", "member", "viewer"} }

// ParseRole parses a role name; the empty string is the default role, member.
func ParseRole(s string) (Role, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return RoleMember, nil
	}
	for r, n := range roleNames {
		if n == s {
			return r, nil
		}
	}
	return 0, core.Invalid("Role", "must be one of %s", strings.Join(RoleValues(), ", "))
}

// String returns the role's wire name.
func (r Role) String() string { return roleNames[r] }

// AtLeast reports whether r is min or higher.
func (r Role) AtLeast(min Role) bool { return r >= min }

// Valid reports whether r is one of the four roles.
func (r Role) Valid() bool { _, ok := roleNames[r]; return ok }

// ReadRole and WriteRole are the minimum roles for reads and writes on
// account-scoped routes; ManageRole is the minimum to manage members.
const (
	ReadRole   = RoleViewer
	WriteRole  = RoleMember
	ManageRole = RoleAdmin
)

// Account is an organization, or a user's personal space (Personal, whose id
// equals the user's id and which the API addresses as "individual").
type Account struct {
	ID        uuid.UUID
	Name      string
	Active    bool
	Personal  bool
	CreatedAt time.Time
}

// MaxNameLen bounds account and person names.
const MaxNameLen = 200

// NewAccount validates and builds an organization account.
func NewAccount(id uuid.UUID, name string, now time.Time) (Account, error) {
	n, err := cleanName("Account.Name", name)
	if err != nil {
		return Account{}, err
	}
	if n == "" {
		return Account{}, core.Invalid("Account.Name", "must not be empty")
	}
	return Account{ID: id, Name: n, Active: true, CreatedAt: now.UTC()}, nil
}

// AccountFromStore rebuilds an account a store read. Its name is not
// validated again (it was when the account was made, and a row written
// under older rules must still read), but its time is normalised to UTC as
// NewAccount's is.
func AccountFromStore(id uuid.UUID, name string, active, personal bool, createdAt time.Time) Account {
	return Account{ID: id, Name: name, Active: active, Personal: personal, CreatedAt: createdAt.UTC()}
}

// NewPersonal builds the personal space of a user.
func NewPersonal(userID uuid.UUID, now time.Time) Account {
	return Account{ID: userID, Name: "individual", Active: true, Personal: true, CreatedAt: now.UTC()}
}

func cleanName(field, s string) (string, error) {
	return core.PlainText(field, s, MaxNameLen)
}

// User is a person known to the service, provisioned on first sight of a token
// or when added as a member by e-mail (then Subject is empty until sign-in).
type User struct {
	ID            uuid.UUID
	Subject       string
	Email         string
	Name          string
	EmailVerified bool
	CreatedAt     time.Time
}

// Member is a user's role in one account.
type Member struct {
	AccountID uuid.UUID
	UserID    uuid.UUID
	Email     string
	Name      string
	Verified  bool
	Role      Role
	CreatedAt time.Time
}

// Staff returns the e-mails of the admins and owners among ms, in order:
// who is told what concerns the running of an account (review reminders,
// a webhook endpoint disabled).
func Staff(ms []Member) []string {
	var out []string
	for _, m := range ms {
		if m.Role.AtLeast(RoleAdmin) {
			out = append(out, m.Email)
		}
	}
	return out
}

// Membership is an account seen from one user, with that user's role.
type Membership struct {
	Account Account
	Role    Role
}
