package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
)

type users struct{ *tx }

func (r users) Get(_ context.Context, id uuid.UUID) (accounts.User, error) {
	return lookup(r.tx, r.d.users, id, "user", same)
}

func (r users) GetBySubject(_ context.Context, subject string) (accounts.User, error) {
	return r.byKey(r.d.userBySubject, subject)
}

func (r users) GetByEmail(_ context.Context, email string) (accounts.User, error) {
	return r.byKey(r.d.userByEmail, strings.ToLower(email))
}

func (r users) byKey(ix map[string]uuid.UUID, key string) (accounts.User, error) {
	id, ok := ix[key]
	if !ok || key == "" {
		id = uuid.Nil
	}
	return lookup(r.tx, r.d.users, id, "user", same)
}

func (r users) ListByEmails(_ context.Context, emails []string) ([]accounts.User, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	seen := map[uuid.UUID]bool{}
	out := []accounts.User{}
	for _, e := range emails {
		if id, ok := r.d.userByEmail[strings.ToLower(e)]; ok && !seen[id] {
			seen[id] = true
			out = append(out, r.d.users[id])
		}
	}
	return out, nil
}

func (r users) Save(_ context.Context, u accounts.User) error {
	return r.atomic(func() error {
		u.Email = strings.ToLower(u.Email)
		if id, ok := r.d.userByEmail[u.Email]; ok && id != u.ID {
			return conflict("user e-mail %q is taken", u.Email)
		}
		if id, ok := r.d.userBySubject[u.Subject]; ok && u.Subject != "" && id != u.ID {
			return conflict("user subject %q is taken", u.Subject)
		}
		if old, ok := r.d.users[u.ID]; ok {
			del(r.tx, r.d.userByEmail, old.Email)
			del(r.tx, r.d.userBySubject, old.Subject)
		}
		put(r.tx, r.d.users, u.ID, u)
		put(r.tx, r.d.userByEmail, u.Email, u.ID)
		if u.Subject != "" {
			put(r.tx, r.d.userBySubject, u.Subject, u.ID)
		}
		return nil
	})
}

type accountsRepo struct{ *tx }

func (r accountsRepo) Create(_ context.Context, a accounts.Account) error {
	return r.atomic(func() error {
		if _, ok := r.d.accounts[a.ID]; ok {
			return conflict("account %s exists", a.ID)
		}
		key := strings.ToLower(a.Name)
		if !a.Personal {
			if _, ok := r.d.orgByName[key]; ok {
				return conflict("an account named %q exists", a.Name)
			}
			put(r.tx, r.d.orgByName, key, a.ID)
		}
		put(r.tx, r.d.accounts, a.ID, a)
		return nil
	})
}

func (r accountsRepo) Get(_ context.Context, id uuid.UUID) (accounts.Account, error) {
	return lookup(r.tx, r.d.accounts, id, "account", same)
}

func (r accountsRepo) Lock(ctx context.Context, id uuid.UUID) error {
	_, err := r.Get(ctx, id) // writers are serialized already
	return err
}

func (r accountsRepo) ListReviewing(context.Context) ([]accounts.Account, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []accounts.Account{}
	for _, a := range r.d.accounts {
		if a.Active && len(r.d.assessmentsByAccount.of(a.ID)) > 0 {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b accounts.Account) int { return slices.Compare(a.ID[:], b.ID[:]) })
	return out, nil
}

func (r accountsRepo) ListOrganizations(context.Context) ([]accounts.Account, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []accounts.Account{}
	for _, a := range r.d.accounts {
		if !a.Personal {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, byAccountName)
	return out, nil
}

func byAccountName(a, b accounts.Account) int {
	return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.Name, b.Name), slices.Compare(a.ID[:], b.ID[:]))
}

func (r accountsRepo) ListForUser(_ context.Context, userID uuid.UUID) ([]accounts.Membership, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []accounts.Membership{}
	for _, accID := range r.d.membersByUser.of(userID) {
		if a := r.d.accounts[accID]; !a.Personal {
			out = append(out, accounts.Membership{Account: a, Role: r.d.members[pair{accID, userID}].role})
		}
	}
	slices.SortFunc(out, func(x, y accounts.Membership) int { return byAccountName(x.Account, y.Account) })
	return out, nil
}

