package porttest

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

func saveUser(f *fixture, u accounts.User) error {
	return f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Users().Save(ctx, u) })
}

func createAccount(f *fixture, a accounts.Account) error {
	return f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Create(ctx, a) })
}

var userCases = []testCase{
	{"Save then Get, GetBySubject and GetByEmail", func(t *testing.T, f *fixture) {
		u := f.user("ann@example.com")
		for _, c := range []struct {
			name string
			get  func(ctx context.Context, r accounts.UserRepo) (accounts.User, error)
		}{
			{"Get", func(ctx context.Context, r accounts.UserRepo) (accounts.User, error) { return r.Get(ctx, u.ID) }},
			{"GetBySubject", func(ctx context.Context, r accounts.UserRepo) (accounts.User, error) {
				return r.GetBySubject(ctx, u.Subject)
			}},
			{"GetByEmail", func(ctx context.Context, r accounts.UserRepo) (accounts.User, error) {
				return r.GetByEmail(ctx, u.Email)
			}},
		} {
			got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) { return c.get(ctx, tx.Users()) })
			equal(t, c.name+" id", got.ID, u.ID)
			equal(t, c.name+" subject", got.Subject, u.Subject)
			equal(t, c.name+" email", got.Email, u.Email)
			equal(t, c.name+" name", got.Name, u.Name)
			equal(t, c.name+" verified", got.EmailVerified, true)
			sameTime(t, c.name+" created_at", got.CreatedAt, u.CreatedAt)
		}
	}},
	{"Save stores the e-mail lower-case", func(t *testing.T, f *fixture) {
		u := f.newUser("Ann.Lee@Example.COM")
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Users().Save(ctx, u) })
		got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) {
			return tx.Users().GetByEmail(ctx, "ann.lee@example.com")
		})
		equal(t, "email", got.Email, "ann.lee@example.com")
	}},
	{"Save updates by id", func(t *testing.T, f *fixture) {
		u := f.user("ann@example.com")
		u.Name, u.Email, u.Subject = "Ann Lee", "ann.lee@example.com", "new-subject"
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Users().Save(ctx, u) })
		got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) { return tx.Users().Get(ctx, u.ID) })
		equal(t, "name", got.Name, "Ann Lee")
		got = load(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) {
			return tx.Users().GetByEmail(ctx, u.Email)
		})
		equal(t, "by new e-mail", got.ID, u.ID)
		got = load(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) {
			return tx.Users().GetBySubject(ctx, "new-subject")
		})
		equal(t, "by new subject", got.ID, u.ID)
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) {
			return tx.Users().GetByEmail(ctx, "ann@example.com")
		})
		wantErr(t, "old e-mail", err, core.ErrNotFound)
	}},
	{"Save refuses another user's e-mail or subject", func(t *testing.T, f *fixture) {
		ann := f.user("ann@example.com")
		sameEmail := f.newUser("bob@example.com")
		sameEmail.Email = ann.Email
		wantErr(t, "same e-mail", saveUser(f, sameEmail), core.ErrConflict)
		sameSubject := f.newUser("bob@example.com")
		sameSubject.Subject = ann.Subject
		wantErr(t, "same subject", saveUser(f, sameSubject), core.ErrConflict)
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.User, error) {
			return tx.Users().ListByEmails(ctx, []string{"bob@example.com"})
		})
		equal(t, "users saved despite conflict", len(got), 0)
	}},
	{"users without a subject yet do not collide", func(t *testing.T, f *fixture) {
		for _, e := range []string{"ann@example.com", "bob@example.com"} {
			u := f.newUser(e)
			u.Subject = ""
			if err := saveUser(f, u); err != nil {
				t.Fatalf("save %s without subject: %v", e, err)
			}
		}
	}},
	{"lookups of absent users are not found", func(t *testing.T, f *fixture) {
		f.user("ann@example.com")
		for _, c := range []struct {
			name string
			get  func(ctx context.Context, r accounts.UserRepo) (accounts.User, error)
		}{
			{"Get", func(ctx context.Context, r accounts.UserRepo) (accounts.User, error) { return r.Get(ctx, newID()) }},
			{"GetBySubject", func(ctx context.Context, r accounts.UserRepo) (accounts.User, error) {
				return r.GetBySubject(ctx, "nobody")
			}},
			{"GetByEmail", func(ctx context.Context, r accounts.UserRepo) (accounts.User, error) {
				return r.GetByEmail(ctx, "nobody@example.com")
			}},
		} {
			_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) { return c.get(ctx, tx.Users()) })
			wantErr(t, c.name, err, core.ErrNotFound)
		}
	}},
	{"ListByEmails returns the users that exist", func(t *testing.T, f *fixture) {
		ann, bob := f.user("ann@example.com"), f.user("bob@example.com")
		f.user("cid@example.com")
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.User, error) {
			return tx.Users().ListByEmails(ctx, []string{"bob@example.com", "nobody@example.com", "ann@example.com"})
		})
		sameIDSet(t, "users", idsOf(got, func(u accounts.User) uuid.UUID { return u.ID }), []uuid.UUID{ann.ID, bob.ID})
	}},
}

