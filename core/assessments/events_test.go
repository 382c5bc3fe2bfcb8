package assessments_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
)

// approvedSlack records Slack approved on the master list, last reviewed
// at the time given.
func approvedSlack(t *testing.T, f fixture, reviewed time.Time) {
	t.Helper()
	if _, _, err := f.s.UpsertAssessment(context.Background(), f.owner, f.ref, lists.MasterRef,
		assessments.VendorSel{VendorID: f.slack.ID}, assessments.Input{Status: statusOf("approved")}); err != nil {
		t.Fatal(err)
	}
	f.reviewed(f.slack.ID, reviewed)
}

// reviewHooks are the review.* webhook events recorded so far.
func reviewHooks(f fixture) []domainevent.Event {
	var out []domainevent.Event
	for _, ev := range f.hooks.all() {
		if ev.Type == domainevent.ReviewDueSoon || ev.Type == domainevent.ReviewOverdue {
			out = append(out, ev)
		}
	}
	return out
}

// TestReviewOverdueEventOnlyWhileWanted: an overdue review is told as
// assessments.overdue only to an account with an enabled endpoint that wants
// it; while none does, nothing is recorded, so an endpoint added later
// still hears of the window; once told, the same window is not told again.
func TestReviewOverdueEventOnlyWhileWanted(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	approvedSlack(t, f, clock{}.Now().AddDate(-1, 0, -3)) // due three days ago under the default 12 months
	disabled := clock{}.Now()
	f.addEndpoints(
		webhooks.Endpoint{ID: uuid.New(), Events: []domainevent.EventType{domainevent.ReviewOverdue}, DisabledAt: &disabled},
		webhooks.Endpoint{ID: uuid.New(), Events: []domainevent.EventType{domainevent.ReviewDueSoon, domainevent.IncidentCreated}},
	)
	if _, err := f.s.ReviewReminders(ctx); err != nil {
		t.Fatal(err)
	}
	if got := reviewHooks(f); len(got) != 0 {
		t.Fatalf("overdue told to endpoints that do not take it: %+v", got)
	}
	for _, k := range f.st.ReminderKeys() {
		if strings.HasPrefix(k, "webhook:") {
			t.Fatalf("a review event was marked told with no one to tell: %s", k)
		}
	}

	f.addEndpoints(webhooks.Endpoint{ID: uuid.New(), Events: []domainevent.EventType{domainevent.ReviewOverdue}})
	if _, err := f.s.ReviewReminders(ctx); err != nil {
		t.Fatal(err)
	}
	got := reviewHooks(f)
	if len(got) != 1 {
		t.Fatalf("review events %+v, want one assessments.overdue", got)
	}
	a, ev := f.assessment(f.slack.ID), got[0]
	wantDue := clock{}.Now().AddDate(0, 0, -3).Format(time.DateOnly)
	if ev.Type != domainevent.ReviewOverdue || ev.AccountID != f.acc.ID || ev.Data.AssessmentID != a.ID || ev.Data.VendorID != f.slack.ID ||
		ev.Data.VendorName != "Slack" || ev.Data.ListID != f.list.ID || ev.Data.ListName != f.list.Name ||
		ev.Data.DueDate != wantDue || ev.Data.DaysLeft != -3 || !ev.OccurredAt.Equal(clock{}.Now()) {
		t.Fatalf("assessments.overdue %+v, want due %s three days ago", ev, wantDue)
	}
	if _, err := f.s.ReviewReminders(ctx); err != nil {
		t.Fatal(err)
	}
	if got := reviewHooks(f); len(got) != 1 {
		t.Fatalf("the same window told again: %+v", got)
	}
}

// TestReviewDueSoonEvent: a review inside a reminder window before its
// due date is assessments.due_soon with the days left; an endpoint that takes
// only assessments.overdue does not get it.
func TestReviewDueSoonEvent(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	approvedSlack(t, f, clock{}.Now().AddDate(-1, 0, 5)) // due in five days: the 7-day window
	f.addEndpoints(webhooks.Endpoint{ID: uuid.New(), Events: []domainevent.EventType{domainevent.ReviewOverdue}})
	if _, err := f.s.ReviewReminders(ctx); err != nil {
		t.Fatal(err)
	}
	if got := reviewHooks(f); len(got) != 0 {
		t.Fatalf("due soon told to an endpoint of overdue only: %+v", got)
	}
	f.addEndpoints(webhooks.Endpoint{ID: uuid.New(), Events: []domainevent.EventType{domainevent.ReviewDueSoon}})
	if _, err := f.s.ReviewReminders(ctx); err != nil {
		t.Fatal(err)
	}
	got := reviewHooks(f)
	if len(got) != 1 || got[0].Type != domainevent.ReviewDueSoon || got[0].Data.DaysLeft != 5 ||
		got[0].Data.DueDate != (clock{}).Now().AddDate(0, 0, 5).Format(time.DateOnly) {
		t.Fatalf("review events %+v, want one assessments.due_soon five days ahead", got)
	}
}

