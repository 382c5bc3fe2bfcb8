package review

import (
	"fmt"
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