func orgIDs(as []accounts.Account) []uuid.UUID {
	return idsOf(as, func(a accounts.Account) uuid.UUID { return a.ID })
}

var accountCases = []testCase{
	{"Create then Get; absent is not found", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.Account, error) { return tx.Accounts().Get(ctx, a.ID) })
		equal(t, "name", got.Name, a.Name)
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.Account, error) {
			return tx.Accounts().Get(ctx, newID())
		})
		wantErr(t, "absent", err, core.ErrNotFound)
	}},
	{"Create refuses a duplicate organization name case-insensitively or a duplicate id", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		wantErr(t, "same name", createAccount(f, f.newOrg("Acme Org")), core.ErrConflict)
		wantErr(t, "other case", createAccount(f, f.newOrg("ACME org")), core.ErrConflict)
		again := f.newOrg("Other Org")
		again.ID = a.ID
		wantErr(t, "same id", createAccount(f, again), core.ErrConflict)
		orgs := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.Account, error) {
			return tx.Accounts().ListOrganizations(ctx)
		})
		sameIDs(t, "organizations", orgIDs(orgs), []uuid.UUID{a.ID})
	}},
	{"personal accounts do not collide by name", func(t *testing.T, f *fixture) {
		f.personal(f.user("ann@example.com"))
		f.personal(f.user("bob@example.com"))
		if err := createAccount(f, f.newOrg("individual")); err != nil {
			t.Fatalf("organization named like a personal space: %v", err)
		}
	}},
	{"ListOrganizations returns non-personal accounts by name", func(t *testing.T, f *fixture) {
		c, a, b := f.org("Cobalt"), f.org("Acme"), f.org("Beta")
		f.personal(f.user("ann@example.com"))
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.Account, error) {
			return tx.Accounts().ListOrganizations(ctx)
		})
		sameIDs(t, "organizations", orgIDs(got), []uuid.UUID{a.ID, b.ID, c.ID})
	}},
	{"ListReviewing returns the active accounts with an assessment, personal spaces included, by id", func(t *testing.T, f *fixture) {
		ann := f.user("ann@example.com")
		reviewing, idle, personal := f.org("Reviewing"), f.org("Idle"), f.personal(ann)
		off := f.newOrg("Inactive")
		off.Active = false
		if err := createAccount(f, off); err != nil {
			t.Fatal(err)
		}
		v := f.vendors("Acme")[0]
		for _, acc := range []uuid.UUID{reviewing.ID, personal.ID, off.ID} {
			l := f.list(acc, lists.MasterList)
			f.onList(l.ID, v)
			f.assessment(l, v)
		}
		f.list(idle.ID, lists.MasterList)
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.Account, error) {
			return tx.Accounts().ListReviewing(ctx)
		})
		want := []uuid.UUID{reviewing.ID, personal.ID}
		slices.SortFunc(want, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
		sameIDs(t, "accounts reviewing", orgIDs(got), want)
	}},
	{"ListForUser returns the user's organizations with roles by name", func(t *testing.T, f *fixture) {
		ann, bob := f.user("ann@example.com"), f.user("bob@example.com")
		c, a, other := f.org("Cobalt"), f.org("Acme"), f.org("Beta")
		f.member(c, ann, accounts.RoleViewer)
		f.member(a, ann, accounts.RoleOwner)
		f.member(other, bob, accounts.RoleOwner)
		p := f.personal(ann)
		f.member(p, ann, accounts.RoleOwner)
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.Membership, error) {
			return tx.Accounts().ListForUser(ctx, ann.ID)
		})
		if len(got) != 2 {
			t.Fatalf("memberships: got %+v, want Acme and Cobalt", got)
		}
		equal(t, "first account", got[0].Account.ID, a.ID)
		equal(t, "first role", got[0].Role, accounts.RoleOwner)
		equal(t, "second account", got[1].Account.ID, c.ID)
		equal(t, "second role", got[1].Role, accounts.RoleViewer)
		equal(t, "account name", got[0].Account.Name, "Acme")
	}},
	{"MembershipOf returns the account with the user's role, personal spaces too", func(t *testing.T, f *fixture) {
		ann, bob := f.user("ann@example.com"), f.user("bob@example.com")
		a, other := f.org("Acme"), f.org("Beta")
		f.member(a, ann, accounts.RoleViewer)
		f.member(other, bob, accounts.RoleOwner)
		p := f.personal(ann)
		f.member(p, ann, accounts.RoleOwner)
		of := func(accountID, userID uuid.UUID) (accounts.Membership, error) {
			var m accounts.Membership
			err := f.try(func(ctx context.Context, tx stores.Tx) error {
				var err error
				m, err = tx.Accounts().MembershipOf(ctx, accountID, userID)
				return err
			})
			return m, err
		}
		m, err := of(a.ID, ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "account", m.Account.ID, a.ID)
		equal(t, "account name", m.Account.Name, "Acme")
		equal(t, "active", m.Account.Active, true)
		equal(t, "role", m.Role, accounts.RoleViewer)
		if m, err = of(p.ID, ann.ID); err != nil || !m.Account.Personal || m.Role != accounts.RoleOwner {
			t.Fatalf("personal space: %+v, %v", m, err)
		}
		_, err = of(other.ID, ann.ID)
		wantErr(t, "not a member", err, core.ErrNotFound)
		_, err = of(newID(), ann.ID)
		wantErr(t, "no such account", err, core.ErrNotFound)
	}},
	{"Lock finds the account or reports not found", func(t *testing.T, f *fixture) {
		a := f.org("Acme")
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Lock(ctx, a.ID) })
		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Lock(ctx, newID()) })
		wantErr(t, "Lock absent", err, core.ErrNotFound)
	}},
	{"Delete of an absent account is not found", func(t *testing.T, f *fixture) {
		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, newID()) })
		wantErr(t, "Delete", err, core.ErrNotFound)
	}},
	{"Delete cascades to everything the account owns", testAccountDeleteCascades},
	{"Delete of a personal space cascades too", func(t *testing.T, f *fixture) {
		ann := f.user("ann@example.com")
		p := f.personal(ann)
		f.member(p, ann, accounts.RoleOwner)
		l := f.list(p.ID, lists.MasterList)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, p.ID) })
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
			return tx.Lists().Get(ctx, p.ID, l.ID)
		})
		wantErr(t, "list of the personal space", err, core.ErrNotFound)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.Member, error) {
			return tx.Members().Get(ctx, p.ID, ann.ID)
		})
		wantErr(t, "member of the personal space", err, core.ErrNotFound)
		// The user can get a new personal space.
		f.personal(ann)
	}},
}

