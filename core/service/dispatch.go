package service

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/notify"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/subscriber"
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
// idempotent: mail is claimed by delivery key before it is sent and marked
// sent after, so a retried job does not mail twice (see buildAndDeliver).
func (s *Service) Handle(ctx context.Context, kind outbox.Kind, payload any) error {
	decode := func(v any) error {
		if err := outbox.Into(payload, v); err != nil {
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
	case outbox.KindReminderMail:
		var p outbox.ReminderMail
		if err := decode(&p); err != nil {
			return err
		}
		return s.sendReminder(ctx, p)
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
	case outbox.KindReviewReminders:
		_, err := s.ReviewReminders(ctx)
		return err
	}
	return fmt.Errorf("unknown job kind %q: %w", kind, ports.ErrPermanent)
}

// MailLease is how long a claimed mail may stay unsent before the next run
// of its job takes the claim over and sends it. It must be longer than any
// send takes (an SMTP connection is bounded at 30 s by default), or a slow
// send and its take-over both deliver; it is also how late a mail whose
// worker died between the claim and the send goes out.
const MailLease = 5 * time.Minute

// deliverOnce claims the mail's delivery key, sends it and marks it sent.
func (s *Service) deliverOnce(ctx context.Context, m notify.Mail) error {
	return s.buildAndDeliver(ctx, m.Key, func(context.Context, ports.Tx) (notify.Mail, bool, error) { return m, true, nil })
}

// buildAndDeliver reads what a mail needs and claims its key in one unit of
// work (build may decide there is nothing to send), sends it outside the
// unit of work, and marks the key sent in another. A failed send releases
// the key for the retry. A key sent before is done; a key another run
// claimed less than MailLease ago and has not marked sent makes the job run
// again once that claim has expired (ports.ErrNotYet), so a worker that died
// between its claim and its send loses nothing. A worker that dies after
// the send and before the mark causes the one duplicate this allows, which
// carries the same Message-ID (derived from the key) for receivers to drop.
func (s *Service) buildAndDeliver(ctx context.Context, key string, build func(context.Context, ports.Tx) (notify.Mail, bool, error)) error {
	var (
		m notify.Mail
		d ports.Delivery
	)
	err := s.d.Store.InTx(ctx, func(ctx context.Context, tx ports.Tx) error {
		var send bool
		var err error
		d = ports.Delivery{}
		if m, send, err = build(ctx, tx); err != nil || !send {
			return err
		}
		d, err = tx.Deliveries().Claim(ctx, key, s.now(), MailLease)
		return err
	})
	if err != nil {
		return err
	}
	switch d.State {
	case ports.DeliveryClaimed:
	case ports.DeliveryBusy:
		return ports.NotYet(max(d.ClaimedAt.Add(MailLease).Sub(s.now()), time.Second),
			fmt.Errorf("mail %s: claimed at %s by a run that has not sent it yet", key, d.ClaimedAt.Format(time.RFC3339)))
	default:
		return nil // sent before, or nothing to send
	}
	// The key's bookkeeping outlives the job's context: a send cut short
	// must still release, and a send that went out must still be marked.
	book := context.WithoutCancel(ctx)
	if err := s.d.Mailer.Send(ctx, m); err != nil {
		if rerr := s.d.Store.InTx(book, func(ctx context.Context, tx ports.Tx) error {
			return tx.Deliveries().Release(ctx, key)
		}); rerr != nil {
			s.log.Error("release delivery key", "key", key, "err", rerr)
		}
		return err
	}
	if err := s.d.Store.InTx(book, func(ctx context.Context, tx ports.Tx) error {
		return tx.Deliveries().MarkSent(ctx, key, s.now())
	}); err != nil {
		// The mail is out and the job done: only a second run of this job
		// would look at the key again, and after the lease it would send a
		// duplicate, which receivers drop by Message-ID.
		s.log.Error("mark delivery key sent", "key", key, "err", err)
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
				VendorName: v.Name.String(), ListName: r.ListName, AccountName: name}, s.now()))
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
	err := s.buildAndDeliver(ctx, AlertKey(p.IncidentID, p.SubscriberID), func(ctx context.Context, tx ports.Tx) (notify.Mail, bool, error) {
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
		tok := s.d.Signer.Sign(PurposeUnsubscribe, sub.ID.String(), s.now().Add(UnsubscribeTTL))
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
