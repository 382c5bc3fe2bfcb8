package assessments

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Reminder is the reminder an assessment is owed now: the due date it is
// about and its window, in days before the due date (0 on the due date,
// negative in whole weeks after it when overdue reminders repeat).
type Reminder struct {
	DueDate string // 2006-01-02, UTC
	Offset  int
}

// Key is the delivery key of the reminder to one recipient: one mail per
// assessment, due date, window and recipient, however often it is asked.
func (r Reminder) Key(assessmentID uuid.UUID, email string) string {
	return fmt.Sprintf("reminder:%s:%s:%d:%s", assessmentID, r.DueDate, r.Offset, email)
}

// DueReminder says which reminder an assessment is owed at now under the
// policy, if any: the latest window reached (an earlier window that was
// missed is not sent late), at each reminder offset before the due date, on
// the due date, and every seven days after it when the policy repeats
// overdue reminders. A vendor never reviewed is owed none.
func DueReminder(d Due, p Policy, now time.Time) (Reminder, bool) {
	if d.NextReviewAt.IsZero() {
		return Reminder{}, false
	}
	r := Reminder{DueDate: d.NextReviewAt.UTC().Format(time.DateOnly)}
	days := DaysUntil(now, d.NextReviewAt)
	switch {
	case days < 0:
		if !p.RepeatOverdue || -days < 7 {
			r.Offset = 0 // the due-date reminder, if it was not sent yet
			return r, true
		}
		r.Offset = -7 * (-days / 7)
		return r, true
	case days == 0:
		return r, true
	}
	best, ok := 0, false
	for _, o := range p.ReminderOffsets {
		if days <= o && (!ok || o < best) {
			best, ok = o, true
		}
	}
	r.Offset = best
	return r, ok
}

// Owed is one reminder mail owed now: an assessment's reminder to one
// recipient.
type Owed struct {
	AssessmentID uuid.UUID
	Reminder     Reminder
	Email        string
}

// Key is the delivery key of the mail (Reminder.Key).
func (o Owed) Key() string { return o.Reminder.Key(o.AssessmentID, o.Email) }

// OptOutKey is the key under which a recipient's opt-out of an account's
// review reminders is recorded.
func OptOutKey(accountID uuid.UUID, email string) string {
	return "reminder-optout:" + accountID.String() + ":" + strings.ToLower(strings.TrimSpace(email))
}

// Recipients are who an assessment's reminders go to: its sponsor contact
// and the account's staff (its admins and owners), each address once,
// lower-case, the sponsor first.
func Recipients(a Assessment, staff []string) []string {
	var out []string
	for _, e := range append([]string{a.SponsorContact}, staff...) {
		e = strings.ToLower(strings.TrimSpace(e))
		if e != "" && !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

// OwedReminders lists the reminder mails owed at now for the assessments of
// one account, whose Due is computed under its policy p: for each assessment
// DueReminder says is owed a reminder, one mail to each of its Recipients,
// except those optedOut says stopped the account's reminders. Whether a
// mail went out already is the caller's to check, by Owed.Key.
func OwedReminders(as []Assessment, p Policy, now time.Time, staff []string, optedOut func(email string) bool) []Owed {
	var out []Owed
	for _, a := range as {
		r, ok := DueReminder(a.Due, p, now)
		if !ok {
			continue
		}
		for _, e := range Recipients(a, staff) {
			if optedOut == nil || !optedOut(e) {
				out = append(out, Owed{AssessmentID: a.ID, Reminder: r, Email: e})
			}
		}
	}
	return out
}
