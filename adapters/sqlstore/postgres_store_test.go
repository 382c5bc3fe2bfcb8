package sqlstore_test

import (
	"context"
	"errors"
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

func TestEnsure(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	acme := e.ensure(e.newVendor("Acme", ""))[0]
	beta := e.ensure(e.newVendor("Beta", "https://beta.example.com"))[0]

	in := []vendors.Vendor{
		e.newVendor("Gamma", "https://gamma.example.com"),   // new
		e.newVendor("ACME Inc", "https://www.acme.example"), // existing, gains a website
		e.newVendor("beta", "https://other.example.com"),    // existing, keeps its website
		e.newVendor("gamma", ""),                            // repeats an input
	}
	got := e.ensure(in...)
	if len(got) != len(in) {
		t.Fatalf("Ensure answered %d entries for %d inputs", len(got), len(in))
	}
	tests := []struct {
		i              int
		id             uuid.UUID
		name, website  string
		domain         string
		wantHasProfile bool
	}{
		{0, in[0].ID, "Gamma", "https://gamma.example.com", "gamma.example.com", false},
		{1, acme.ID, "Acme", "https://www.acme.example", "acme.example", false},
		{2, beta.ID, "Beta", "https://beta.example.com", "beta.example.com", false},
		{3, in[0].ID, "Gamma", "https://gamma.example.com", "gamma.example.com", false},
	}
	for _, tc := range tests {
		g := got[tc.i]
		if g.ID != tc.id || g.Name.String() != tc.name || g.WebsiteURL != tc.website || g.Domain != tc.domain {
			t.Errorf("entry %d: got %s %q %q %q, want %s %q %q %q", tc.i, g.ID, g.Name, g.WebsiteURL, g.Domain,
				tc.id, tc.name, tc.website, tc.domain)
		}
		if g.Aliases == nil {
			t.Errorf("entry %d: nil aliases", tc.i)
		}
	}
	all := mustView(e, func(ctx context.Context, tx stores.Tx) ([]vendors.Vendor, error) { return tx.Vendors().List(ctx) })
	if len(all) != 3 {
		t.Fatalf("directory holds %d entries, want 3", len(all))
	}

	// HasProfile follows the profile table.
	p := vendors.NewProfile(newID(), beta.ID, e.tick())
	e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, p) })
	again := e.ensure(e.newVendor("Beta", ""), e.newVendor("Acme", ""))
	if !again[0].HasProfile || again[1].HasProfile {
		t.Errorf("HasProfile: got %v %v, want true false", again[0].HasProfile, again[1].HasProfile)
	}
}

