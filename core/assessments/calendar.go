package assessments

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
)

// calendarPurpose is the purpose of calendar feed tokens. A token carries
// the id of a calendar key; it never expires on its own (calendar apps
// keep a subscription for years) and dies when its key is deleted.
const calendarPurpose = "review-calendar"

// calendarLife is how long a feed token is signed for.
const calendarLife = 100 * 365 * 24 * time.Hour

// CalendarFeedPath is the path of the feed, relative to PublicURL.
const CalendarFeedPath = "/review-calendar/feed.ics"

// CalendarLink is a member's personal feed link.
type CalendarLink struct {
	AccountID uuid.UUID
	URL       string
	CreatedAt time.Time
}

// ReviewCalendarLink returns the caller's personal feed link for an account
// (viewer or above), making its key the first time.
func (s *Service) ReviewCalendarLink(ctx context.Context, a accounts.Actor, ref accounts.AccountRef) (CalendarLink, error) {
	var k CalendarKey
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		k, err = tx.CalendarKeys().Get(ctx, acc.Account.ID, a.UserID)
		if !errors.Is(err, core.ErrNotFound) {
			return err
		}
		k = CalendarKey{ID: s.d.IDs.New(), AccountID: acc.Account.ID, UserID: a.UserID, CreatedAt: s.d.Now()}
		return tx.CalendarKeys().Create(ctx, k)
	})
	if err != nil {
		return CalendarLink{}, err
	}
	tok := s.d.Signer.Sign(calendarPurpose, k.ID.String(), k.CreatedAt.Add(calendarLife))
	return CalendarLink{AccountID: k.AccountID, URL: s.d.PublicURL + CalendarFeedPath + "?token=" + url.QueryEscape(tok), CreatedAt: k.CreatedAt}, nil
}

// RevokeReviewCalendar deletes the caller's feed key for an account (if
// any): its link answers 404 from then on, and the next link is a new one.
func (s *Service) RevokeReviewCalendar(ctx context.Context, a accounts.Actor, ref accounts.AccountRef) error {
	return s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		err = tx.CalendarKeys().Delete(ctx, acc.Account.ID, a.UserID)
		if errors.Is(err, core.ErrNotFound) {
			return nil // revoking is idempotent
		}
		return err
	})
}

// CalendarEvent is a review due, as the feed shows it.
type CalendarEvent struct {
	Assessment Assessment
	ListName   string
}

// CalendarFeed is what a feed link shows: the account's reviews that have
// a due date, soonest first.
type CalendarFeed struct {
	AccountName string
	Events      []CalendarEvent
}

// ReviewCalendarFeed answers a feed link. Any token that is not a live
// link (bad signature, revoked key, a member who left, an inactive
// account) is not found: the link says nothing about why.
func (s *Service) ReviewCalendarFeed(ctx context.Context, token string) (CalendarFeed, error) {
	gone := core.NotFound("no such calendar")
	subj, err := s.d.Signer.Verify(calendarPurpose, token, s.d.Now())
	if err != nil {
		return CalendarFeed{}, gone
	}
	id, err := uuid.Parse(subj)
	if err != nil {
		return CalendarFeed{}, gone
	}
	var out CalendarFeed
	err = s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		k, err := tx.CalendarKeys().GetByID(ctx, id)
		if errors.Is(err, core.ErrNotFound) {
			return gone
		}
		if err != nil {
			return err
		}
		m, err := tx.Accounts().MembershipOf(ctx, k.AccountID, k.UserID)
		if errors.Is(err, core.ErrNotFound) || (err == nil && !m.Account.Active) {
			return gone
		}
		if err != nil {
			return err
		}
		out.AccountName = m.Account.Name
		as, err := tx.Assessments().Find(ctx, AssessmentFilter{AccountID: k.AccountID})
		if err != nil {
			return err
		}
		p, _, err := policyOf(ctx, tx, k.AccountID)
		if err != nil {
			return err
		}
		schedule(as, p, s.d.Now())
		ls, err := tx.Lists().ListByAccount(ctx, k.AccountID)
		if err != nil {
			return err
		}
		names := make(map[uuid.UUID]string, len(ls))
		for _, l := range ls {
			names[l.ID] = l.Name
		}
		for _, a := range as {
			if !a.Due.NextReviewAt.IsZero() {
				out.Events = append(out.Events, CalendarEvent{Assessment: a, ListName: names[a.ListID]})
			}
		}
		slices.SortStableFunc(out.Events, func(x, y CalendarEvent) int {
			return x.Assessment.Due.NextReviewAt.Compare(y.Assessment.Due.NextReviewAt)
		})
		return nil
	})
	return out, err
}
