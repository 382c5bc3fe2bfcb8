package webhooks_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/webhooks"
)

func TestParseEvents(t *testing.T) {
	t.Parallel()
	got, err := webhooks.ParseEvents([]string{"review.overdue", " incident.created", "review.overdue"})
	if err != nil || !slices.Equal(got, []domainevent.EventType{domainevent.IncidentCreated, domainevent.ReviewOverdue}) {
		t.Fatalf("ParseEvents = %v, %v", got, err)
	}
	for _, in := range [][]string{nil, {"webhooks.ping"}, {"vendor.deleted"}} {
		_, err := webhooks.ParseEvents(in)
		if f := core.Failures(err); !errors.Is(err, core.ErrInvalid) || len(f) != 1 || f[0].Field != "CreateInput.Events" {
			t.Errorf("ParseEvents(%v) = %v", in, err)
		}
	}
	if _, err := webhooks.CheckDescription(strings.Repeat("x", webhooks.MaxDescription+1)); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("long description: %v", err)
	}
}

func TestDeliveryIdentity(t *testing.T) {
	t.Parallel()
	ev, e1, e2 := uuid.New(), uuid.New(), uuid.New()
	again := webhooks.DeliveryID(ev, e1)
	if webhooks.DeliveryID(ev, e1) != again || again == webhooks.DeliveryID(ev, e2) {
		t.Fatal("a delivery id is not one per event and endpoint")
	}
	if id := webhooks.MessageID(webhooks.DeliveryID(ev, e1)); !strings.HasPrefix(id, "msg_") || len(id) != 36 || strings.Contains(id, "-") {
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
	e := webhooks.Endpoint{Events: []domainevent.EventType{domainevent.IncidentCreated}}
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
	if got := (webhooks.Outcome{StatusCode: 204}).ErrorText(); got != "" {
		t.Fatalf("successful outcome ErrorText = %q", got)
	}
	failed := webhooks.Outcome{StatusCode: 500, Err: errors.New("status 500")}
	if got := failed.ErrorText(); got != "status 500" {
		t.Fatalf("failed outcome ErrorText = %q", got)
	}
	ok := webhooks.Attempt{Number: 1, StatusCode: 204}
	bad := webhooks.Attempt{DeliveryID: uuid.New(), Number: 2, StatusCode: 500, Error: failed.ErrorText()}
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
	if got, err := webhooks.CheckDescription("  alerts to ops \n"); err != nil || got != "alerts to ops" {
		t.Fatalf("CheckDescription = %q, %v", got, err)
	}
	exact := strings.Repeat("x", webhooks.MaxDescription)
	if got, err := webhooks.CheckDescription("  " + exact + "  "); err != nil || got != exact {
		t.Fatalf("description of exactly %d characters: %q, %v", webhooks.MaxDescription, got, err)
	}
}
