package stores

import (
	"context"
	"time"
)

// ReminderRepo remembers keys of review reminders (issue 22): a reminder
// queued for one assessment, due date, window and recipient
// (review.Reminder.Key), and a recipient's opt-out of an account's
// reminders. A key once recorded stays recorded; recording is what makes a
// reminder go to the outbox once however many runs ask for it at once.
type ReminderRepo interface {
	// Record records the keys not recorded yet, at now, and returns those
	// (in input order; duplicates in keys count once). Of concurrent units
	// of work recording one key, exactly one returns it. One set-based call.
	Record(ctx context.Context, keys []string, now time.Time) ([]string, error)
	// Recorded returns which of keys are recorded (any order).
	Recorded(ctx context.Context, keys []string) ([]string, error)
}