// TestConstraintsPostgres checks that the schema refuses what the ports promise to
// refuse, as core errors and never as driver errors.
func TestConstraintsPostgres(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ann := e.user("ann@example.com")
	org := e.org("Acme Org")
	l := e.list(org.ID, lists.MasterList)
	vs := e.ensure(e.newVendor("Zeta", ""), e.newVendor("Yotta", ""))
	e.onList(l.ID, vs[0])
	e.write(func(ctx context.Context, tx stores.Tx) error {
		return tx.Lists().AddProduct(ctx, e.newProduct(l.ID, vs[0].ID, "Widgets"))
	})
	a := e.newAssessment(l, vs[0])
	e.write(func(ctx context.Context, tx stores.Tx) error {
		return tx.Assessments().Save(ctx, []assessments.Assessment{a})
	})
	sub := alerts.Subscriber{ID: newID(), AccountID: org.ID, ListID: l.ID, Email: "sub@example.com",
		Status: alerts.SubscriberPending, CreatedAt: e.tick()}
	e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Subscribers().Save(ctx, sub) })
	inc, err := vendors.NewIncident(vendors.Incident{ID: newID(), VendorID: vs[0].ID, Title: "Breach", Source: "feed",
		ExternalID: "x-1", PublishedAt: e.tick(), CreatedAt: e.now})
	if err != nil {
		t.Fatal(err)
	}
	e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Incidents().Create(ctx, inc) })

	tests := []struct {
		name string
		op   func(ctx context.Context, tx stores.Tx) error
		want error
	}{
		{"org name differing only in case", func(ctx context.Context, tx stores.Tx) error {
			b, _ := accounts.NewAccount(newID(), "ACME ORG", e.now)
			return tx.Accounts().Create(ctx, b)
		}, core.ErrConflict},
		{"same account id", func(ctx context.Context, tx stores.Tx) error {
			b := org
			b.Name = "Other"
			return tx.Accounts().Create(ctx, b)
		}, core.ErrConflict},
		{"personal spaces share a name", func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Accounts().Create(ctx, accounts.NewPersonal(newID(), e.now)); err != nil {
				return err
			}
			return tx.Accounts().Create(ctx, accounts.NewPersonal(newID(), e.now))
		}, nil},
		{"user e-mail taken, other case", func(ctx context.Context, tx stores.Tx) error {
			return tx.Users().Save(ctx, accounts.User{ID: newID(), Email: "ANN@example.com", CreatedAt: e.now})
		}, core.ErrConflict},
		{"user subject taken", func(ctx context.Context, tx stores.Tx) error {
			return tx.Users().Save(ctx, accounts.User{ID: newID(), Subject: ann.Subject, Email: "bob@example.com", CreatedAt: e.now})
		}, core.ErrConflict},
		{"users without subject", func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Users().Save(ctx, accounts.User{ID: newID(), Email: "c@example.com", CreatedAt: e.now}); err != nil {
				return err
			}
			return tx.Users().Save(ctx, accounts.User{ID: newID(), Email: "d@example.com", CreatedAt: e.now})
		}, nil},
		{"member of a missing account", func(ctx context.Context, tx stores.Tx) error {
			return tx.Members().Put(ctx, []accounts.Member{{AccountID: newID(), UserID: ann.ID, Role: accounts.RoleOwner, CreatedAt: e.now}})
		}, core.ErrNotFound},
		{"list name differing only in case", func(ctx context.Context, tx stores.Tx) error {
			l2, _ := lists.New(newID(), org.ID, "MASTER-LIST", e.now)
			return tx.Lists().Create(ctx, l2)
		}, core.ErrConflict},
		{"product name differing only in case", func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().AddProduct(ctx, e.newProduct(l.ID, vs[0].ID, "WIDGETS"))
		}, core.ErrConflict},
		{"product of a vendor not on the list", func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().AddProduct(ctx, e.newProduct(l.ID, vs[1].ID, "Widgets"))
		}, core.ErrNotFound},
		{"second assessment of a list and vendor", func(ctx context.Context, tx stores.Tx) error {
			return tx.Assessments().Save(ctx, []assessments.Assessment{e.newAssessment(l, vs[0])})
		}, core.ErrConflict},
		{"assessment updated by id", func(ctx context.Context, tx stores.Tx) error {
			b := a
			b.Status = assessments.Approved
			return tx.Assessments().Save(ctx, []assessments.Assessment{b})
		}, nil},
		{"subscriber e-mail taken on the list", func(ctx context.Context, tx stores.Tx) error {
			s2 := sub
			s2.ID, s2.Email = newID(), "SUB@example.com"
			return tx.Subscribers().Save(ctx, s2)
		}, core.ErrConflict},
		{"incident already recorded", func(ctx context.Context, tx stores.Tx) error {
			i2 := inc
			i2.ID = newID()
			return tx.Incidents().Create(ctx, i2)
		}, core.ErrConflict},
		{"audit event of a missing assessment", func(ctx context.Context, tx stores.Tx) error {
			return tx.Assessments().AppendEvents(ctx, []assessments.AuditEvent{{ID: newID(), AssessmentID: newID(), AccountID: org.ID, CreatedAt: e.now}})
		}, core.ErrNotFound},
		{"document with a status outside the schema", func(ctx context.Context, tx stores.Tx) error {
			d, _ := assessments.NewDocument(newID(), org.ID, a.ID, "a.pdf", "application/pdf", "ann", e.now)
			d.Status = "lost"
			return tx.Documents().Create(ctx, d)
		}, core.ErrInvalid},
		{"profile of a missing vendor", func(ctx context.Context, tx stores.Tx) error {
			return tx.Profiles().Save(ctx, vendors.NewProfile(newID(), newID(), e.now))
		}, core.ErrNotFound},
		{"lock of a missing account", func(ctx context.Context, tx stores.Tx) error {
			return tx.Accounts().Lock(ctx, newID())
		}, core.ErrNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := e.try(tc.op)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("got %v, want success", err)
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want an error wrapping %q", err, tc.want)
			}
		})
	}
}