// TestStatusChangeEvents: creating an assessment with a status, and each
// later change of status, is one assessment.status_changed event; an edit
// that leaves the status is none.
func TestStatusChangeEvents(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	sel := assessments.VendorSel{VendorID: f.slack.ID}
	for _, in := range []assessments.Input{{Status: statusOf("in-progress")}, {Status: statusOf("in-progress"), UseCase: ptr("team chat")}, {Status: statusOf("approved")}} {
		if _, _, err := f.s.UpsertAssessment(ctx, f.owner, f.ref, lists.MasterRef, sel, in); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, ev := range f.hooks.all() {
		if ev.Type != domainevent.AssessmentStatusChanged || ev.AccountID != f.acc.ID || ev.Data.VendorName != "Slack" || ev.Data.ListName != f.list.Name {
			t.Fatalf("event %+v", ev)
		}
		got = append(got, ev.Data.OldStatus+">"+ev.Data.NewStatus)
	}
	want := assessments.NotStarted.String() + ">in-progress,in-progress>approved"
	if strings.Join(got, ",") != want {
		t.Fatalf("status changes %v, want %s", got, want)
	}
}

// TestRecentRatingChanges: the dashboard shows the rating changes of the
// vendors on the account's lists only, named as the list names them;
// the limit is bounded and the feed is for members, not viewers.
func TestRecentRatingChanges(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	approvedSlack(t, f, clock{}.Now())
	listed := vendors.RatingRecord{ID: uuid.New(), VendorID: f.slack.ID, Grade: "C", Changes: []vendors.RatingChange{{Kind: vendors.ChangeGradeDrop}}}
	elsewhere := vendors.RatingRecord{ID: uuid.New(), VendorID: uuid.New(), Grade: "F", Changes: []vendors.RatingChange{{Kind: vendors.ChangeGradeDrop}}}
	f.addVendors(vendors.Vendor{ID: elsewhere.VendorID, Name: "Elsewhere"})
	f.write(func(ctx context.Context, tx assessments.Tx) error {
		for _, r := range []vendors.RatingRecord{listed, elsewhere} {
			if err := tx.Profiles().AddRating(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	got, err := f.s.RecentRatingChanges(ctx, f.owner, f.ref, lists.ListRef{}, 0)
	if err != nil || len(got) != 1 || got[0].Record.ID != listed.ID || got[0].VendorName != "Slack" {
		t.Fatalf("rating changes %+v, %v", got, err)
	}
	if _, err := f.s.RecentRatingChanges(ctx, f.owner, f.ref, lists.ListRef{}, assessments.MaxIncidentLimit+1); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("a limit too large: %v", err)
	}
	if got, err := f.s.RecentRatingChanges(ctx, f.viewr, f.ref, lists.ListRef{}, 0); err != nil || len(got) != 1 {
		t.Fatalf("a viewer reads the rating changes like any read: %+v, %v", got, err)
	}
}

// TestReminderRecheckedBeforeSending: a queued reminder is not sent once
// the review was done meanwhile (its due date moved), nor to an address
// that stopped the account's reminders; a personal space's reminder calls
// it the reader's own.
func TestReminderRecheckedBeforeSending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// queued runs the reminder job over an overdue review of Slack
	// (recorded by approvedSlack) and returns the one mail it queued.
	queued := func(f fixture) outbox.ReminderMail {
		t.Helper()
		if n, err := f.s.ReviewReminders(ctx); err != nil || n != 1 {
			t.Fatalf("queued %d, %v", n, err)
		}
		for _, m := range f.outbox() {
			if p, ok := m.Payload.(outbox.ReminderMail); ok {
				return p
			}
		}
		t.Fatal("no reminder queued")
		return outbox.ReminderMail{}
	}

	overdue := clock{}.Now().AddDate(-1, 0, -3)
	f := newFixture(t)
	approvedSlack(t, f, overdue)
	rm := queued(f)
	f.reviewed(f.slack.ID, clock{}.Now()) // reviewed since: due in a year
	if err := f.s.SendReminder(ctx, rm); err != nil || len(f.mail.sent) != 0 {
		t.Fatalf("a reminder of a moved due date: %v, sent %+v", err, f.mail.sent)
	}

	f = newFixture(t)
	approvedSlack(t, f, overdue)
	rm = queued(f)
	f.write(func(ctx context.Context, tx assessments.Tx) error {
		_, err := tx.Reminders().Record(ctx, []string{assessments.OptOutKey(f.acc.ID, rm.Email)}, clock{}.Now())
		return err
	})
	if err := f.s.SendReminder(ctx, rm); err != nil || len(f.mail.sent) != 0 {
		t.Fatalf("a reminder to an address that opted out: %v, sent %+v", err, f.mail.sent)
	}

	// The account turns personal after the assessment is recorded: the
	// fixture's actors address it by id, which a personal space refuses.
	f = newFixture(t)
	approvedSlack(t, f, overdue)
	f.probe.personal.Store(true) // and reads as "Ann Stored Name"
	rm = queued(f)
	if err := f.s.SendReminder(ctx, rm); err != nil || len(f.mail.sent) != 1 {
		t.Fatalf("send: %v, sent %+v", err, f.mail.sent)
	}
	if body := f.mail.sent[0].Text; !strings.Contains(body, "your personal space") || strings.Contains(body, "Ann Stored Name") {
		t.Fatalf("a personal space's reminder reads %q", body)
	}
}
