package api

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
)

// AccountJSON is an organization.
type AccountJSON struct {
	ID        string    `json:"id" format:"uuid"`
	Name      string    `json:"name"`
	Active    bool      `json:"active"`
	CreatedAt time.Time `json:"created_at"`
}

// AccountRoleJSON is an organization with the caller's role.
type AccountRoleJSON struct {
	ID     string `json:"id" format:"uuid"`
	Name   string `json:"name"`
	Active bool   `json:"active"`
	Role   Role   `json:"role"`
}

// MemberJSON is a member of an organization.
type MemberJSON struct {
	ID            string    `json:"id" format:"uuid"`
	Email         string    `json:"email" format:"email"`
	Name          string    `json:"name"`
	Role          Role      `json:"role"`
	EmailVerified bool      `json:"email_verified"`
	CreatedAt     time.Time `json:"created_at"`
}

func accountJSON(a accounts.Account) AccountJSON {
	return AccountJSON{ID: a.ID.String(), Name: a.Name, Active: a.Active, CreatedAt: a.CreatedAt}
}

func memberJSON(m accounts.Member) MemberJSON {
	return MemberJSON{ID: m.UserID.String(), Email: m.Email, Name: m.Name, Role: Role(m.Role.String()), EmailVerified: m.Verified, CreatedAt: m.CreatedAt}
}

func membersJSON(ms []accounts.Member) []MemberJSON {
	out := make([]MemberJSON, 0, len(ms))
	for _, m := range ms {
		out = append(out, memberJSON(m))
	}
	return out
}

type createAccountIn struct {
	Body struct {
		Account string   `json:"account" minLength:"1" maxLength:"200" doc:"Account (organization) name"`
		Users   []string `json:"users" minItems:"1" maxItems:"100" doc:"E-mails; the first becomes owner, the others admin"`
	}
}

type createAccountOut struct {
	Body struct {
		AccountJSON
		Members []MemberJSON `json:"members"`
	}
}

type accountsOut struct {
	Body struct {
		Accounts []AccountJSON `json:"accounts"`
	}
}

type deleteAccountsIn struct {
	AccountID  string   `query:"account_id" doc:"One account to delete"`
	AccountIDs []string `query:"account_ids" explode:"false" doc:"Several accounts (comma-separated)"`
	Body       *struct {
		AccountID  string   `json:"account_id,omitempty"`
		AccountIDs []string `json:"account_ids,omitempty"`
	} `required:"false"`
}

type deleteAccountsOut struct {
	Body struct {
		Deleted []string `json:"deleted"`
	}
}

type restoreOwnerIn struct {
	AccountParam
	Body struct {
		Email  string `json:"email" maxLength:"254" doc:"Who becomes an owner: a member, whose role is raised, or anyone else, who is added"`
		Reason string `json:"reason" maxLength:"500" doc:"Why the account needs an owner (required; kept in the audit record)"`
	}
}

type restoreOwnerOut struct {
	Body struct {
		Member       MemberJSON `json:"member" doc:"The new owner, as stored"`
		PreviousRole string     `json:"previous_role" doc:"The role they had; empty when they were not a member"`
		OwnersBefore int        `json:"owners_before" doc:"How many owners the account had before"`
	}
}

func collect(one string, many []string) []string {
	var out []string
	if one != "" {
		out = append(out, one)
	}
	for _, m := range many {
		if m != "" {
			out = append(out, m)
		}
	}
	return out
}

type usersIn struct {
	AccountID string `query:"account-id" doc:"Organization UUID; without it, the caller's organizations are listed"`
}

type usersOut struct {
	Body struct {
		Accounts *[]AccountRoleJSON `json:"accounts,omitempty" doc:"Without account-id: the caller's organizations and role"`
		Members  *[]MemberJSON      `json:"members,omitempty" doc:"With account-id: the organization's members"`
	}
}

