package webhook_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/directory"
	"github.com/vetted-dev/vetted/core/webhook"
)

// An incident is a directory event: it names no account (so it fans out to
// every account carrying the vendor), happens when the incident was
// recorded, and carries its publication time in UTC whatever zone the
// source gave.
func TestIncidentEvent(t *testing.T) {
	t.Parallel()
	recorded := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	published := time.Date(2026, 3, 4, 1, 0, 0, 0, time.FixedZone("EST", -5*3600))
	v := directory.Vendor{ID: uuid.New(), Name: "Slack"}
	in := directory.Incident{ID: uuid.New(), VendorID: v.ID, Title: "Breach", Severity: "high",
		URL: "https://example.com/breach", PublishedAt: published, CreatedAt: recorded}
	ev := webhook.IncidentEvent(v, in)
	if ev.Type != webhook.IncidentCreated || !ev.ForVendor() || !ev.OccurredAt.Equal(recorded) {
		t.Fatalf("IncidentEvent = %+v", ev)
	}
	d := ev.Data
	if d.VendorID != v.ID || d.VendorName != "Slack" || d.IncidentID != in.ID || d.Title != "Breach" ||
		d.Severity != "high" || d.URL != in.URL {
		t.Fatalf("IncidentEvent data = %+v", d)
	}
	if d.PublishedAt.Location() != time.UTC || !d.PublishedAt.Equal(published) {
		t.Fatalf("PublishedAt = %v, want %v in UTC", d.PublishedAt, published)
	}
}

// A status change is told to the assessment's account only, and says both
// the old and the new status along with what the assessment is about.
func TestStatusChange(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := webhook.Assessment{AccountID: uuid.New(), AssessmentID: uuid.New(), VendorID: uuid.New(),
		VendorName: "Slack", ListID: uuid.New(), ListName: "Main"}
	ev := webhook.StatusChange(a, "in_review", "approved", at)
	if ev.Type != webhook.AssessmentStatusChanged || ev.ForVendor() || ev.AccountID != a.AccountID || !ev.OccurredAt.Equal(at) {
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
	a := webhook.Assessment{AccountID: uuid.New(), AssessmentID: uuid.New()}
	for _, c := range []struct {
		days int
		want webhook.EventType
	}{{7, webhook.ReviewDueSoon}, {0, webhook.ReviewDueSoon}, {-1, webhook.ReviewOverdue}, {-30, webhook.ReviewOverdue}} {
		ev := webhook.ReviewDue(a, "2026-01-09", c.days, at)
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
	ev := webhook.VendorsChanged(acct, list, "Main", added, removed, at)
	if ev.Type != webhook.ListVendorsChanged || ev.ForVendor() || ev.AccountID != acct || !ev.OccurredAt.Equal(at) {
		t.Fatalf("VendorsChanged = %+v", ev)
	}
	if ev.Data.ListID != list || ev.Data.ListName != "Main" || !slices.Equal(ev.Data.Added, added) || !slices.Equal(ev.Data.Removed, removed) {
		t.Fatalf("VendorsChanged data = %+v", ev.Data)
	}
}

// An attempt counts as delivered exactly when it recorded no error, and the
// outcome's error text is what the attempt keeps.
func TestAttemptOutcome(t *testing.T) {
	t.Parallel()
	if got := (webhook.Outcome{StatusCode: 204}).ErrorText(); got != "" {
		t.Fatalf("successful outcome ErrorText = %q", got)
	}
	failed := webhook.Outcome{StatusCode: 500, Err: errors.New("status 500")}
	if got := failed.ErrorText(); got != "status 500" {
		t.Fatalf("failed outcome ErrorText = %q", got)
	}
	ok := webhook.Attempt{Number: 1, StatusCode: 204}
	bad := webhook.Attempt{DeliveryID: uuid.New(), Number: 2, StatusCode: 500, Error: failed.ErrorText()}
	if !ok.OK() || bad.OK() {
		t.Fatalf("OK: success %v, failure %v", ok.OK(), bad.OK())
	}
	// The attempt's log line must name the delivery, the try and what came back.
	s := bad.String()
	for _, want := range []string{bad.DeliveryID.String(), "attempt 2", "500", "status 500"} {
		if !strings.Contains(s, want) {
			t.Errorf("String() = %q, missing %q", s, want)
		}
	}
}

// A description is trimmed, and exactly the bound is still accepted.
func TestCheckDescriptionTrimsAndBounds(t *testing.T) {
	t.Parallel()
	if got, err := webhook.CheckDescription("  alerts to ops \n"); err != nil || got != "alerts to ops" {
		t.Fatalf("CheckDescription = %q, %v", got, err)
	}
	exact := strings.Repeat("x", webhook.MaxDescription)
	if got, err := webhook.CheckDescription("  " + exact + "  "); err != nil || got != exact {
		t.Fatalf("description of exactly %d characters: %q, %v", webhook.MaxDescription, got, err)
	}
}
