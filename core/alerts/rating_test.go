package alerts_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

type profiles struct {
	vendors.ProfileRepo
	s *store
}

func (r profiles) GetRating(_ context.Context, id uuid.UUID) (vendors.RatingRecord, error) {
	for _, rec := range r.s.ratings {
		if rec.ID == id {
			return rec, nil
		}
	}
	return vendors.RatingRecord{}, core.ErrNotFound
}

// Ratings is the records before the cursor's, newest first (the alert
// reads the scan before the event's).
func (r profiles) Ratings(_ context.Context, _ uuid.UUID, after *vendors.RatingCursor, limit int) ([]vendors.RatingRecord, error) {
	var out []vendors.RatingRecord
	for i := len(r.s.ratings) - 1; i >= 0 && len(out) < limit; i-- {
		if after == nil || r.s.ratings[i].ScannedAt.Before(after.At) {
			out = append(out, r.s.ratings[i])
		}
	}
	return out, nil
}

// TestRatingFanOut: a rating change event makes one mail job per
// confirmed subscriber of a list with alerts on, and each is mailed once,
// with the grade before and after, the changes, and a one-click
// unsubscribe; an event that is gone sends nothing.
func TestRatingFanOut(t *testing.T) {
	t.Parallel()
	svc, st, _, caller, lr, mails := setup(t)
	ctx := context.Background()
	st.vendor, st.alertsOn = vendors.Vendor{ID: uuid.New(), Name: "Slack"}, true
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	before := vendors.RatingRecord{ID: uuid.New(), VendorID: st.vendor.ID, ScannedAt: t0, Grade: "A"}
	event := vendors.RatingRecord{ID: uuid.New(), VendorID: st.vendor.ID, ScannedAt: t0.Add(24 * time.Hour), Grade: "C",
		Changes: []vendors.RatingChange{{Kind: vendors.ChangeGradeDrop, Detail: "grade dropped from A to C"}}}
	st.ratings = []vendors.RatingRecord{before, event}
	if _, err := svc.AddSubscribers(ctx, caller, accounts.AccountRef{ID: st.acc.ID}, lr, []string{"ann@acme.test", "pending@example.test"}); err != nil {
		t.Fatal(err)
	}
	st.outbox = nil
	for _, id := range []uuid.UUID{uuid.New(), event.ID} {
		if err := svc.FanOutRating(ctx, outbox.RatingChanged{EventID: id, VendorID: st.vendor.ID}); err != nil {
			t.Fatal(err)
		}
	}
	if len(st.outbox) != 1 || st.outbox[0].Kind != outbox.KindRatingMail {
		t.Fatalf("fan-out queued %+v", st.outbox)
	}
	p := st.outbox[0].Payload.(outbox.RatingMail)
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