func (r accountsRepo) MembershipOf(_ context.Context, accountID, userID uuid.UUID) (accounts.Membership, error) {
	if err := r.readable(); err != nil {
		return accounts.Membership{}, err
	}
	a, ok := r.d.accounts[accountID]
	m, isMember := r.d.members[pair{accountID, userID}]
	if !ok || !isMember {
		return accounts.Membership{}, notFound("membership", userID)
	}
	return accounts.Membership{Account: a, Role: m.role}, nil
}

func (r accountsRepo) Delete(_ context.Context, id uuid.UUID) error {
	return r.atomic(func() error {
		a, ok := r.d.accounts[id]
		if !ok {
			return notFound("account", id)
		}
		for _, u := range r.d.membersByAccount.of(id) {
			r.deleteMember(id, u)
		}
		for _, l := range r.d.listsByAccount.of(id) {
			r.deleteList(l)
		}
		for _, v := range r.d.claimsByAccount.of(id) {
			del(r.tx, r.d.claims, pair{id, v})
			r.d.claimsByAccount.remove(r.tx, id, v)
		}
		// Lists took their assessments along; these are the strays whose
		// list is gone or belongs elsewhere.
		for _, as := range r.d.assessmentsByAccount.of(id) {
			r.deleteAssessment(as)
		}
		for _, doc := range r.d.documentsByAccount.of(id) {
			r.deleteDocument(doc)
		}
		if !a.Personal {
			del(r.tx, r.d.orgByName, strings.ToLower(a.Name))
		}
		del(r.tx, r.d.policies, id)
		r.deleteRecords(id)
		for eid, e := range r.d.endpoints {
			if e.AccountID == id {
				r.deleteEndpoint(eid)
			}
		}
		r.deleteContractsOf(id)
		for aid, at := range r.d.attestations {
			if at.AccountID == id {
				del(r.tx, r.d.attestations, aid)
			}
		}
		for kid, k := range r.d.calendarKeys {
			if k.AccountID == id {
				del(r.tx, r.d.calendarKeys, kid)
			}
		}
		del(r.tx, r.d.accounts, id)
		return nil
	})
}

type members struct{ *tx }

func (r members) member(accountID, userID uuid.UUID) (accounts.Member, bool) {
	row, ok := r.d.members[pair{accountID, userID}]
	if !ok {
		return accounts.Member{}, false
	}
	u := r.d.users[userID]
	return accounts.Member{AccountID: accountID, UserID: userID, Email: u.Email, Name: u.Name,
		Verified: u.EmailVerified, Role: row.role, CreatedAt: row.createdAt}, true
}

func (r members) Get(_ context.Context, accountID, userID uuid.UUID) (accounts.Member, error) {
	if err := r.readable(); err != nil {
		return accounts.Member{}, err
	}
	m, ok := r.member(accountID, userID)
	if !ok {
		return accounts.Member{}, notFound("member", userID)
	}
	return m, nil
}

func (r members) List(_ context.Context, accountID uuid.UUID) ([]accounts.Member, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []accounts.Member{}
	for _, u := range r.d.membersByAccount.of(accountID) {
		m, _ := r.member(accountID, u)
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b accounts.Member) int {
		return cmp.Or(cmp.Compare(a.Email, b.Email), slices.Compare(a.UserID[:], b.UserID[:]))
	})
	return out, nil
}

func (r members) Put(_ context.Context, ms []accounts.Member) error {
	return r.atomic(func() error {
		for _, m := range ms {
			if err := requireRow(r.d.accounts, m.AccountID, "account"); err != nil {
				return err
			}
			if err := requireRow(r.d.users, m.UserID, "user"); err != nil {
				return err
			}
			k := pair{m.AccountID, m.UserID}
			row := memberRow{role: m.Role, createdAt: m.CreatedAt}
			if old, ok := r.d.members[k]; ok {
				row.createdAt = old.createdAt // an update changes the role only
			}
			put(r.tx, r.d.members, k, row)
			r.d.membersByAccount.add(r.tx, m.AccountID, m.UserID)
			r.d.membersByUser.add(r.tx, m.UserID, m.AccountID)
		}
		return nil
	})
}

func (r members) Delete(_ context.Context, accountID uuid.UUID, userIDs []uuid.UUID) error {
	return r.atomic(func() error {
		for _, u := range userIDs {
			r.deleteMember(accountID, u)
		}
		return nil
	})
}

func (t *tx) deleteMember(accountID, userID uuid.UUID) {
	if del(t, t.d.members, pair{accountID, userID}) {
		t.d.membersByAccount.remove(t, accountID, userID)
		t.d.membersByUser.remove(t, userID, accountID)
	}
}
