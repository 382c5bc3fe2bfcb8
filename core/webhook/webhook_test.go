package webhook_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/webhook"
)

func TestParseEvents(t *testing.T) {
	t.Parallel()
	got, err := webhook.ParseEvents([]string{"review.overdue", " incident.created", "review.overdue"})
	if err != nil || !slices.Equal(got, []webhook.EventType{webhook.IncidentCreated, webhook.ReviewOverdue}) {
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
	a := webhook.Assessment{AccountID: uuid.New(), AssessmentID: uuid.New(), VendorName: "Slack", ListName: "Main"}
	if ev := webhook.ReviewDue(a, "2026-01-01", -1, at); ev.Type != webhook.ReviewOverdue || ev.ForVendor() || ev.Data.ListName != "Main" {
		t.Fatalf("overdue = %+v", ev)
	}
	if ev := webhook.ReviewDue(a, "2026-01-03", 0, at); ev.Type != webhook.ReviewDueSoon {
		t.Fatalf("due today = %+v", ev)
	}
	if ev := webhook.RatingChange(uuid.New(), "Slack", "A", "C", 90, 60, []string{"grade dropped"}, at); ev.Type != webhook.RatingChanged || !ev.ForVendor() {
		t.Fatalf("rating = %+v", ev)
	}
	e := webhook.Endpoint{Events: []webhook.EventType{webhook.IncidentCreated}}
	if !e.Wants(webhook.IncidentCreated) || e.Wants(webhook.ReviewOverdue) {
		t.Fatal("Wants")
	}
	e.DisabledAt = &at
	if e.Wants(webhook.IncidentCreated) {
		t.Fatal("a disabled endpoint wants nothing")
	}
}
