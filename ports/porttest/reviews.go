package porttest

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/ports/stores"
)

func assessmentIDs(as []assessments.Assessment) []uuid.UUID {
	return idsOf(as, func(a assessments.Assessment) uuid.UUID { return a.ID })
}

func getAssessment(f *fixture, accountID, id uuid.UUID) (assessments.Assessment, error) {
	return loadErr(f, func(ctx context.Context, tx stores.Tx) (assessments.Assessment, error) {
		return tx.Assessments().Get(ctx, accountID, id)
	})
}

func find(f *fixture, filter assessments.AssessmentFilter) []assessments.Assessment {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) ([]assessments.Assessment, error) {
		return tx.Assessments().Find(ctx, filter)
	})
}

func events(f *fixture, assessmentID uuid.UUID, offset, limit int) ([]assessments.AuditEvent, int) {
	f.t.Helper()
	var es []assessments.AuditEvent
	var total int
	f.read(func(ctx context.Context, tx stores.Tx) (err error) {
		es, total, err = tx.Assessments().Events(ctx, assessmentID, offset, limit)
		return err
	})
	return es, total
}

var assessmentCases = []testCase{
	{"Save inserts and Get reads back; other accounts do not see it", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme Org"), f.org("Beta Org")
		l := f.list(a.ID, lists.MasterList)
		v := f.vendors("Acme")[0]
		f.onList(l.ID, v)
		p := f.profile(v.ID)
		want := f.newAssessment(l, v)
		want.VendorProfileID = &p.ID
		f.saveAssessments(want)
		got, err := getAssessment(f, a.ID, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "account", got.AccountID, a.ID)
		equal(t, "list", got.ListID, l.ID)
		equal(t, "vendor", got.VendorID, v.ID)
		equal(t, "vendor name", got.VendorName, "Acme")
		if got.VendorProfileID == nil || *got.VendorProfileID != p.ID {
			t.Fatalf("vendor profile id: got %v, want %v", got.VendorProfileID, p.ID)
		}
		equal(t, "status", got.Status, assessments.NotStarted)
		equal(t, "use case", got.UseCase, "payroll")
		sameStrings(t, "data collected", got.DataCollected, []string{"email", "name"})
		equal(t, "created by", got.CreatedBy, want.CreatedBy)
		sameTime(t, "updated_at", got.UpdatedAt, want.UpdatedAt)
		_, err = getAssessment(f, other.ID, want.ID)
		wantErr(t, "Get from another account", err, core.ErrNotFound)
		_, err = getAssessment(f, a.ID, newID())
		wantErr(t, "Get absent", err, core.ErrNotFound)
	}},
	{"Save updates by id", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		v := f.vendors("Acme")[0]
		asmt := f.assessment(l, v)
		asmt.Status, asmt.ComplianceComment, asmt.UpdatedAt, asmt.UpdatedBy = assessments.Approved, "fine", f.tick(), "bob@example.com"
		asmt.DataCollected = []string{"ip"}
		asmt.ComplianceContact, asmt.SubmissionDate, asmt.ApprovalDate = "Grace", "2026-03-04", "2026-03-05"
		f.saveAssessments(asmt)
		got, err := getAssessment(f, a.ID, asmt.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "status", got.Status, assessments.Approved)
		equal(t, "comment", got.ComplianceComment, "fine")
		equal(t, "compliance contact", got.ComplianceContact, "Grace")
		equal(t, "submission date", got.SubmissionDate, "2026-03-04")
		equal(t, "approval date", got.ApprovalDate, "2026-03-05")
		equal(t, "updated by", got.UpdatedBy, "bob@example.com")
		sameStrings(t, "data collected", got.DataCollected, []string{"ip"})
		sameTime(t, "updated_at", got.UpdatedAt, asmt.UpdatedAt)
		equal(t, "one assessment", len(find(f, assessments.AssessmentFilter{AccountID: a.ID})), 1)
	}},
	{"Save refuses a second assessment of a vendor on a list", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l, other := f.list(a.ID, lists.MasterList), f.list(a.ID, "other")
		v := f.vendors("Acme")[0]
		first := f.assessment(l, v)
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			return tx.Assessments().Save(ctx, []assessments.Assessment{f.newAssessment(l, v)})
		})
		wantErr(t, "same list and vendor", err, core.ErrConflict)
		sameIDs(t, "assessments", assessmentIDs(find(f, assessments.AssessmentFilter{AccountID: a.ID})), []uuid.UUID{first.ID})
		f.assessment(other, v)
	}},
	{"Save stores many in one call", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta", "Cobalt")
		as := []assessments.Assessment{f.newAssessment(l, vs[0]), f.newAssessment(l, vs[1]), f.newAssessment(l, vs[2])}
		f.saveAssessments(as...)
		sameIDSet(t, "assessments", assessmentIDs(find(f, assessments.AssessmentFilter{AccountID: a.ID})), assessmentIDs(as))
	}},
	{"Find filters by list, vendor, profile and id, newest update first", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme Org"), f.org("Beta Org")
		l, l2 := f.list(a.ID, lists.MasterList), f.list(a.ID, "other")
		ol := f.list(other.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta")
		p := f.profile(vs[1].ID)
		a1 := f.assessment(l, vs[0])
		a2 := f.newAssessment(l, vs[1])
		a2.VendorProfileID = &p.ID
		f.saveAssessments(a2)
		a3 := f.assessment(l2, vs[0])
		f.assessment(ol, vs[0])
		a1.UpdatedAt = f.tick() // a1 becomes the newest
		f.saveAssessments(a1)
		for _, c := range []struct {
			name string
			f    assessments.AssessmentFilter
			want []uuid.UUID
		}{
			{"account only", assessments.AssessmentFilter{AccountID: a.ID}, []uuid.UUID{a1.ID, a3.ID, a2.ID}},
			{"list", assessments.AssessmentFilter{AccountID: a.ID, ListID: &l.ID}, []uuid.UUID{a1.ID, a2.ID}},
			{"vendor", assessments.AssessmentFilter{AccountID: a.ID, VendorID: &vs[0].ID}, []uuid.UUID{a1.ID, a3.ID}},
			{"list and vendor", assessments.AssessmentFilter{AccountID: a.ID, ListID: &l2.ID, VendorID: &vs[0].ID}, []uuid.UUID{a3.ID}},
			{"profile", assessments.AssessmentFilter{AccountID: a.ID, VendorProfileID: &p.ID}, []uuid.UUID{a2.ID}},
			{"id", assessments.AssessmentFilter{AccountID: a.ID, ID: &a3.ID}, []uuid.UUID{a3.ID}},
			{"id of another account", assessments.AssessmentFilter{AccountID: other.ID, ID: &a3.ID}, []uuid.UUID{}},
			{"list of another account", assessments.AssessmentFilter{AccountID: other.ID, ListID: &l.ID}, []uuid.UUID{}},
		} {
			sameIDs(t, c.name, assessmentIDs(find(f, c.f)), c.want)
		}
	}},
	{"ListByVendors returns a list's assessments of the given vendors", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l, l2 := f.list(a.ID, lists.MasterList), f.list(a.ID, "other")
		vs := f.vendors("Acme", "Beta", "Cobalt")
		a1, a2 := f.assessment(l, vs[0]), f.assessment(l, vs[1])
		f.assessment(l, vs[2])
		f.assessment(l2, vs[0])
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]assessments.Assessment, error) {
			return tx.Assessments().ListByVendors(ctx, l.ID, []uuid.UUID{vs[1].ID, vs[0].ID, newID()})
		})
		sameIDSet(t, "assessments", assessmentIDs(got), []uuid.UUID{a1.ID, a2.ID})
	}},
	{"Delete removes the assessment with its events and documents", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme Org"), f.org("Beta Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta")
		gone, kept := f.assessment(l, vs[0]), f.assessment(l, vs[1])
		f.event(gone, "use_case")
		f.event(kept, "use_case")
		doc := f.document(gone, "soc2.pdf")
		keptDoc := f.document(kept, "iso.pdf")
		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Assessments().Delete(ctx, other.ID, gone.ID) })
		wantErr(t, "Delete from another account", err, core.ErrNotFound)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Assessments().Delete(ctx, a.ID, gone.ID) })
		_, err = getAssessment(f, a.ID, gone.ID)
		wantErr(t, "Get after Delete", err, core.ErrNotFound)
		_, total := events(f, gone.ID, 0, 10)
		equal(t, "events of deleted", total, 0)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (assessments.Document, error) {
			return tx.Documents().Get(ctx, a.ID, doc.ID)
		})
		wantErr(t, "document of deleted", err, core.ErrNotFound)
		_, total = events(f, kept.ID, 0, 10)
		equal(t, "events of kept", total, 1)
		ds := load(f, func(ctx context.Context, tx stores.Tx) ([]assessments.Document, error) {
			return tx.Documents().ListByAccount(ctx, a.ID)
		})
		sameIDs(t, "documents left", idsOf(ds, func(d assessments.Document) uuid.UUID { return d.ID }), []uuid.UUID{keptDoc.ID})
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Assessments().Delete(ctx, a.ID, gone.ID) })
		wantErr(t, "Delete again", err, core.ErrNotFound)
		// The (list, vendor) slot is free again.
		f.assessment(l, vs[0])
	}},
	{"Events pages newest first with the total", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta")
		asmt := f.assessment(l, vs[0])
		f.event(f.assessment(l, vs[1]), "other")
		var made []uuid.UUID
		for _, field := range []string{"a", "b", "c", "d", "e"} {
			made = append([]uuid.UUID{f.event(asmt, field).ID}, made...) // newest first
		}
		for _, c := range []struct {
			name          string
			offset, limit int
			want          []uuid.UUID
		}{
			{"first page", 0, 2, made[:2]},
			{"second page", 2, 2, made[2:4]},
			{"last page", 4, 2, made[4:]},
			{"past the end", 6, 2, []uuid.UUID{}},
			{"everything", 0, 10, made},
		} {
			es, total := events(f, asmt.ID, c.offset, c.limit)
			sameIDs(t, c.name, idsOf(es, func(e assessments.AuditEvent) uuid.UUID { return e.ID }), c.want)
			equal(t, c.name+" total", total, 5)
		}
		es, _ := events(f, asmt.ID, 0, 1)
		e := es[0]
		equal(t, "assessment", e.AssessmentID, asmt.ID)
		equal(t, "account", e.AccountID, a.ID)
		equal(t, "submitted by", e.SubmittedBy, "ann@example.com")
		if len(e.Changes) != 1 || e.Changes[0] != (assessments.Change{Field: "e", OldValue: "", NewValue: "x"}) {
			t.Fatalf("changes: got %+v", e.Changes)
		}
	}},
}

