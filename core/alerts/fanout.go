package alerts

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/google/uuid"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
)

// SendConfirmation mails a pending subscriber the link that confirms it
// (the KindSubscriberConfirm job).
func (s *Service) SendConfirmation(ctx context.Context, p outbox.SubscriberConfirm) error {
	var sub Subscriber
	var listName, accName string
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if sub, err = tx.Subscribers().Get(ctx, p.SubscriberID); err != nil {
			return err
		}
		l, err := tx.Lists().Get(ctx, sub.AccountID, sub.ListID)
		if err != nil {
			return err
		}
		acc, err := tx.Accounts().Get(ctx, sub.AccountID)
		listName, accName = l.Name, acc.Name
		return err
	})
	if errors.Is(err, core.ErrNotFound) {
		return nil // removed since: nothing to confirm
	}
	if err != nil {
		return err
	}
	if sub.Status == SubscriberConfirmed {
		return nil
	}
	exp := s.d.Now().Add(ConfirmTTL)
	tok := s.d.Signer.Sign(PurposeConfirm, sub.ID.String(), exp)
	m := mailtmpl.ConfirmMail(sub.Email, "confirm:"+p.EventID.String(), mailtmpl.ConfirmData{AccountName: accName, ListName: listName,
		ConfirmURL: s.d.PublicURL + "/subscribers/confirm?token=" + url.QueryEscape(tok), Expires: exp})
	return s.d.Mail.Once(ctx, m)
}

// FanOut splits an incident alert into one job per confirmed subscriber of
// every list that carries the vendor with alerts enabled. Backfilled
// incidents never alert.
func (s *Service) FanOut(ctx context.Context, p outbox.IncidentFanout) error {
	return s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		in, err := tx.Incidents().Get(ctx, p.IncidentID)
		if errors.Is(err, core.ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if in.Backfilled {
			return nil
		}
		return s.fanOut(ctx, tx, in.VendorID, func(r Recipient, vendor, account string) (outbox.Kind, any) {
			return outbox.KindAlertMail, outbox.AlertMail{IncidentID: in.ID, SubscriberID: r.SubscriberID,
				VendorName: vendor, ListName: r.ListName, AccountName: account}
		})
	})
}

// FanOutRating splits a rating change event (KindRatingChanged) into one
// mail job per confirmed subscriber of every list that carries the vendor
// with alerts enabled, as FanOut does for an incident.
func (s *Service) FanOutRating(ctx context.Context, p outbox.RatingChanged) error {
	return s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		rec, err := tx.Profiles().GetRating(ctx, p.EventID)
		if errors.Is(err, core.ErrNotFound) {
			return nil // the vendor's profile was deleted since
		}
		if err != nil {
			return err
		}
		return s.fanOut(ctx, tx, rec.VendorID, func(r Recipient, vendor, account string) (outbox.Kind, any) {
			return outbox.KindRatingMail, outbox.RatingMail{EventID: rec.ID, SubscriberID: r.SubscriberID,
				VendorName: vendor, ListName: r.ListName, AccountName: account}
		})
	})
}

// fanOut adds one message per recipient of the vendor's alerts, made by
// mk with the vendor's and the recipient's account's names.
func (s *Service) fanOut(ctx context.Context, tx Tx, vendorID uuid.UUID, mk func(r Recipient, vendor, account string) (outbox.Kind, any)) error {
	rs, err := tx.Subscribers().Recipients(ctx, vendorID)
	if err != nil {
		return err
	}
	v, err := tx.Vendors().Get(ctx, vendorID)
	if err != nil {
		return err
	}
	names := map[uuid.UUID]string{}
	msgs := make([]outbox.Message, 0, len(rs))
	for _, r := range rs {
		name, ok := names[r.AccountID]
		if !ok {
			acc, err := tx.Accounts().Get(ctx, r.AccountID)
			if err != nil {
				return err
			}
			name, names[r.AccountID] = acc.Name, acc.Name
		}
		kind, payload := mk(r, v.Name.String(), name)
		msgs = append(msgs, outbox.New(s.d.IDs.New(), kind, payload, s.d.Now()))
	}
	if len(msgs) == 0 {
		return nil
	}
	return uow.Add(ctx, tx, msgs...)
}

// AlertKey is the delivery key of the alert for one incident and subscriber.
func AlertKey(incidentID, subscriberID fmt.Stringer) string {
	return "alert:" + incidentID.String() + ":" + subscriberID.String()
}

