package webhook_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/webhook"
)

func TestParseEvents(t *testing.T) {
	t.Parallel()
	got, err := webhook.ParseEvents([]string{"review.overdue", " incident.created", "review.overdue"})
	if err != nil || !slices.Equal(got, []domainevent.EventType{domainevent.IncidentCreated, domainevent.ReviewOverdue}) {
		t.Fatalf("ParseEvents = %v, %v", got, err)
	}
	for _, in := range [][]string{nil, {"webhook.ping"}, {"vendor.deleted"}} {
		_, err := webhook.ParseEvents(in)
		if f := core.Failures(err); !errors.Is(err, core.ErrInvalid) || len(f) != 1 || f[0].Field != "CreateInput.Events" {
			t.Errorf("ParseEvents(%v) = %v", in, err)
		}
	}
	if _, err := webhook.CheckDescription(strings.Repeat("x", webhook.MaxDescription+1)); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("long description: %v", err)
	}
}

func TestDeliveryIdentity(t *testing.T) {
	t.Parallel()
	ev, e1, e2 := uuid.New(), uuid.New(), uuid.New()
	again := webhook.DeliveryID(ev, e1)
	if webhook.DeliveryID(ev, e1) != again || again == webhook.DeliveryID(ev, e2) {
		t.Fatal("a delivery id is not one per event and endpoint")
	}
	if id := webhook.MessageID(webhook.DeliveryID(ev, e1)); !strings.HasPrefix(id, "msg_") || len(id) != 36 || strings.Contains(id, "-") {
		t.Fatalf("MessageID = %q", id)
	}
}

func TestEventsAndWants(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := domainevent.Assessment{AccountID: uuid.New(), AssessmentID: uuid.New(), VendorName: "Slack", ListName: "Main"}
	if ev := domainevent.ReviewDue(a, "2026-01-01", -1, at); ev.Type != domainevent.ReviewOverdue || ev.ForVendor() || ev.Data.ListName != "Main" {
		t.Fatalf("overdue = %+v", ev)
	}
	if ev := domainevent.ReviewDue(a, "2026-01-03", 0, at); ev.Type != domainevent.ReviewDueSoon {
		t.Fatalf("due today = %+v", ev)
	}
	if ev := domainevent.RatingChange(uuid.New(), "Slack", "A", "C", 90, 60, []string{"grade dropped"}, at); ev.Type != domainevent.RatingChanged || !ev.ForVendor() {
		t.Fatalf("rating = %+v", ev)
	}
	e := webhook.Endpoint{Events: []domainevent.EventType{domainevent.IncidentCreated}}
	if !e.Wants(domainevent.IncidentCreated) || e.Wants(domainevent.ReviewOverdue) {
		t.Fatal("Wants")
	}
	e.DisabledAt = &at
	if e.Wants(domainevent.IncidentCreated) {
		t.Fatal("a disabled endpoint wants nothing")
	}
}

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
