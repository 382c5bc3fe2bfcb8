package assessments

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/webhooks"
)

// Review reminders (issue 22 item 4). The periodic job (KindReviewReminders)
// works out, per active account that holds an assessment (organizations
// and personal spaces alike), which reminder mails are owed now
// (OwedReminders) and records their keys (ReminderRepo) in the
// unit of work that queues them to the outbox, so each is queued once
// however many workers run the job at once or again after a restart. Each
// mail is then its own job (KindReminderMail), delivered once by its key
// through the delivery claims as alerts are, and re-checked just before it
// is sent.

// PurposeReminderUnsubscribe is the purpose of reminder unsubscribe links.
const PurposeReminderUnsubscribe = "reminder-unsubscribe"

// ReminderUnsubscribePath is the path of reminder unsubscribe links,
// relative to PublicURL.
const ReminderUnsubscribePath = "/reminders/unsubscribe"

// ReviewReminders queues the review reminder mails owed now in every active
// account with an assessment and returns how many it queued. An account that fails is
// logged and the others still run; the error joins the failures.
func (s *Service) ReviewReminders(ctx context.Context) (int, error) {
	var accs []accounts.Account
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) (err error) {
		accs, err = tx.Accounts().ListReviewing(ctx)
		return err
	})
	if err != nil {
		return 0, err
	}
	total := 0
	var errs []error
	for _, acc := range accs {
		if !acc.Active {
			continue
		}
		n, err := s.queueReminders(ctx, acc.ID)
		if err != nil {
			s.d.Log.Error("review reminders", "account", acc.ID, "err", err)
			errs = append(errs, fmt.Errorf("account %s: %w", acc.ID, err))
			continue
		}
		total += n
	}
	if total > 0 {
		s.d.Log.Info("review reminders queued", "mails", total)
	}
	return total, errors.Join(errs...)
}

// staffOf returns the e-mails of an account's admins and owners.
func staffOf(ctx context.Context, tx Tx, accountID uuid.UUID) ([]string, error) {
	ms, err := tx.Members().List(ctx, accountID)
	if err != nil {
		return nil, err
	}
	return accounts.Staff(ms), nil
}

// optedOut reads which of emails stopped the account's reminders.
func optedOut(ctx context.Context, tx Tx, accountID uuid.UUID, emails []string) (map[string]bool, error) {
	keys := make([]string, len(emails))
	byKey := make(map[string]string, len(emails))
	for i, e := range emails {
		keys[i] = OptOutKey(accountID, e)
		byKey[keys[i]] = strings.ToLower(strings.TrimSpace(e))
	}
	rec, err := tx.Reminders().Recorded(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(rec))
	for _, k := range rec {
		out[byKey[k]] = true
	}
	return out, nil
}

// queueReminders queues, in one unit of work, the reminders one account
// owes now that were not queued before.
func (s *Service) queueReminders(ctx context.Context, accountID uuid.UUID) (int, error) {
	var n int
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		n = 0
		acc, err := tx.Accounts().Get(ctx, accountID)
		if errors.Is(err, core.ErrNotFound) {
			return nil // deleted since the listing
		}
		if err != nil || !acc.Active {
			return err
		}
		now := s.d.Now()
		p, _, err := policyOf(ctx, tx, accountID)
		if err != nil {
			return err
		}
		as, err := tx.Assessments().Find(ctx, AssessmentFilter{AccountID: accountID})
		if err != nil {
			return err
		}
		schedule(as, p, now)
		if err := s.reviewEvents(ctx, tx, accountID, as, p, now); err != nil {
			return err
		}
		staff, err := staffOf(ctx, tx, accountID)
		if err != nil {
			return err
		}
		var everyone []string
		for _, a := range as {
			if _, ok := DueReminder(a.Due, p, now); ok {
				everyone = append(everyone, Recipients(a, staff)...)
			}
		}
		if len(everyone) == 0 {
			return nil
		}
		out, err := optedOut(ctx, tx, accountID, everyone)
		if err != nil {
			return err
		}
		owed := OwedReminders(as, p, now, staff, func(e string) bool { return out[e] })
		keys := make([]string, len(owed))
		byKey := make(map[string]Owed, len(owed))
		for i, o := range owed {
			keys[i] = o.Key()
			byKey[keys[i]] = o
		}
		fresh, err := tx.Reminders().Record(ctx, keys, now)
		if err != nil || len(fresh) == 0 {
			return err
		}
		msgs := make([]outbox.Message, len(fresh))
		for i, k := range fresh {
			o := byKey[k]
			msgs[i] = outbox.New(s.d.IDs.New(), outbox.KindReminderMail, outbox.ReminderMail{Key: k, AccountID: accountID,
				AssessmentID: o.AssessmentID, Email: o.Email, DueDate: o.Reminder.DueDate, Offset: o.Reminder.Offset}, now)
		}
		n = len(msgs)
		return uow.Add(ctx, tx, msgs...)
	})
	return n, err
}