// estate is an account with one of everything it can own.
type estate struct {
	acc   accounts.Account
	owner accounts.User
	list  lists.List
	vs    []vendors.Vendor
	prod  lists.Product
	asmt  assessments.Assessment
	event assessments.AuditEvent
	doc   assessments.Document
	sub   alerts.Subscriber
}

func (f *fixture) estate(name, email string) estate {
	f.t.Helper()
	e := estate{acc: f.org(name), owner: f.user(email)}
	f.member(e.acc, e.owner, accounts.RoleOwner)
	e.list = f.list(e.acc.ID, lists.MasterList)
	e.vs = f.vendors("Zeta", "Yotta")
	f.onList(e.list.ID, e.vs...)
	e.prod = f.product(e.list.ID, e.vs[0].ID, "Payroll")
	e.asmt = f.assessment(e.list, e.vs[0])
	e.event = f.event(e.asmt, "use_case")
	e.doc = f.document(e.asmt, "soc2.pdf")
	e.sub = f.subscriber(e.list, "alerts-"+email, true)
	now := f.tick()
	f.write(func(ctx context.Context, tx stores.Tx) error {
		return tx.Quota().Claim(ctx, e.acc.ID, []uuid.UUID{e.vs[0].ID}, now)
	})
	return e
}

func testAccountDeleteCascades(t *testing.T, f *fixture) {
	gone, kept := f.estate("Acme", "ann@example.com"), f.estate("Beta", "bob@example.com")
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, gone.acc.ID) })
	checkEstate(t, f, gone, false)
	checkEstate(t, f, kept, true)
	got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.User, error) {
		return tx.Users().Get(ctx, gone.owner.ID)
	})
	equal(t, "user of the deleted account stays", got.ID, gone.owner.ID)
	vs := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Vendor, error) {
		return tx.Vendors().ListByIDs(ctx, []uuid.UUID{gone.vs[0].ID, gone.vs[1].ID})
	})
	equal(t, "global vendors stay", len(vs), 2)
	if err := createAccount(f, f.newOrg("Acme")); err != nil {
		t.Fatalf("the deleted organization's name is free again: %v", err)
	}
}

