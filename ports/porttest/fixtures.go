package porttest

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The builders below make valid core values with the core constructors and
// store them, each in its own unit of work; the new* variants only build.

// must returns v, failing the test when the constructor that made it
// refused its input: f.must(accounts.NewAccount(...)).
func must[T any](v T, err error) func(t testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatalf("fixture: %v", err)
		}
		return v
	}
}

func (f *fixture) newUser(email string) accounts.User {
	return accounts.User{ID: newID(), Subject: "sub-" + email, Email: email, Name: "Name of " + email,
		EmailVerified: true, CreatedAt: f.tick()}
}

func (f *fixture) user(email string) accounts.User {
	f.t.Helper()
	u := f.newUser(email)
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Users().Save(ctx, u) })
	return u
}

func (f *fixture) newOrg(name string) accounts.Account {
	f.t.Helper()
	return must(accounts.NewAccount(newID(), name, f.tick()))(f.t)
}

func (f *fixture) org(name string) accounts.Account {
	f.t.Helper()
	a := f.newOrg(name)
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Create(ctx, a) })
	return a
}

func (f *fixture) personal(u accounts.User) accounts.Account {
	f.t.Helper()
	a := accounts.NewPersonal(u.ID, f.tick())
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Create(ctx, a) })
	return a
}

func (f *fixture) member(a accounts.Account, u accounts.User, role accounts.Role) {
	f.t.Helper()
	m := accounts.Member{AccountID: a.ID, UserID: u.ID, Role: role, CreatedAt: f.tick()}
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Members().Put(ctx, []accounts.Member{m}) })
}

func (f *fixture) newVendor(name, website string) vendors.Vendor {
	f.t.Helper()
	return must(vendors.New(newID(), name, website, f.tick()))(f.t)
}

// vendors ensures directory entries (without websites) named names.
func (f *fixture) vendors(names ...string) []vendors.Vendor {
	f.t.Helper()
	in := make([]vendors.Vendor, len(names))
	for i, n := range names {
		in[i] = f.newVendor(n, "")
	}
	return f.ensure(in...)
}

func (f *fixture) ensure(in ...vendors.Vendor) []vendors.Vendor {
	f.t.Helper()
	var out []vendors.Vendor
	f.write(func(ctx context.Context, tx stores.Tx) (err error) {
		out, err = tx.Vendors().Ensure(ctx, in)
		return err
	})
	return out
}

func (f *fixture) newProfile(vendorID uuid.UUID) vendors.Profile {
	p := vendors.NewProfile(newID(), vendorID, f.tick())
	rating := 87
	p.Company.CompanyDescription = "Makes things"
	p.Company.Alias = []string{"alias-one"}
	p.Scores.SecurityRating = &rating
	p.Scores.Grade = vendors.Grade(rating)
	p.Enrichment[vendors.SectionBasic] = vendors.SectionStatus{Status: "done", UpdatedAt: f.now, Source: "web"}
	p.LatestGRC = &vendors.GRCAssessment{AggregateScore: 80, Grade: "B", Recommendation: "approve",
		DomainScores: []vendors.DomainScore{{Domain: "compliance", Score: 80, Weight: 1, Findings: []string{"soc2"}}},
		AssessedAt:   f.now}
	return p
}

func (f *fixture) profile(vendorID uuid.UUID) vendors.Profile {
	f.t.Helper()
	p := f.newProfile(vendorID)
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, p) })
	return p
}

func (f *fixture) newList(accountID uuid.UUID, name string) lists.List {
	f.t.Helper()
	return must(lists.New(newID(), accountID, name, f.tick()))(f.t)
}

func (f *fixture) list(accountID uuid.UUID, name string) lists.List {
	f.t.Helper()
	l := f.newList(accountID, name)
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Create(ctx, l) })
	return l
}

// onList puts vendors on a list.
func (f *fixture) onList(listID uuid.UUID, vs ...vendors.Vendor) {
	f.t.Helper()
	ids := idsOf(vs, func(v vendors.Vendor) uuid.UUID { return v.ID })
	now := f.tick()
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().AddEntries(ctx, listID, ids, now) })
}

func (f *fixture) newProduct(listID, vendorID uuid.UUID, name string) lists.Product {
	f.t.Helper()
	return must(lists.NewProduct(newID(), listID, vendorID, name, f.tick()))(f.t)
}

