package assessments_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

func TestAssessmentLifecycle(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	sel := assessments.VendorSel{VendorID: f.slack.ID}
	a, created, err := f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, sel, assessments.Input{Status: statusOf("in-progress")})
	if err != nil || !created || a.Status != "in-progress" {
		t.Fatalf("create: %+v %v %v", a, created, err)
	}
	if _, created, err = f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, sel, assessments.Input{Status: statusOf("approved")}); err != nil || created {
		t.Fatalf("update: %v %v", created, err)
	}
	if _, _, err := f.s.UpsertAssessment(ctx, f.viewr, f.ref, lists.MasterRef, sel, assessments.Input{}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("a viewer wrote: %v", err)
	}
	if _, _, err := f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, assessments.VendorSel{VendorID: uuid.New()}, assessments.Input{}); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("an unknown vendor: %v", err)
	}
	if _, _, err := f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, assessments.VendorSel{}, assessments.Input{}); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("no vendor: %v", err)
	}
	as, err := f.s.Assessments(ctx, f.viewr, f.ref, lists.MasterRef, assessments.AssessmentQuery{ReviewStates: []string{"current"}, Sort: "next_review_at"})
	if err != nil || len(as) != 1 || as[0].Due.State != assessments.Current {
		t.Fatalf("list: %+v, %v", as, err)
	}
	if _, err := f.s.Assessments(ctx, f.viewr, f.ref, lists.MasterRef, assessments.AssessmentQuery{Sort: "size"}); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("a bad sort: %v", err)
	}
	page, err := f.s.AuditLog(ctx, f.viewr, f.ref, a.ID, 0, 0)
	if err != nil || page.Total != 2 || page.Limit != assessments.DefaultAuditLimit {
		t.Fatalf("audit: %+v, %v", page, err)
	}
	if _, err := f.s.AuditLog(ctx, f.viewr, f.ref, a.ID, -1, 1000); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("bad paging: %v", err)
	}

	// Evidence: an upload URL, the object arrives, the record turns
	// uploaded (audited once), downloads, and goes with its file.
	up, err := f.s.UploadURL(ctx, f.owner, f.ref, lists.MasterRef, a.ID, "soc2.pdf", "application/pdf")
	if err != nil || up.Request.Method != "PUT" {
		t.Fatalf("upload: %+v, %v", up, err)
	}
	if _, _, err := f.s.DownloadURL(ctx, f.viewr, f.ref, up.Document.ID); !errors.Is(err, core.ErrConflict) {
		t.Fatalf("download before upload: %v", err)
	}
	f.blobs.objects[up.Document.ObjectKey] = 1024
	ds, err := f.s.Documents(ctx, f.viewr, f.ref, a.ID)
	if err != nil || len(ds) != 1 || ds[0].Status != assessments.DocumentUploaded || ds[0].SizeBytes != 1024 {
		t.Fatalf("documents: %+v, %v", ds, err)
	}
	if _, req, err := f.s.DownloadURL(ctx, f.viewr, f.ref, up.Document.ID); err != nil || req.Method != "GET" {
		t.Fatalf("download: %v", err)
	}
	if _, err := f.s.DeleteDocument(ctx, f.viewr, f.ref, up.Document.ID); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("a viewer deleted a document: %v", err)
	}
	if _, err := f.s.DeleteDocument(ctx, f.owner, f.ref, up.Document.ID); err != nil || len(f.blobs.objects) != 0 {
		t.Fatalf("delete document: %v", err)
	}
	if _, _, err := f.s.DownloadURL(ctx, f.viewr, f.ref, up.Document.ID); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("a deleted document: %v", err)
	}

	// The register export: one row per vendor (no products here).
	ex, err := f.s.OpenExport(ctx, f.viewr, f.ref, lists.MasterRef)
	if err != nil || ex.List().ID != f.list.ID {
		t.Fatal(err)
	}
	var rows []assessments.ExportRow
	if err := ex.Each(ctx, func(r assessments.ExportRow) error { rows = append(rows, r); return nil }); err != nil || len(rows) != 1 || rows[0].Status != assessments.Approved {
		t.Fatalf("export %+v, %v", rows, err)
	}

	// Deleting by vendor, then again: not found.
	if _, err := f.s.DeleteAssessment(ctx, f.owner, f.ref, lists.ListRef{}, uuid.Nil, sel); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.DeleteAssessment(ctx, f.owner, f.ref, lists.ListRef{}, a.ID, assessments.VendorSel{}); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("delete again: %v", err)
	}
	if _, err := f.s.DeleteAssessment(ctx, f.owner, f.ref, lists.ListRef{}, uuid.Nil, assessments.VendorSel{}); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("delete without a selector: %v", err)
	}
}