// UserRoleJSON names a member and a role in a request. Like the original
// service, a plain e-mail string is accepted too (role member).
type UserRoleJSON struct {
	Email string `json:"email"`
	Role  Role   `json:"role,omitempty"`
}

// UnmarshalJSON accepts an object or a plain e-mail string.
func (u *UserRoleJSON) UnmarshalJSON(b []byte) error {
	var email string
	if err := json.Unmarshal(b, &email); err == nil {
		*u = UserRoleJSON{Email: email}
		return nil
	}
	type plain UserRoleJSON
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*u = UserRoleJSON(p)
	return nil
}

// Schema documents the object-or-string form.
func (UserRoleJSON) Schema(r huma.Registry) *huma.Schema {
	// Only the shape is declared: the service checks the addresses, so a
	// bad one is reported at its own location with a clear message.
	return &huma.Schema{OneOf: []*huma.Schema{
		{Type: huma.TypeObject, AdditionalProperties: false, Required: []string{"email"}, Properties: map[string]*huma.Schema{
			"email": {Type: huma.TypeString, Description: "E-mail address"},
			"role":  (Role("")).Schema(r),
		}, Description: "A member and a role (default member)"},
		{Type: huma.TypeString, Description: "An e-mail address (role member)"},
	}}
}

// Resolve names a role outside the allowed values at its own location
// (body.users[0].role). The schema refuses it too, but as a whole element
// matching neither of its two forms, which says neither where nor why;
// newProblem drops that vaguer failure when this one is present.
func (u *UserRoleJSON) Resolve(_ huma.Context, prefix *huma.PathBuffer) []error {
	if u.Role == "" || slices.Contains(accounts.RoleValues(), string(u.Role)) {
		return nil
	}
	return []error{&huma.ErrorDetail{Location: prefix.With("role"), Value: string(u.Role),
		Message: "must be one of " + strings.Join(accounts.RoleValues(), ", ")}}
}

type usersWriteIn struct {
	AccountParam
	Body struct {
		Users []UserRoleJSON `json:"users" minItems:"1" maxItems:"100"`
	}
}

type membersOut struct {
	Body struct {
		Members []MemberJSON `json:"members"`
	}
}

type usersDeleteIn struct {
	AccountParam
	Body struct {
		Users []UserRoleJSON `json:"users" minItems:"1" maxItems:"100" doc:"The members to remove, as {email} objects or e-mail strings; a role is ignored"`
	}
}

type usersDeleteOut struct {
	Body struct {
		Removed []string `json:"removed"`
	}
}

func memberInputs(us []UserRoleJSON) []accounts.MemberInput {
	out := make([]accounts.MemberInput, 0, len(us))
	for _, u := range us {
		out = append(out, accounts.MemberInput{Email: u.Email, Role: string(u.Role)})
	}
	return out
}

// accountsHandler answers the Accounts operations (organizations: creation,
// listing, deletion, owner restoration) with the accounts area of the core.
type accountsHandler struct{ *Server }

// createAccount answers create-account.
func (h accountsHandler) createAccount(ctx context.Context, in *createAccountIn) (*createAccountOut, error) {
	v, err := h.accounts.CreateAccount(ctx, actor(ctx), in.Body.Account, in.Body.Users)
	if err != nil {
		return nil, err
	}
	out := &createAccountOut{}
	out.Body.AccountJSON = accountJSON(v.Account)
	out.Body.Members = membersJSON(v.Members)
	return out, nil
}

// listAccounts answers list-accounts.
func (h accountsHandler) listAccounts(ctx context.Context, _ *struct{}) (*accountsOut, error) {
	as, err := h.accounts.ListAccounts(ctx, actor(ctx))
	if err != nil {
		return nil, err
	}
	out := &accountsOut{}
	out.Body.Accounts = make([]AccountJSON, 0, len(as))
	for _, a := range as {
		out.Body.Accounts = append(out.Body.Accounts, accountJSON(a))
	}
	return out, nil
}

