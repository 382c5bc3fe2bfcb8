package alerts

import (
	"context"
	"errors"
	"fmt"
	"github.com/google/uuid"
	"net/url"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/notify"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/subscriber"
	"github.com/vetted-dev/vetted/ports"
)

// SendConfirmation mails a pending subscriber the link that confirms it
// (the KindSubscriberConfirm job).
func (s *Service) SendConfirmation(ctx context.Context, p outbox.SubscriberConfirm) error {
	var sub subscriber.Subscriber
	var listName, accName string
	err := s.d.View(ctx, func(ctx context.Context, tx ports.Tx) error {
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
	if sub.Status == subscriber.StatusConfirmed {
		return nil
	}
	exp := s.d.Now().Add(ConfirmTTL)
	tok := s.d.Signer.Sign(PurposeConfirm, sub.ID.String(), exp)
	m := notify.ConfirmMail(sub.Email, "confirm:"+p.EventID.String(), notify.ConfirmData{AccountName: accName, ListName: listName,
		ConfirmURL: s.d.PublicURL + "/subscribers/confirm?token=" + url.QueryEscape(tok), Expires: exp})
	return s.d.Mail.Once(ctx, m)
}

// FanOut splits an incident alert into one job per confirmed subscriber of
// every list that carries the vendor with alerts enabled. Backfilled
// incidents never alert.
func (s *Service) FanOut(ctx context.Context, p outbox.IncidentFanout) error {
	return s.d.Write(ctx, func(ctx context.Context, tx ports.Tx) error {
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
		rs, err := tx.Subscribers().Recipients(ctx, in.VendorID)
		if err != nil {
			return err
		}
		v, err := tx.Vendors().Get(ctx, in.VendorID)
		if err != nil {
			return err
		}
		accounts := map[uuid.UUID]string{}
		msgs := make([]outbox.Message, 0, len(rs))
		for _, r := range rs {
			name, ok := accounts[r.AccountID]
			if !ok {
				acc, err := tx.Accounts().Get(ctx, r.AccountID)
				if err != nil {
					return err
				}
				name, accounts[r.AccountID] = acc.Name, acc.Name
			}
			msgs = append(msgs, outbox.New(s.d.IDs.New(), outbox.KindAlertMail, outbox.AlertMail{IncidentID: in.ID, SubscriberID: r.SubscriberID,
				VendorName: v.Name.String(), ListName: r.ListName, AccountName: name}, s.d.Now()))
		}
		if len(msgs) == 0 {
			return nil
		}
		return tx.Outbox().Add(ctx, msgs...)
	})
}

// AlertKey is the delivery key of the alert for one incident and subscriber.
func AlertKey(incidentID, subscriberID fmt.Stringer) string {
	return "alert:" + incidentID.String() + ":" + subscriberID.String()
}

// SendAlert mails one alert of the fan-out, unless the recipient or the
// list changed their mind since.
func (s *Service) SendAlert(ctx context.Context, p outbox.AlertMail) error {
	err := s.d.Mail.Build(ctx, AlertKey(p.IncidentID, p.SubscriberID), func(ctx context.Context, tx ports.Tx) (notify.Mail, bool, error) {
		in, err := tx.Incidents().Get(ctx, p.IncidentID)
		if err != nil {
			return notify.Mail{}, false, err
		}
		sub, err := tx.Subscribers().Get(ctx, p.SubscriberID)
		if err != nil {
			return notify.Mail{}, false, err
		}
		if in.Backfilled || sub.Status != subscriber.StatusConfirmed {
			return notify.Mail{}, false, nil // the recipient's choice since the fan-out is respected
		}
		// Re-check the recipient's list now: alerts may have been turned
		// off, or the vendor taken off the list, since the fan-out.
		entries, err := tx.Lists().Entries(ctx, sub.ListID)
		if err != nil {
			return notify.Mail{}, false, err
		}
		alertsOn := false
		for _, e := range entries {
			if e.VendorID == in.VendorID {
				alertsOn = e.AlertsEnabled
			}
		}
		if !alertsOn {
			return notify.Mail{}, false, nil
		}
		tok := s.d.Signer.Sign(PurposeUnsubscribe, sub.ID.String(), s.d.Now().Add(notify.UnsubscribeTTL))
		return notify.AlertMail(sub.Email, AlertKey(in.ID, sub.ID), notify.AlertData{
			VendorName: p.VendorName, ListName: p.ListName, AccountName: p.AccountName, Title: in.Title, Summary: in.Summary,
			Severity: in.Severity, Status: in.Status, URL: in.URL, PublishedAt: in.PublishedAt, ImpactedData: in.PotentiallyImpactedData,
			UnsubscribeURL: s.d.PublicURL + "/unsubscribe?token=" + url.QueryEscape(tok),
		}), true, nil
	})
	if errors.Is(err, core.ErrNotFound) {
		return nil // unsubscribed or deleted since the fan-out
	}
	return err
}
