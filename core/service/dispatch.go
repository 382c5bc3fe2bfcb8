package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/notify"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/subscriber"
	"github.com/vetted-dev/vetted/core/vendor"
	"github.com/vetted-dev/vetted/ports"
)

// Link lifetimes.
const (
	ConfirmTTL     = 7 * 24 * time.Hour
	UnsubscribeTTL = 180 * 24 * time.Hour
)

// Token purposes for signed links.
const (
	PurposeConfirm     = "subscriber-confirm"
	PurposeUnsubscribe = "unsubscribe"
)

// Handle runs one job (it implements ports.JobHandler). Handlers are
// idempotent: mail is claimed by delivery key before it is sent, so a
// retried job does not mail twice.
func (s *Service) Handle(ctx context.Context, kind outbox.Kind, payload json.RawMessage) error {
	decode := func(v any) error {
		if err := json.Unmarshal(payload, v); err != nil {
			return fmt.Errorf("%s: bad payload: %v: %w", kind, err, ports.ErrPermanent)
		}
		return nil
	}
	switch kind {
	case outbox.KindMemberMail:
		var p outbox.MemberMail
		if err := decode(&p); err != nil {
			return err
		}
		m := notify.MemberMail(p.Email, "member:"+p.EventID.String(), notify.MemberData{AccountName: p.AccountName, Role: p.Role,
			OldRole: p.OldRole, Change: p.Change, By: p.By, AppURL: s.d.PublicURL + "/docs"})
		return s.deliverOnce(ctx, m)
	case outbox.KindSubscriberConfirm:
		var p outbox.SubscriberConfirm
		if err := decode(&p); err != nil {
			return err
		}
		return s.sendConfirmation(ctx, p)
	case outbox.KindIncidentFanout:
		var p outbox.IncidentFanout
		if err := decode(&p); err != nil {
			return err
		}
		return s.fanOut(ctx, p)
	case outbox.KindAlertMail:
		var p outbox.AlertMail
		if err := decode(&p); err != nil {
			return err
		}
		return s.sendAlert(ctx, p)
	case outbox.KindEnrich:
		var p outbox.Enrich
		if err := decode(&p); err != nil {
			return err
		}
		return s.runEnrichJob(ctx, p)
	case outbox.KindBackfill:
		var p outbox.Backfill
		if err := decode(&p); err != nil {
			return err
		}
		return s.runBackfill(ctx, p)
	case outbox.KindBlobDelete:
		var p outbox.BlobDelete
		if err := decode(&p); err != nil {
			return err
		}
		return s.d.Blobs.Delete(ctx, p.Keys...)
	case outbox.KindPollIncidents:
		return s.PollIncidents(ctx)
	case outbox.KindReenrichStale:
		_, err := s.ReenrichStale(ctx, 30*24*time.Hour)
		return err
	}
	return fmt.Errorf("unknown job kind %q: %w", kind, ports.ErrPermanent)
}

// deliverOnce claims the mail's delivery key and sends it; a failed send
// releases the key so the retry can send. A claimed key is never sent again.
func (s *Service) deliverOnce(ctx context.Context, m notify.Mail) error {
	var fresh bool
	err := s.d.Store.InTx(ctx, func(ctx context.Context, tx ports.Tx) error {
		var err error
		fresh, err = tx.Deliveries().Claim(ctx, m.Key, s.now())
		return err
	})
	if err != nil || !fresh {
		return err
	}
	if err := s.d.Mailer.Send(ctx, m); err != nil {
		if rerr := s.d.Store.InTx(ctx, func(ctx context.Context, tx ports.Tx) error {
			return tx.Deliveries().Release(ctx, m.Key)
		}); rerr != nil {
			s.log.Error("release delivery key", "key", m.Key, "err", rerr)
		}
		return err
	}
	return nil
}

func (s *Service) sendConfirmation(ctx context.Context, p outbox.SubscriberConfirm) error {
	var sub subscriber.Subscriber
	var listName, accName string
	err := s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
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
	exp := s.now().Add(ConfirmTTL)
	tok := s.d.Signer.Sign(PurposeConfirm, sub.ID.String(), exp)
	m := notify.ConfirmMail(sub.Email, "confirm:"+p.EventID.String(), notify.ConfirmData{AccountName: accName, ListName: listName,
		ConfirmURL: s.d.PublicURL + "/subscribers/confirm?token=" + url.QueryEscape(tok), Expires: exp})
	return s.deliverOnce(ctx, m)
}

// fanOut splits an incident alert into one job per confirmed subscriber of
// every list that carries the vendor with alerts enabled. Backfilled
// incidents never alert.
func (s *Service) fanOut(ctx context.Context, p outbox.IncidentFanout) error {
	return s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
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
		msgs := make([]outbox.Message, 0, len(rs))
		for _, r := range rs {
			msgs = append(msgs, outbox.New(s.d.IDs.New(), outbox.KindAlertMail, outbox.AlertMail{IncidentID: in.ID, SubscriberID: r.SubscriberID}, s.now()))
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

func (s *Service) sendAlert(ctx context.Context, p outbox.AlertMail) error {
	var (
		in           vendor.Incident
		sub          subscriber.Subscriber
		v            vendor.Vendor
		list, accNam string
		alertsOn     bool
	)
	err := s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
		var err error
		if in, err = tx.Incidents().Get(ctx, p.IncidentID); err != nil {
			return err
		}
		if sub, err = tx.Subscribers().Get(ctx, p.SubscriberID); err != nil {
			return err
		}
		if v, err = tx.Vendors().Get(ctx, in.VendorID); err != nil {
			return err
		}
		// Re-check the recipient's list now: alerts may have been turned
		// off, or the vendor taken off the list, since the fan-out.
		l, err := tx.Lists().Get(ctx, sub.AccountID, sub.ListID)
		if err != nil {
			return err
		}
		entries, err := tx.Lists().Entries(ctx, l.ID)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.VendorID == in.VendorID {
				alertsOn, list = e.AlertsEnabled, l.Name
			}
		}
		acc, err := tx.Accounts().Get(ctx, sub.AccountID)
		accNam = acc.Name
		return err
	})
	if errors.Is(err, core.ErrNotFound) {
		return nil // unsubscribed or deleted since the fan-out
	}
	if err != nil {
		return err
	}
	if in.Backfilled || !alertsOn || sub.Status != subscriber.StatusConfirmed {
		return nil // the recipient's choice since the fan-out is respected
	}
	tok := s.d.Signer.Sign(PurposeUnsubscribe, sub.ID.String(), s.now().Add(UnsubscribeTTL))
	m := notify.AlertMail(sub.Email, AlertKey(in.ID, sub.ID), notify.AlertData{
		VendorName: v.Name.String(), ListName: list, AccountName: accNam, Title: in.Title, Summary: in.Summary,
		Severity: in.Severity, Status: in.Status, URL: in.URL, PublishedAt: in.PublishedAt, ImpactedData: in.PotentiallyImpactedData,
		UnsubscribeURL: s.d.PublicURL + "/unsubscribe?token=" + url.QueryEscape(tok),
	})
	return s.deliverOnce(ctx, m)
}