// TestReviewPolicyScheduleAndReminders: the policy moves every due date; an
// overdue review owes its reminders once, to the staff, until one opts out.
func TestReviewPolicyScheduleAndReminders(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	p, err := f.s.ReviewPolicy(ctx, f.viewr, f.ref)
	if err != nil || !p.Default || p.Cadence.NotTiered != 12 {
		t.Fatalf("default policy: %+v, %v", p, err)
	}
	months := 1
	if _, err := f.s.PutReviewPolicy(ctx, f.viewr, f.ref, assessments.PolicyInput{NotTiered: &months}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("a viewer changed the policy: %v", err)
	}
	if p, err = f.s.PutReviewPolicy(ctx, f.owner, f.ref, assessments.PolicyInput{NotTiered: &months}); err != nil || p.Cadence.NotTiered != 1 || p.UpdatedBy != f.owner.Email {
		t.Fatalf("put policy: %+v, %v", p, err)
	}
	// Approved long ago: overdue under a one-month cadence.
	sel := assessments.VendorSel{VendorID: f.slack.ID}
	if _, _, err := f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, sel, assessments.Input{Status: statusOf("approved")}); err != nil {
		t.Fatal(err)
	}
	f.reviewed(f.slack.ID, clock{}.Now().AddDate(0, -3, 0))
	m, err := f.s.DashboardMetrics(ctx, f.owner, f.ref, lists.ListRef{})
	if err != nil || m.Overdue != 1 || m.TotalVendors != 1 {
		t.Fatalf("metrics: %+v, %v", m, err)
	}
	n, err := f.s.ReviewReminders(ctx)
	if err != nil || n != 1 {
		t.Fatalf("reminders queued %d, %v", n, err)
	}
	if n, _ := f.s.ReviewReminders(ctx); n != 0 {
		t.Fatalf("the same reminders queued again: %d", n)
	}
	var rm outbox.ReminderMail
	for _, msg := range f.outbox() {
		if msg.Kind == outbox.KindReminderMail {
			rm = msg.Payload.(outbox.ReminderMail)
		}
	}
	if err := f.s.SendReminder(ctx, rm); err != nil || len(f.mail.sent) != 1 || f.mail.sent[0].To != f.owner.Email {
		t.Fatalf("send: %v, %+v", err, f.mail.sent)
	}
	// The mail's unsubscribe link stops the account's reminders to Ann.
	link := f.mail.sent[0].Text
	i := strings.Index(link, assessments.ReminderUnsubscribePath+"?token=")
	if i < 0 {
		t.Fatalf("no unsubscribe link in %q", link)
	}
	tok := link[i+len(assessments.ReminderUnsubscribePath+"?token="):]
	tok, _ = url.QueryUnescape(strings.Fields(tok)[0])
	if o, err := f.s.PeekReminderUnsubscribe(ctx, tok); err != nil || o.Done || o.Email != f.owner.Email {
		t.Fatalf("peek: %+v, %v", o, err)
	}
	for range 2 {
		if o, err := f.s.UnsubscribeReminders(ctx, tok); err != nil || !o.Done {
			t.Fatalf("unsubscribe: %+v, %v", o, err)
		}
	}
	if _, err := f.s.UnsubscribeReminders(ctx, "forged"); err == nil {
		t.Fatal("a forged link unsubscribed")
	}
}