// restoreOwner answers restore-account-owner.
func (h accountsHandler) restoreOwner(ctx context.Context, in *restoreOwnerIn) (*restoreOwnerOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	r, err := h.accounts.RestoreOwner(ctx, actor(ctx), acc, in.Body.Email, in.Body.Reason)
	if err != nil {
		return nil, err
	}
	out := &restoreOwnerOut{}
	out.Body.Member, out.Body.OwnersBefore = memberJSON(r.Member), r.OwnersBefore
	if r.Previous != 0 {
		out.Body.PreviousRole = r.Previous.String()
	}
	return out, nil
}

// deleteAccounts answers delete-accounts.
func (h accountsHandler) deleteAccounts(ctx context.Context, in *deleteAccountsIn) (*deleteAccountsOut, error) {
	ids := collect(in.AccountID, in.AccountIDs)
	if in.Body != nil {
		ids = append(ids, collect(in.Body.AccountID, in.Body.AccountIDs)...)
	}
	parsed := make([]uuid.UUID, 0, len(ids))
	for _, raw := range ids {
		id, err := accounts.ParseID("account_ids", raw)
		if err != nil {
			return nil, err
		}
		parsed = append(parsed, id)
	}
	deleted, err := h.accounts.DeleteAccounts(ctx, actor(ctx), parsed)
	if err != nil {
		return nil, err
	}
	out := &deleteAccountsOut{}
	out.Body.Deleted = make([]string, 0, len(deleted))
	for _, id := range deleted {
		out.Body.Deleted = append(out.Body.Deleted, id.String())
	}
	return out, nil
}

// membersHandler answers the Users operations: an organization's members
// and their roles, with the accounts area of the core.
type membersHandler struct{ *Server }

// listUsers answers list-users.
func (h membersHandler) listUsers(ctx context.Context, in *usersIn) (*usersOut, error) {
	out := &usersOut{}
	a := actor(ctx)
	if in.AccountID == "" {
		ms, err := h.accounts.MyAccounts(ctx, a)
		if err != nil {
			return nil, err
		}
		accs := make([]AccountRoleJSON, 0, len(ms))
		for _, m := range ms {
			accs = append(accs, AccountRoleJSON{ID: m.Account.ID.String(), Name: m.Account.Name, Active: m.Account.Active, Role: Role(m.Role.String())})
		}
		out.Body.Accounts = &accs
		return out, nil
	}
	acc, err := accounts.ParseAccountRef(in.AccountID)
	if err != nil {
		return nil, err
	}
	ms, err := h.accounts.Members(ctx, a, acc)
	if err != nil {
		return nil, err
	}
	members := membersJSON(ms)
	out.Body.Members = &members
	return out, nil
}

// addUsers answers add-users.
func (h membersHandler) addUsers(ctx context.Context, in *usersWriteIn) (*membersOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	ms, err := h.accounts.AddMembers(ctx, actor(ctx), acc, memberInputs(in.Body.Users))
	if err != nil {
		return nil, err
	}
	out := &membersOut{}
	out.Body.Members = membersJSON(ms)
	return out, nil
}

// changeRoles answers change-user-roles.
func (h membersHandler) changeRoles(ctx context.Context, in *usersWriteIn) (*membersOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	ms, err := h.accounts.ChangeRoles(ctx, actor(ctx), acc, memberInputs(in.Body.Users))
	if err != nil {
		return nil, err
	}
	out := &membersOut{}
	out.Body.Members = membersJSON(ms)
	return out, nil
}

// removeUsers answers remove-users.
func (h membersHandler) removeUsers(ctx context.Context, in *usersDeleteIn) (*usersDeleteOut, error) {
	emails := make([]string, 0, len(in.Body.Users))
	for _, u := range in.Body.Users {
		emails = append(emails, u.Email)
	}
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	removed, err := h.accounts.RemoveMembers(ctx, actor(ctx), acc, emails)
	if err != nil {
		return nil, err
	}
	out := &usersDeleteOut{}
	out.Body.Removed = removed
	return out, nil
}