// reviewEvents records due_soon and overdue for the
// assessments of an account that reached a reminder window, once per
// assessment, due date and window (a reminder key of their own), and only
// while an endpoint of the account wants them: an account without one
// records nothing, so an endpoint added later still hears of the next
// window.
func (s *Service) reviewEvents(ctx context.Context, tx Tx, accountID uuid.UUID, as []Assessment, p Policy, now time.Time) error {
	es, err := tx.Webhooks().List(ctx, accountID)
	if err != nil {
		return err
	}
	wants := func(t domainevent.EventType) bool {
		return slices.ContainsFunc(es, func(e webhooks.Endpoint) bool { return e.Wants(t) })
	}
	soon, overdue := wants(domainevent.ReviewDueSoon), wants(domainevent.ReviewOverdue)
	if !soon && !overdue {
		return nil
	}
	type due struct {
		a    Assessment
		r    Reminder
		days int
	}
	var keys []string
	byKey := map[string]due{}
	for _, a := range as {
		r, ok := DueReminder(a.Due, p, now)
		days := DaysUntil(now, a.Due.NextReviewAt)
		if !ok || (days < 0 && !overdue) || (days >= 0 && !soon) {
			continue
		}
		k := fmt.Sprintf("webhook:review:%s:%s:%d", a.ID, r.DueDate, r.Offset)
		keys = append(keys, k)
		byKey[k] = due{a, r, days}
	}
	if len(keys) == 0 {
		return nil
	}
	fresh, err := tx.Reminders().Record(ctx, keys, now)
	if err != nil || len(fresh) == 0 {
		return err
	}
	ls, err := tx.Lists().ListByAccount(ctx, accountID)
	if err != nil {
		return err
	}
	names := make(map[uuid.UUID]string, len(ls))
	for _, l := range ls {
		names[l.ID] = l.Name
	}
	for _, k := range fresh {
		d := byKey[k]
		if err := s.d.Event(ctx, tx, domainevent.ReviewDue(webhookRef(d.a, names[d.a.ListID]), d.r.DueDate, d.days, now)); err != nil {
			return err
		}
	}
	return nil
}

