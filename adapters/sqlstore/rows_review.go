package sqlstore

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/assessments"
)

// reviewPolicyRow is a row of review_policies.
type reviewPolicyRow struct {
	bun.BaseModel `bun:"table:review_policies,alias:rp"`

	AccountID       uuid.UUID `bun:"account_id,pk"`
	CriticalMonths  int       `bun:"critical_months"`
	HighMonths      int       `bun:"high_months"`
	MediumMonths    int       `bun:"medium_months"`
	LowMonths       int       `bun:"low_months"`
	NotTieredMonths int       `bun:"not_tiered_months"`
	ReminderOffsets []int     `bun:"reminder_offsets,type:jsonb"`
	RepeatOverdue   bool      `bun:"repeat_overdue"`
	UpdatedAt       time.Time `bun:"updated_at"`
	UpdatedBy       string    `bun:"updated_by"`
}

// fromReviewPolicy makes the row of an account's policy.
func fromReviewPolicy(accountID uuid.UUID, p assessments.Policy) reviewPolicyRow {
	offs := p.ReminderOffsets
	if offs == nil {
		offs = []int{}
	}
	return reviewPolicyRow{AccountID: accountID, CriticalMonths: p.Cadence.Critical, HighMonths: p.Cadence.High,
		MediumMonths: p.Cadence.Medium, LowMonths: p.Cadence.Low, NotTieredMonths: p.Cadence.NotTiered,
		ReminderOffsets: offs, RepeatOverdue: p.RepeatOverdue, UpdatedAt: p.UpdatedAt, UpdatedBy: p.UpdatedBy}
}

// Core rebuilds the policy.
func (r reviewPolicyRow) Core() assessments.Policy {
	offs := r.ReminderOffsets
	if offs == nil {
		offs = []int{}
	}
	return assessments.Policy{Cadence: assessments.Cadence{Critical: r.CriticalMonths, High: r.HighMonths, Medium: r.MediumMonths,
		Low: r.LowMonths, NotTiered: r.NotTieredMonths}, ReminderOffsets: offs, RepeatOverdue: r.RepeatOverdue,
		UpdatedAt: utc(r.UpdatedAt), UpdatedBy: r.UpdatedBy}
}

// calendarKeyRow is a row of calendar_keys.
type calendarKeyRow struct {
	bun.BaseModel `bun:"table:calendar_keys,alias:ck"`

	ID        uuid.UUID `bun:"id,pk"`
	AccountID uuid.UUID `bun:"account_id"`
	UserID    uuid.UUID `bun:"user_id"`
	CreatedAt time.Time `bun:"created_at"`
}

// fromCalendarKey makes the row of k.
func fromCalendarKey(k assessments.CalendarKey) calendarKeyRow {
	return calendarKeyRow{ID: k.ID, AccountID: k.AccountID, UserID: k.UserID, CreatedAt: k.CreatedAt}
}

// Core rebuilds the key.
func (r calendarKeyRow) Core() assessments.CalendarKey {
	return assessments.CalendarKey{ID: r.ID, AccountID: r.AccountID, UserID: r.UserID, CreatedAt: utc(r.CreatedAt)}
}