// checkEstate checks that everything of e exists (want) or is gone (!want).
func checkEstate(t *testing.T, f *fixture, e estate, want bool) {
	t.Helper()
	found := func(what string, err error) {
		t.Helper()
		if want && err != nil {
			t.Fatalf("%s of %s: %v", what, e.acc.Name, err)
		}
		if !want {
			wantErr(t, what+" of deleted "+e.acc.Name, err, core.ErrNotFound)
		}
	}
	count := func(what string, n int, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s of %s: %v", what, e.acc.Name, err)
		}
		if (n > 0) != want {
			t.Fatalf("%s of %s: got %d rows, want them present=%v", what, e.acc.Name, n, want)
		}
	}
	f.read(func(ctx context.Context, tx stores.Tx) error {
		_, err := tx.Accounts().Get(ctx, e.acc.ID)
		found("account", err)
		_, err = tx.Members().Get(ctx, e.acc.ID, e.owner.ID)
		found("member", err)
		ms, err := tx.Accounts().ListForUser(ctx, e.owner.ID)
		count("memberships", len(ms), err)
		_, err = tx.Lists().Get(ctx, e.acc.ID, e.list.ID)
		found("list", err)
		es, err := tx.Lists().Entries(ctx, e.list.ID)
		count("list entries", len(es), err)
		ids, err := tx.Lists().VendorIDs(ctx, e.list.ID)
		count("list vendor ids", len(ids), err)
		n, err := tx.Quota().Used(ctx, e.acc.ID)
		count("quota claims", n, err)
		_, err = tx.Assessments().Get(ctx, e.acc.ID, e.asmt.ID)
		found("assessment", err)
		as, err := tx.Assessments().ListByVendors(ctx, e.list.ID, []uuid.UUID{e.vs[0].ID})
		count("assessments by vendor", len(as), err)
		_, total, err := tx.Assessments().Events(ctx, e.asmt.ID, 0, 10)
		count("audit events", total, err)
		_, err = tx.Documents().Get(ctx, e.acc.ID, e.doc.ID)
		found("document", err)
		ds, err := tx.Documents().ListByAccount(ctx, e.acc.ID)
		count("documents by account", len(ds), err)
		ds, err = tx.Documents().ListByAssessment(ctx, e.asmt.ID)
		count("documents by assessment", len(ds), err)
		_, err = tx.Subscribers().Get(ctx, e.sub.ID)
		found("subscriber", err)
		ss, err := tx.Subscribers().List(ctx, e.list.ID)
		count("subscribers", len(ss), err)
		rs, err := tx.Subscribers().Recipients(ctx, e.vs[0].ID)
		mine := 0
		for _, r := range rs {
			if r.ListID == e.list.ID {
				mine++
			}
		}
		count("recipients", mine, err)
		return nil
	})
}

