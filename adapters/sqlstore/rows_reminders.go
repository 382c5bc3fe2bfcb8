package sqlstore

import (
	"time"

	"github.com/uptrace/bun"
)

// reminderKeyRow is a row of reminder_keys: a review reminder queued, or a
// recipient's opt-out, by key (assessments.ReminderRepo).
type reminderKeyRow struct {
	bun.BaseModel `bun:"table:reminder_keys,alias:rk"`

	Key       string    `bun:"key,pk"`
	CreatedAt time.Time `bun:"created_at"`
}
