package alerts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

// TestRatingFanOut: a rating change event makes one mail job per
// confirmed subscriber of a list with alerts on, and each is mailed once,
// with the grade before and after, the changes, and a one-click
// unsubscribe; an event that is gone sends nothing.
func TestRatingFanOut(t *testing.T) {
	t.Parallel()
	f := setup(t)
	svc, caller, lr, mails := f.svc, f.caller, f.lr, f.mails
	ctx := context.Background()
	slack := f.onList("Slack")
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	before := vendors.RatingRecord{ID: uuid.New(), VendorID: slack.ID, ScannedAt: t0, Grade: "A"}
	event := vendors.RatingRecord{ID: uuid.New(), VendorID: slack.ID, ScannedAt: t0.Add(24 * time.Hour), Grade: "C",
		Changes: []vendors.RatingChange{{Kind: vendors.ChangeGradeDrop, Detail: "grade dropped from A to C"}}}
	f.write(func(ctx context.Context, tx alerts.Tx) error {
		for _, r := range []vendors.RatingRecord{before, event} {
			if err := tx.Profiles().AddRating(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if _, err := svc.AddSubscribers(ctx, caller, f.ref, lr, []string{"ann@acme.test", "pending@example.test"}); err != nil {
		t.Fatal(err)
	}
	f.clearOutbox()
	for _, id := range []uuid.UUID{uuid.New(), event.ID} {
		if err := svc.FanOutRating(ctx, outbox.RatingChanged{EventID: id, VendorID: slack.ID}); err != nil {
			t.Fatal(err)
		}
	}
	queued := f.outbox()
	if len(queued) != 1 || queued[0].Kind != outbox.KindRatingMail {
		t.Fatalf("fan-out queued %+v", queued)
	}
	p := queued[0].Payload.(outbox.RatingMail)
	if p.AccountName != "Acme" || p.VendorName != "Slack" || p.ListName != "Critical" || p.EventID != event.ID {
		t.Fatalf("rating mail %+v", p)
	}
	for range 2 {
		if err := svc.SendRatingAlert(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if len(mails.sent) != 1 {
		t.Fatalf("sent %d mails, want 1", len(mails.sent))
	}
	m := mails.sent[0]
	if m.To != "ann@acme.test" || m.Key != alerts.RatingAlertKey(event.ID, p.SubscriberID) || !strings.Contains(m.Text, "grade A -> C") ||
		!strings.Contains(m.Text, "grade dropped from A to C") || m.Headers["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
		t.Fatalf("mail %+v", m)
	}
	p.SubscriberID = uuid.New() // unsubscribed since
	if err := svc.SendRatingAlert(ctx, p); err != nil {
		t.Fatal(err)
	}
}