// SendReminder delivers one queued reminder, unless since it was queued the
// account became inactive, the assessment was deleted or its due date moved,
// the recipient is no longer its sponsor or an admin or owner, or the
// recipient stopped the account's reminders.
func (s *Service) SendReminder(ctx context.Context, p outbox.ReminderMail) error {
	err := s.d.Mail.Build(ctx, p.Key, func(ctx context.Context, tx Tx) (mailtmpl.Mail, bool, error) {
		acc, err := tx.Accounts().Get(ctx, p.AccountID)
		if err != nil || !acc.Active {
			return mailtmpl.Mail{}, false, err
		}
		a, err := tx.Assessments().Get(ctx, p.AccountID, p.AssessmentID)
		if err != nil {
			return mailtmpl.Mail{}, false, err
		}
		if err := s.scheduleOne(ctx, tx, &a); err != nil {
			return mailtmpl.Mail{}, false, err
		}
		if a.Due.NextReviewAt.IsZero() || a.Due.NextReviewAt.UTC().Format(time.DateOnly) != p.DueDate {
			return mailtmpl.Mail{}, false, nil
		}
		staff, err := staffOf(ctx, tx, p.AccountID)
		if err != nil {
			return mailtmpl.Mail{}, false, err
		}
		if !slices.Contains(Recipients(a, staff), p.Email) {
			return mailtmpl.Mail{}, false, nil
		}
		out, err := optedOut(ctx, tx, p.AccountID, []string{p.Email})
		if err != nil || out[p.Email] {
			return mailtmpl.Mail{}, false, err
		}
		l, err := tx.Lists().Get(ctx, p.AccountID, a.ListID)
		if err != nil {
			return mailtmpl.Mail{}, false, err
		}
		now := s.d.Now()
		tok := s.d.Signer.Sign(PurposeReminderUnsubscribe, p.AccountID.String()+" "+p.Email, now.Add(mailtmpl.UnsubscribeTTL))
		return mailtmpl.ReminderMail(p.Email, p.Key, mailtmpl.ReminderData{
			AccountName: reminderAccountName(acc), VendorName: a.VendorName, ListName: l.Name, DueDate: p.DueDate,
			Days: DaysUntil(now, a.Due.NextReviewAt), Status: a.Status.String(), AppURL: s.d.PublicURL + "/app/",
			UnsubscribeURL: s.d.PublicURL + ReminderUnsubscribePath + "?token=" + url.QueryEscape(tok),
		}), true, nil
	})
	if errors.Is(err, core.ErrNotFound) {
		return nil // the account, assessment or list is gone
	}
	return err
}

// reminderAccountName is how a reminder names its account: a personal
// space is the reader's own, not an account called "individual".
func reminderAccountName(acc accounts.Account) string {
	if acc.Personal {
		return "your personal space"
	}
	return acc.Name
}

// ReminderOptOut is who a reminder unsubscribe link names.
type ReminderOptOut struct {
	AccountID   uuid.UUID
	AccountName string
	Email       string
	// Done is true once the address gets no more reminders from the account.
	Done bool
}

// reminderLink reads a reminder unsubscribe link: a forged or expired one
// is refused (403), one of an account deleted since is not found.
func (s *Service) reminderLink(ctx context.Context, tx Tx, token string) (ReminderOptOut, error) {
	subj, err := s.d.Signer.Verify(PurposeReminderUnsubscribe, token, s.d.Now())
	if err != nil {
		return ReminderOptOut{}, err
	}
	id, email, ok := strings.Cut(subj, " ")
	accID, perr := uuid.Parse(id)
	if !ok || perr != nil || email == "" {
		return ReminderOptOut{}, core.Forbidden("the link is malformed")
	}
	acc, err := tx.Accounts().Get(ctx, accID)
	if err != nil {
		return ReminderOptOut{}, err
	}
	out, err := optedOut(ctx, tx, accID, []string{email})
	return ReminderOptOut{AccountID: accID, AccountName: reminderAccountName(acc), Email: email, Done: out[email]}, err
}

// PeekReminderUnsubscribe checks a reminder unsubscribe link without acting.
func (s *Service) PeekReminderUnsubscribe(ctx context.Context, token string) (ReminderOptOut, error) {
	var o ReminderOptOut
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) (err error) {
		o, err = s.reminderLink(ctx, tx, token)
		return err
	})
	return o, err
}

// UnsubscribeReminders stops every review reminder of the link's account to
// the link's address (RFC 8058 one-click); doing it again is success.
func (s *Service) UnsubscribeReminders(ctx context.Context, token string) (ReminderOptOut, error) {
	var o ReminderOptOut
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) (err error) {
		if o, err = s.reminderLink(ctx, tx, token); err != nil || o.Done {
			return err
		}
		_, err = tx.Reminders().Record(ctx, []string{OptOutKey(o.AccountID, o.Email)}, s.d.Now())
		o.Done = true
		return err
	})
	return o, err
}