func TestCalendarAndDashboard(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	sel := assessments.VendorSel{VendorID: f.slack.ID}
	if _, _, err := f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, sel, assessments.Input{Status: statusOf("approved")}); err != nil {
		t.Fatal(err)
	}
	link, err := f.s.ReviewCalendarLink(ctx, f.viewr, f.ref)
	if err != nil || !strings.HasPrefix(link.URL, "https://vetted.test"+assessments.CalendarFeedPath) {
		t.Fatalf("link: %+v, %v", link, err)
	}
	again, _ := f.s.ReviewCalendarLink(ctx, f.viewr, f.ref)
	if again.URL != link.URL {
		t.Fatal("a second link differs from the first")
	}
	u, _ := url.Parse(link.URL)
	feed, err := f.s.ReviewCalendarFeed(ctx, u.Query().Get("token"))
	if err != nil || feed.AccountName != "Acme" || len(feed.Events) != 1 || feed.Events[0].ListName != lists.MasterList {
		t.Fatalf("feed: %+v, %v", feed, err)
	}
	if err := f.s.RevokeReviewCalendar(ctx, f.viewr, f.ref); err != nil {
		t.Fatal(err)
	}
	if err := f.s.RevokeReviewCalendar(ctx, f.viewr, f.ref); err != nil {
		t.Fatalf("revoking twice: %v", err)
	}
	if _, err := f.s.ReviewCalendarFeed(ctx, u.Query().Get("token")); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("a revoked feed: %v", err)
	}

	f.write(func(ctx context.Context, tx assessments.Tx) error {
		return tx.Incidents().Create(ctx, vendors.Incident{ID: uuid.New(), VendorID: f.slack.ID, Title: "Outage", PublishedAt: clock{}.Now()})
	})
	ins, err := f.s.RecentIncidents(ctx, f.owner, f.ref, lists.ListRef{}, 0)
	if err != nil || len(ins) != 1 || ins[0].VendorName != "Slack" {
		t.Fatalf("recent: %+v, %v", ins, err)
	}
	if _, err := f.s.RecentIncidents(ctx, f.owner, f.ref, lists.ListRef{}, assessments.MaxIncidentLimit+1); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("a limit too large: %v", err)
	}
	if ins, err := f.s.RecentIncidents(ctx, f.viewr, f.ref, lists.ListRef{}, 0); err != nil || len(ins) != 1 {
		t.Fatalf("a viewer reads the dashboard like any read: %+v, %v", ins, err)
	}
	ov, err := f.s.VendorsOverview(ctx, f.owner, f.ref, lists.ListRef{})
	if err != nil || len(ov) != 1 || ov[0].Latest == nil {
		t.Fatalf("overview: %+v, %v", ov, err)
	}
}

// TestAssessmentReadsSortAndSelect: reads sort by next review either way
// (never reviewed last), and a vendor is selected by id, by profile or by
// name, each unknown one answered as not found.
func TestAssessmentReadsSortAndSelect(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	zoom, beta := vendors.Vendor{ID: uuid.New(), Name: "Zoom"}, vendors.Vendor{ID: uuid.New(), Name: "Beta"}
	f.addVendors(zoom, beta)
	for _, v := range []vendors.Vendor{f.slack, zoom, beta} {
		if _, _, err := f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, assessments.VendorSel{VendorID: v.ID},
			assessments.Input{Status: statusOf("approved")}); err != nil {
			t.Fatal(err)
		}
	}
	f.reviewed(f.slack.ID, clock{}.Now().AddDate(0, -6, 0)) // Slack: due first
	f.reviewed(beta.ID, time.Time{})                        // Beta: never reviewed
	order := func(sort string) string {
		as, err := f.s.Assessments(ctx, f.viewr, f.ref, lists.MasterRef, assessments.AssessmentQuery{Sort: sort})
		if err != nil {
			t.Fatal(err)
		}
		names := make([]string, len(as))
		for i, a := range as {
			names[i] = a.VendorName
		}
		return strings.Join(names, ",")
	}
	if got := order("next_review_at"); got != "Slack,Zoom,Beta" {
		t.Errorf("next_review_at: %s", got)
	}
	if got := order("-next_review_at"); got != "Zoom,Slack,Beta" {
		t.Errorf("-next_review_at: %s", got)
	}
	name, _ := vendors.ParseRef("zoom")
	if a, _, err := f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, assessments.VendorSel{VendorName: &name}, assessments.Input{}); err != nil || a.VendorID != zoom.ID {
		t.Fatalf("by name: %+v, %v", a, err)
	}
	if _, _, err := f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, assessments.VendorSel{VendorProfileID: uuid.New()}, assessments.Input{}); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("an unknown profile: %v", err)
	}
	id := f.assessment(zoom.ID).ID
	if as, err := f.s.Assessments(ctx, f.viewr, f.ref, lists.MasterRef, assessments.AssessmentQuery{AssessmentID: &id}); err != nil || len(as) != 1 {
		t.Fatalf("by id: %+v, %v", as, err)
	}
	m, err := f.s.DashboardMetrics(ctx, f.owner, f.ref, lists.MasterRef)
	if err != nil || m.TotalVendors != 3 {
		t.Fatalf("metrics of one list: %+v, %v", m, err)
	}
}