// TestCascades checks the ON DELETE rules the ports describe.
func TestCascades(t *testing.T) {
	t.Parallel()

	type world struct {
		org     accounts.Account
		l       lists.List
		v       vendors.Vendor
		p       vendors.Profile
		a       assessments.Assessment
		d       assessments.Document
		sub     alerts.Subscriber
		members int
	}
	build := func(e *env) world {
		ann := e.user("ann@example.com")
		org := e.org("Acme Org")
		e.member(org, ann, accounts.RoleOwner)
		l := e.list(org.ID, lists.MasterList)
		v := e.ensure(e.newVendor("Zeta", ""))[0]
		p := vendors.NewProfile(newID(), v.ID, e.tick())
		e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, p) })
		e.onList(l.ID, v)
		a := e.newAssessment(l, v)
		a.VendorProfileID = &p.ID
		d, _ := assessments.NewDocument(newID(), org.ID, a.ID, "a.pdf", "application/pdf", "ann", e.tick())
		sub := alerts.Subscriber{ID: newID(), AccountID: org.ID, ListID: l.ID, Email: "s@example.com",
			Status: alerts.SubscriberConfirmed, CreatedAt: e.tick()}
		now := e.tick()
		e.write(func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Lists().AddProduct(ctx, e.newProduct(l.ID, v.ID, "Widgets")); err != nil {
				return err
			}
			if err := tx.Assessments().Save(ctx, []assessments.Assessment{a}); err != nil {
				return err
			}
			if err := tx.Assessments().AppendEvents(ctx, []assessments.AuditEvent{{ID: newID(), AssessmentID: a.ID, AccountID: org.ID,
				CreatedAt: now, Changes: []assessments.Change{{Field: "use_case", NewValue: "x"}}}}); err != nil {
				return err
			}
			if err := tx.Documents().Create(ctx, d); err != nil {
				return err
			}
			if err := tx.Subscribers().Save(ctx, sub); err != nil {
				return err
			}
			return tx.Quota().Claim(ctx, org.ID, []uuid.UUID{v.ID}, now)
		})
		return world{org: org, l: l, v: v, p: p, a: a, d: d, sub: sub, members: 1}
	}
	gone := func(t *testing.T, e *env, what string, fn func(ctx context.Context, tx stores.Tx) error) {
		t.Helper()
		if err := e.s.View(e.ctx, fn); !errors.Is(err, core.ErrNotFound) {
			t.Errorf("%s: got %v, want not found", what, err)
		}
	}
	count := func(t *testing.T, e *env, what string, want int, fn func(ctx context.Context, tx stores.Tx) (int, error)) {
		t.Helper()
		if got := mustView(e, fn); got != want {
			t.Errorf("%s: got %d, want %d", what, got, want)
		}
	}

	// listContentsGone checks what goes with a list: its assessment, the
	// assessment's document and the list's subscriber.
	listContentsGone := func(t *testing.T, e *env, w world) {
		t.Helper()
		gone(t, e, "assessment", func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Assessments().Get(ctx, w.org.ID, w.a.ID)
			return err
		})
		gone(t, e, "document", func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Documents().Get(ctx, w.org.ID, w.d.ID)
			return err
		})
		gone(t, e, "subscriber", func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Subscribers().Get(ctx, w.sub.ID)
			return err
		})
	}

	t.Run("deleting an account removes everything it owns", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		w := build(e)
		e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, w.org.ID) })
		gone(t, e, "list", func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Lists().Get(ctx, w.org.ID, w.l.ID)
			return err
		})
		listContentsGone(t, e, w)
		count(t, e, "members", 0, func(ctx context.Context, tx stores.Tx) (int, error) {
			ms, err := tx.Members().List(ctx, w.org.ID)
			return len(ms), err
		})
		count(t, e, "quota", 0, func(ctx context.Context, tx stores.Tx) (int, error) { return tx.Quota().Used(ctx, w.org.ID) })
		count(t, e, "events", 0, func(ctx context.Context, tx stores.Tx) (int, error) {
			_, n, err := tx.Assessments().Events(ctx, w.a.ID, 0, 10)
			return n, err
		})
		count(t, e, "entries", 0, func(ctx context.Context, tx stores.Tx) (int, error) {
			ids, err := tx.Lists().VendorIDs(ctx, w.l.ID)
			return len(ids), err
		})
		// The global directory is not the account's.
		if _, err := view(e, func(ctx context.Context, tx stores.Tx) (vendors.Profile, error) {
			return tx.Profiles().Get(ctx, w.v.ID)
		}); err != nil {
			t.Errorf("profile after account deletion: %v", err)
		}
		gone(t, e, "account again", func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Lock(ctx, w.org.ID) })
	})

	t.Run("deleting a list removes its entries, products, assessments and subscribers", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		w := build(e)
		e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Delete(ctx, w.org.ID, w.l.ID) })
		listContentsGone(t, e, w)
		count(t, e, "entries", 0, func(ctx context.Context, tx stores.Tx) (int, error) {
			es, err := tx.Lists().Entries(ctx, w.l.ID)
			return len(es), err
		})
		count(t, e, "members stay", w.members, func(ctx context.Context, tx stores.Tx) (int, error) {
			ms, err := tx.Members().List(ctx, w.org.ID)
			return len(ms), err
		})
		count(t, e, "quota stays", 1, func(ctx context.Context, tx stores.Tx) (int, error) { return tx.Quota().Used(ctx, w.org.ID) })
	})

	t.Run("deleting a profile keeps the vendor, entries and assessments", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		w := build(e)
		e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Delete(ctx, w.v.ID) })
		v := mustView(e, func(ctx context.Context, tx stores.Tx) (vendors.Vendor, error) { return tx.Vendors().Get(ctx, w.v.ID) })
		if v.HasProfile {
			t.Error("vendor still has a profile")
		}
		es := mustView(e, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
			return tx.Lists().Entries(ctx, w.l.ID)
		})
		if len(es) != 1 || !es[0].IsCustom || len(es[0].Products) != 1 {
			t.Errorf("entries after profile deletion: %+v", es)
		}
		a := mustView(e, func(ctx context.Context, tx stores.Tx) (assessments.Assessment, error) {
			return tx.Assessments().Get(ctx, w.org.ID, w.a.ID)
		})
		if a.VendorProfileID != nil {
			t.Errorf("assessment still points at profile %v", *a.VendorProfileID)
		}
	})

	t.Run("taking a vendor off a list removes its products", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		w := build(e)
		e.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().RemoveEntries(ctx, w.l.ID, []uuid.UUID{w.v.ID})
		})
		e.onList(w.l.ID, w.v)
		es := mustView(e, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
			return tx.Lists().Entries(ctx, w.l.ID)
		})
		if len(es) != 1 || len(es[0].Products) != 0 {
			t.Errorf("entries after re-adding: %+v", es)
		}
	})
}

