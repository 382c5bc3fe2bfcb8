package api

import (
	"context"
	"fmt"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/vetted-dev/vetted/core/assessments"
)

// CalendarLinkJSON is a member's personal review calendar link.
type CalendarLinkJSON struct {
	AccountID string    `json:"account_id" format:"uuid"`
	URL       string    `json:"url" format:"uri" doc:"Subscribe to it in a calendar app; it needs no token and works until revoked"`
	CreatedAt time.Time `json:"created_at"`
}

type calendarLinkOut struct{ Body CalendarLinkJSON }

type calendarFeedIn struct {
	Token string `query:"token" required:"true" doc:"The key the link carries"`
}

type calendarFeedOut struct {
	ContentType  string `header:"Content-Type"`
	CacheControl string `header:"Cache-Control"`
	Body         []byte
}

// calendarEvents renders the feed: one all-day event per review due, on
// its due date (UTC), with a UID that stays the assessment's so that
// calendar apps update an event in place when the date moves.
func calendarEvents(f assessments.CalendarFeed) []byte {
	cal := ics.NewCalendarFor("Vetted")
	cal.SetMethod(ics.MethodPublish)
	cal.SetName("Vendor reviews: " + f.AccountName)
	cal.SetXWRCalName("Vendor reviews: " + f.AccountName)
	cal.SetRefreshInterval("PT12H")
	for _, e := range f.Events {
		a := e.Assessment
		ev := cal.AddEvent(a.ID.String() + "@vetted")
		ev.SetDtStampTime(a.UpdatedAt)
		ev.SetLastModifiedAt(a.UpdatedAt)
		ev.SetAllDayStartAt(a.Due.NextReviewAt)
		ev.SetAllDayEndAt(a.Due.NextReviewAt.AddDate(0, 0, 1))
		ev.SetSummary("Review due: " + a.VendorName)
		tier := string(a.Tier)
		if tier == "" {
			tier = "not tiered"
		}
		ev.SetDescription(fmt.Sprintf("%s on the list %s: %s (%s, status %s).", a.VendorName, e.ListName,
			strings.ReplaceAll(string(a.Due.State), "_", " "), tier, a.Status))
	}
	return []byte(cal.Serialize())
}

// calendarLink answers get-review-calendar.
func (h assessmentsHandler) calendarLink(ctx context.Context, in *reviewPolicyIn) (*calendarLinkOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	l, err := h.assessments.ReviewCalendarLink(ctx, actor(ctx), acc)
	if err != nil {
		return nil, err
	}
	return &calendarLinkOut{Body: CalendarLinkJSON{AccountID: l.AccountID.String(), URL: l.URL, CreatedAt: l.CreatedAt}}, nil
}

// revokeCalendar answers delete-review-calendar.
func (h assessmentsHandler) revokeCalendar(ctx context.Context, in *reviewPolicyIn) (*struct{}, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	if err := h.assessments.RevokeReviewCalendar(ctx, actor(ctx), acc); err != nil {
		return nil, err
	}
	return nil, nil
}

// calendarFeed answers get-review-calendar-feed.
func (h assessmentsHandler) calendarFeed(ctx context.Context, in *calendarFeedIn) (*calendarFeedOut, error) {
	f, err := h.assessments.ReviewCalendarFeed(ctx, in.Token)
	if err != nil {
		return nil, err
	}
	return &calendarFeedOut{ContentType: "text/calendar; charset=utf-8", CacheControl: "private, max-age=300",
		Body: calendarEvents(f)}, nil
}