var memberCases = []testCase{
	{"Put then Get joins the user", func(t *testing.T, f *fixture) {
		a, ann := f.org("Acme"), f.user("ann@example.com")
		f.member(a, ann, accounts.RoleAdmin)
		got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.Member, error) {
			return tx.Members().Get(ctx, a.ID, ann.ID)
		})
		equal(t, "account", got.AccountID, a.ID)
		equal(t, "user", got.UserID, ann.ID)
		equal(t, "email", got.Email, ann.Email)
		equal(t, "name", got.Name, ann.Name)
		equal(t, "verified", got.Verified, true)
		equal(t, "role", got.Role, accounts.RoleAdmin)
		sameTime(t, "created_at", got.CreatedAt, f.now)
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.Member, error) {
			return tx.Members().Get(ctx, a.ID, newID())
		})
		wantErr(t, "absent member", err, core.ErrNotFound)
		other := f.org("Beta")
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (accounts.Member, error) {
			return tx.Members().Get(ctx, other.ID, ann.ID)
		})
		wantErr(t, "member of another account", err, core.ErrNotFound)
	}},
	{"Put updates an existing membership", func(t *testing.T, f *fixture) {
		a, ann := f.org("Acme"), f.user("ann@example.com")
		f.member(a, ann, accounts.RoleViewer)
		f.member(a, ann, accounts.RoleOwner)
		ms := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.Member, error) {
			return tx.Members().List(ctx, a.ID)
		})
		if len(ms) != 1 || ms[0].Role != accounts.RoleOwner {
			t.Fatalf("members: got %+v, want ann as the only owner", ms)
		}
	}},
	{"List returns the account's members by e-mail", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme"), f.org("Beta")
		cid, ann, bob := f.user("cid@example.com"), f.user("ann@example.com"), f.user("bob@example.com")
		now := f.tick()
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Members().Put(ctx, []accounts.Member{
				{AccountID: a.ID, UserID: cid.ID, Role: accounts.RoleMember, CreatedAt: now},
				{AccountID: a.ID, UserID: ann.ID, Role: accounts.RoleOwner, CreatedAt: now},
				{AccountID: a.ID, UserID: bob.ID, Role: accounts.RoleViewer, CreatedAt: now},
				{AccountID: other.ID, UserID: bob.ID, Role: accounts.RoleOwner, CreatedAt: now},
			})
		})
		ms := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.Member, error) {
			return tx.Members().List(ctx, a.ID)
		})
		sameIDs(t, "members", idsOf(ms, func(m accounts.Member) uuid.UUID { return m.UserID }), []uuid.UUID{ann.ID, bob.ID, cid.ID})
		equal(t, "bob's role here", ms[1].Role, accounts.RoleViewer)
		equal(t, "bob's e-mail", ms[1].Email, bob.Email)
	}},
	{"Delete removes the given members and ignores absent ones", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme"), f.org("Beta")
		ann, bob := f.user("ann@example.com"), f.user("bob@example.com")
		f.member(a, ann, accounts.RoleOwner)
		f.member(a, bob, accounts.RoleMember)
		f.member(other, bob, accounts.RoleMember)
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Members().Delete(ctx, a.ID, []uuid.UUID{bob.ID, newID()})
		})
		ms := load(f, func(ctx context.Context, tx stores.Tx) ([]accounts.Member, error) {
			return tx.Members().List(ctx, a.ID)
		})
		sameIDs(t, "members left", idsOf(ms, func(m accounts.Member) uuid.UUID { return m.UserID }), []uuid.UUID{ann.ID})
		got := load(f, func(ctx context.Context, tx stores.Tx) (accounts.Member, error) {
			return tx.Members().Get(ctx, other.ID, bob.ID)
		})
		equal(t, "bob stays in the other account", got.Role, accounts.RoleMember)
	}},
}