// SendAlert mails one alert of the fan-out, unless the recipient or the
// list changed their mind since.
func (s *Service) SendAlert(ctx context.Context, p outbox.AlertMail) error {
	err := s.d.Mail.Build(ctx, AlertKey(p.IncidentID, p.SubscriberID), func(ctx context.Context, tx Tx) (mailtmpl.Mail, bool, error) {
		in, err := tx.Incidents().Get(ctx, p.IncidentID)
		if err != nil {
			return mailtmpl.Mail{}, false, err
		}
		sub, entry, ok, err := s.stillAlerting(ctx, tx, p.SubscriberID, in.VendorID)
		if err != nil || !ok || in.Backfilled {
			return mailtmpl.Mail{}, false, err
		}
		d := mailtmpl.AlertData{
			VendorName: p.VendorName, ListName: p.ListName, AccountName: p.AccountName, Title: in.Title, Summary: in.Summary,
			Severity: in.Severity, Status: in.Status, URL: in.URL, PublishedAt: in.PublishedAt, ImpactedData: in.PotentiallyImpactedData,
			AffectedService: in.AffectedService, UnsubscribeURL: s.unsubscribeURL(sub),
		}
		if in.Match != nil {
			d.Evidence = fmt.Sprintf("%s: %s (confidence %.2f)", in.Match.Rule, in.Match.MatchedText, in.Match.Confidence)
		}
		for _, src := range in.Sources {
			if src.URL != "" {
				d.Sources = append(d.Sources, src.URL)
			}
		}
		if in.AffectedService != "" && in.Match != nil {
			names := make([]string, len(entry.Products))
			for i, pr := range entry.Products {
				names[i] = pr.Name
			}
			recorded := incidents.RecordsProduct(names, in.AffectedService)
			d.ProductOnList = &recorded
		}
		return mailtmpl.AlertMail(sub.Email, AlertKey(in.ID, sub.ID), d), true, nil
	})
	if errors.Is(err, core.ErrNotFound) {
		return nil // unsubscribed or deleted since the fan-out
	}
	return err
}

// RatingAlertKey is the delivery key of the mail of one rating change
// event to one subscriber.
func RatingAlertKey(eventID, subscriberID fmt.Stringer) string {
	return "rating-alert:" + eventID.String() + ":" + subscriberID.String()
}

// SendRatingAlert mails one rating change of the fan-out, once per event
// and subscriber, unless the recipient or the list changed their mind.
func (s *Service) SendRatingAlert(ctx context.Context, p outbox.RatingMail) error {
	err := s.d.Mail.Build(ctx, RatingAlertKey(p.EventID, p.SubscriberID), func(ctx context.Context, tx Tx) (mailtmpl.Mail, bool, error) {
		rec, err := tx.Profiles().GetRating(ctx, p.EventID)
		if err != nil {
			return mailtmpl.Mail{}, false, err
		}
		sub, _, ok, err := s.stillAlerting(ctx, tx, p.SubscriberID, rec.VendorID)
		if err != nil || !ok {
			return mailtmpl.Mail{}, false, err
		}
		prev, err := tx.Profiles().Ratings(ctx, rec.VendorID, &vendors.RatingCursor{At: rec.ScannedAt, ID: rec.ID}, 1)
		if err != nil {
			return mailtmpl.Mail{}, false, err
		}
		d := mailtmpl.RatingAlertData{VendorName: p.VendorName, ListName: p.ListName, AccountName: p.AccountName, Grade: rec.Grade,
			ScannedAt: rec.ScannedAt, UnsubscribeURL: s.unsubscribeURL(sub)}
		if len(prev) > 0 {
			d.PreviousGrade = prev[0].Grade
		}
		for _, c := range rec.Changes {
			d.Changes = append(d.Changes, c.Detail)
		}
		return mailtmpl.RatingAlertMail(sub.Email, RatingAlertKey(rec.ID, sub.ID), d), true, nil
	})
	if errors.Is(err, core.ErrNotFound) {
		return nil // unsubscribed or deleted since the fan-out
	}
	return err
}

// stillAlerting reads the subscriber and reports whether it still gets
// the vendor's alerts: confirmed, and its list still carries the vendor
// with alerts on (they may have been turned off, or the vendor taken off
// the list, since the fan-out).
func (s *Service) stillAlerting(ctx context.Context, tx Tx, subscriberID, vendorID uuid.UUID) (Subscriber, lists.Entry, bool, error) {
	sub, err := tx.Subscribers().Get(ctx, subscriberID)
	if err != nil {
		return sub, lists.Entry{}, false, err
	}
	if sub.Status != SubscriberConfirmed {
		return sub, lists.Entry{}, false, nil // the recipient's choice since the fan-out is respected
	}
	entries, err := tx.Lists().EntriesOf(ctx, sub.ListID, []uuid.UUID{vendorID})
	if err != nil {
		return sub, lists.Entry{}, false, err
	}
	for _, e := range entries {
		if e.VendorID == vendorID {
			return sub, e, e.AlertsEnabled, nil
		}
	}
	return sub, lists.Entry{}, false, nil
}

// unsubscribeURL is the one-click unsubscribe link of an alert mail.
func (s *Service) unsubscribeURL(sub Subscriber) string {
	tok := s.d.Signer.Sign(PurposeUnsubscribe, sub.ID.String(), s.d.Now().Add(mailtmpl.UnsubscribeTTL))
	return s.d.PublicURL + "/unsubscribe?token=" + url.QueryEscape(tok)
}