func (f *fixture) product(listID, vendorID uuid.UUID, name string) lists.Product {
	f.t.Helper()
	p := f.newProduct(listID, vendorID, name)
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().AddProduct(ctx, p) })
	return p
}

func (f *fixture) newAssessment(l lists.List, v vendors.Vendor) assessments.Assessment {
	f.t.Helper()
	useCase := "payroll"
	fields := must(assessments.Apply(assessments.Fields{}, assessments.Input{UseCase: &useCase, DataCollected: []string{"email", "name"}}))(f.t)
	now := f.tick()
	return assessments.Assessment{ID: newID(), AccountID: l.AccountID, ListID: l.ID, VendorID: v.ID,
		VendorName: v.Name.String(), Fields: fields, CreatedAt: now, CreatedBy: "ann@example.com",
		UpdatedAt: now, UpdatedBy: "ann@example.com"}
}

func (f *fixture) assessment(l lists.List, v vendors.Vendor) assessments.Assessment {
	f.t.Helper()
	a := f.newAssessment(l, v)
	f.saveAssessments(a)
	return a
}

func (f *fixture) saveAssessments(as ...assessments.Assessment) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Assessments().Save(ctx, as) })
}

func (f *fixture) event(a assessments.Assessment, field string) assessments.AuditEvent {
	f.t.Helper()
	e := assessments.AuditEvent{ID: newID(), AssessmentID: a.ID, AccountID: a.AccountID, CreatedAt: f.tick(),
		SubmittedBy: "ann@example.com", Changes: []assessments.Change{{Field: field, OldValue: "", NewValue: "x"}}}
	f.write(func(ctx context.Context, tx stores.Tx) error {
		return tx.Assessments().AppendEvents(ctx, []assessments.AuditEvent{e})
	})
	return e
}

func (f *fixture) document(a assessments.Assessment, name string) assessments.Document {
	f.t.Helper()
	d := must(assessments.NewDocument(newID(), a.AccountID, a.ID, name, "application/pdf", "ann@example.com", f.tick()))(f.t)
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Documents().Create(ctx, d) })
	return d
}

func (f *fixture) newSubscriber(l lists.List, email string, confirmed bool) alerts.Subscriber {
	s := alerts.Subscriber{ID: newID(), AccountID: l.AccountID, ListID: l.ID, Email: email,
		Status: alerts.SubscriberPending, CreatedAt: f.tick()}
	if confirmed {
		at := f.now
		s.Status, s.ConfirmedAt = alerts.SubscriberConfirmed, &at
	}
	return s
}

func (f *fixture) subscriber(l lists.List, email string, confirmed bool) alerts.Subscriber {
	f.t.Helper()
	s := f.newSubscriber(l, email, confirmed)
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Subscribers().Save(ctx, s) })
	return s
}

func (f *fixture) newIncident(vendorID uuid.UUID, externalID string) vendors.Incident {
	f.t.Helper()
	now := f.tick()
	return must(vendors.NewIncident(vendors.Incident{ID: newID(), VendorID: vendorID, Title: "Breach " + externalID,
		Severity: "high", Source: "feed", ExternalID: externalID, PotentiallyImpactedData: []string{"email"},
		PublishedAt: now, CreatedAt: now}))(f.t)
}

func (f *fixture) newRun(jobs int) vendors.Run {
	now := f.tick()
	r := vendors.Run{ID: newID(), Kind: vendors.RunEnrich, Sections: []string{"basic"}, CreatedBy: "admin@example.com",
		Jobs: []vendors.RunJob{}, CreatedAt: now, UpdatedAt: now}
	for range jobs {
		r.Jobs = append(r.Jobs, vendors.RunJob{ID: newID(), VendorID: newID(), VendorName: "Vendor", Status: vendors.RunQueued})
	}
	return r
}

func (f *fixture) run(jobs int) vendors.Run {
	f.t.Helper()
	r := f.newRun(jobs)
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Runs().Create(ctx, r) })
	return r
}

func (f *fixture) newMessage() outbox.Message {
	return outbox.New(newID(), outbox.KindBlobDelete, outbox.BlobDelete{Keys: []string{"k"}}, f.tick())
}

// payloadKeys returns the keys of a BlobDelete payload.
func payloadKeys(t *testing.T, m outbox.Message) []string {
	t.Helper()
	p, ok := m.Payload.(outbox.BlobDelete)
	if !ok {
		t.Fatalf("payload of %v is %T, not BlobDelete", m.ID, m.Payload)
	}
	return p.Keys
}