func docIDs(ds []assessments.Document) []uuid.UUID {
	return idsOf(ds, func(d assessments.Document) uuid.UUID { return d.ID })
}

func getDocument(f *fixture, accountID, id uuid.UUID) (assessments.Document, error) {
	return loadErr(f, func(ctx context.Context, tx stores.Tx) (assessments.Document, error) {
		return tx.Documents().Get(ctx, accountID, id)
	})
}

var documentCases = []testCase{
	{"Create, Get, Update and Delete, scoped by account", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme Org"), f.org("Beta Org")
		l := f.list(a.ID, lists.MasterList)
		asmt := f.assessment(l, f.vendors("Acme")[0])
		d := f.document(asmt, "soc2.pdf")
		got, err := getDocument(f, a.ID, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "assessment", got.AssessmentID, asmt.ID)
		equal(t, "file name", got.FileName, "soc2.pdf")
		equal(t, "content type", got.ContentType, "application/pdf")
		equal(t, "status", got.Status, assessments.DocumentPending)
		equal(t, "object key", got.ObjectKey, d.ObjectKey)
		equal(t, "uploaded by", got.UploadedBy, "ann@example.com")
		sameTime(t, "created_at", got.CreatedAt, d.CreatedAt)
		_, err = getDocument(f, other.ID, d.ID)
		wantErr(t, "Get from another account", err, core.ErrNotFound)
		equal(t, "sha256 while pending", got.SHA256, "")
		const sum = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
		d.Status, d.SizeBytes, d.SHA256 = assessments.DocumentUploaded, 1234, sum
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Documents().Update(ctx, d) })
		got, _ = getDocument(f, a.ID, d.ID)
		equal(t, "updated status", got.Status, assessments.DocumentUploaded)
		equal(t, "updated size", got.SizeBytes, int64(1234))
		equal(t, "updated sha256", got.SHA256, sum)
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Documents().Delete(ctx, other.ID, d.ID) })
		wantErr(t, "Delete from another account", err, core.ErrNotFound)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Documents().Delete(ctx, a.ID, d.ID) })
		_, err = getDocument(f, a.ID, d.ID)
		wantErr(t, "Get after Delete", err, core.ErrNotFound)
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Documents().Delete(ctx, a.ID, d.ID) })
		wantErr(t, "Delete again", err, core.ErrNotFound)
	}},
	{"ListByAssessment is oldest first; ListByAccount has every record", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme Org"), f.org("Beta Org")
		l, ol := f.list(a.ID, lists.MasterList), f.list(other.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta")
		x, y := f.assessment(l, vs[0]), f.assessment(l, vs[1])
		d1, d2 := f.document(x, "one.pdf"), f.document(y, "two.pdf")
		d3 := f.document(x, "three.pdf")
		f.document(f.assessment(ol, vs[0]), "foreign.pdf")
		byAsmt := load(f, func(ctx context.Context, tx stores.Tx) ([]assessments.Document, error) {
			return tx.Documents().ListByAssessment(ctx, x.ID)
		})
		sameIDs(t, "by assessment", docIDs(byAsmt), []uuid.UUID{d1.ID, d3.ID})
		byAcc := load(f, func(ctx context.Context, tx stores.Tx) ([]assessments.Document, error) {
			return tx.Documents().ListByAccount(ctx, a.ID)
		})
		sameIDSet(t, "by account", docIDs(byAcc), []uuid.UUID{d1.ID, d2.ID, d3.ID})
	}},
}
