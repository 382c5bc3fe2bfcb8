package domainevent_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
)

// A status change is told to the assessment's account only, and says both
// the old and the new status along with what the assessment is about.
func TestStatusChange(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := domainevent.Assessment{AccountID: uuid.New(), AssessmentID: uuid.New(), VendorID: uuid.New(),
		VendorName: "Slack", ListID: uuid.New(), ListName: "Main"}
	ev := domainevent.StatusChange(a, "in_review", "approved", at)
	if ev.Type != domainevent.AssessmentStatusChanged || ev.ForVendor() || ev.AccountID != a.AccountID || !ev.OccurredAt.Equal(at) {
		t.Fatalf("StatusChange = %+v", ev)
	}
	d := ev.Data
	if d.OldStatus != "in_review" || d.NewStatus != "approved" || d.AssessmentID != a.AssessmentID ||
		d.VendorID != a.VendorID || d.VendorName != "Slack" || d.ListID != a.ListID || d.ListName != "Main" {
		t.Fatalf("StatusChange data = %+v", d)
	}
	if d.DueDate != "" || d.DaysLeft != 0 {
		t.Fatalf("a status change carries no review fields: %+v", d)
	}
}

// The review event carries the due date and days left, and switches from
// due_soon to overdue only once days left is negative.
func TestReviewDueCarriesDueDate(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := domainevent.Assessment{AccountID: uuid.New(), AssessmentID: uuid.New()}
	for _, c := range []struct {
		days int
		want domainevent.EventType
	}{{7, domainevent.ReviewDueSoon}, {0, domainevent.ReviewDueSoon}, {-1, domainevent.ReviewOverdue}, {-30, domainevent.ReviewOverdue}} {
		ev := domainevent.ReviewDue(a, "2026-01-09", c.days, at)
		if ev.Type != c.want || ev.Data.DaysLeft != c.days || ev.Data.DueDate != "2026-01-09" || ev.AccountID != a.AccountID {
			t.Errorf("ReviewDue(%d) = %+v, want type %s", c.days, ev, c.want)
		}
	}
}

// A list change names the account, the list and both sides of the change.
func TestVendorsChanged(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	acct, list := uuid.New(), uuid.New()
	added, removed := []uuid.UUID{uuid.New(), uuid.New()}, []uuid.UUID{uuid.New()}
	ev := domainevent.VendorsChanged(acct, list, "Main", added, removed, at)
	if ev.Type != domainevent.ListVendorsChanged || ev.ForVendor() || ev.AccountID != acct || !ev.OccurredAt.Equal(at) {
		t.Fatalf("VendorsChanged = %+v", ev)
	}
	if ev.Data.ListID != list || ev.Data.ListName != "Main" || !slices.Equal(ev.Data.Added, added) || !slices.Equal(ev.Data.Removed, removed) {
		t.Fatalf("VendorsChanged data = %+v", ev.Data)
	}
}

// An attempt counts as delivered exactly when it recorded no error, and the