func TestMergeProductsAndEntries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	org := e.org("Acme Org")
	l := e.list(org.ID, lists.MasterList)
	vs := e.ensure(e.newVendors("Vendor", 3)...)
	e.onList(l.ID, vs...)
	e.onList(l.ID, vs[0]) // already there: left as it is

	ps := []lists.Product{
		e.newProduct(l.ID, vs[0].ID, "One"),
		e.newProduct(l.ID, vs[0].ID, "one"), // same name in the batch
		e.newProduct(l.ID, vs[1].ID, "One"),
	}
	var n int
	e.write(func(ctx context.Context, tx stores.Tx) (err error) {
		n, err = tx.Lists().MergeProducts(ctx, ps)
		return err
	})
	if n != 2 {
		t.Errorf("first merge inserted %d, want 2", n)
	}
	e.write(func(ctx context.Context, tx stores.Tx) (err error) {
		n, err = tx.Lists().MergeProducts(ctx, []lists.Product{e.newProduct(l.ID, vs[1].ID, "ONE"), e.newProduct(l.ID, vs[2].ID, "Two")})
		return err
	})
	if n != 1 {
		t.Errorf("second merge inserted %d, want 1", n)
	}
	es := mustView(e, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
		return tx.Lists().Entries(ctx, l.ID)
	})
	want := []struct {
		name     string
		products int
	}{{"Vendor 0000", 1}, {"Vendor 0001", 1}, {"Vendor 0002", 1}}
	if len(es) != len(want) {
		t.Fatalf("got %d entries, want %d", len(es), len(want))
	}
	for i, w := range want {
		if es[i].VendorName != w.name || len(es[i].Products) != w.products || !es[i].AlertsEnabled || !es[i].IsCustom {
			t.Errorf("entry %d: got %+v, want %s with %d products", i, es[i], w.name, w.products)
		}
		if es[i].EnrichmentStatus != "" {
			t.Errorf("entry %d: enrichment status %q without a profile, want none", i, es[i].EnrichmentStatus)
		}
	}
	l2 := mustView(e, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
		return tx.Lists().Get(ctx, org.ID, l.ID)
	})
	if l2.VendorCount != 3 {
		t.Errorf("vendor count %d, want 3", l2.VendorCount)
	}
	if _, err := view(e, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
		return tx.Lists().Get(ctx, newID(), l.ID)
	}); !errors.Is(err, core.ErrNotFound) {
		t.Errorf("list of another account: got %v, want not found", err)
	}
}
