package assessments

import (
	"slices"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/core"
)

// State is where an assessment stands in its review cycle.
type State string

// The review states.
const (
	NeverReviewed State = "never_reviewed"
	Current       State = "current"
	DueSoon       State = "due_soon"
	Overdue       State = "overdue"
)

// StateValues lists the review states.
func StateValues() []string { return []string{"never_reviewed", "current", "due_soon", "overdue"} }

// ParseState validates a review state named by field.
func ParseState(field, s string) (State, error) {
	for _, v := range StateValues() {
		if s == v {
			return State(v), nil
		}
	}
	return "", core.Invalid(field, "%q is not one of: %s", s, strings.Join(StateValues(), ", "))
}

// String returns the wire value.
func (s State) String() string { return string(s) }

// Cadence is how many months pass between two reviews of a vendor, per tier.
type Cadence struct {
	Critical, High, Medium, Low, NotTiered int
}

// Months returns the cadence of a tier.
func (c Cadence) Months(t Tier) int {
	switch t {
	case Critical:
		return c.Critical
	case High:
		return c.High
	case Medium:
		return c.Medium
	case Low:
		return c.Low
	}
	return c.NotTiered
}

// Policy is an account's review policy: the cadence per tier, the reminder
// offsets (days before the due date) and whether overdue reminders repeat
// weekly.
type Policy struct {
	Cadence         Cadence
	ReminderOffsets []int // distinct, largest first
	RepeatOverdue   bool
	// UpdatedAt and UpdatedBy are zero for the default policy (never saved).
	UpdatedAt time.Time
	UpdatedBy string
}

// Bounds of a policy: a cadence of more than ten years or a reminder more
// than a year ahead is a typo, not a policy.
const (
	MaxCadenceMonths  = 120
	MaxReminderOffset = 365
	MaxReminders      = 10
)

// DefaultPolicy is the policy of an account that never saved one.
func DefaultPolicy() Policy {
	return Policy{Cadence: Cadence{Critical: 6, High: 12, Medium: 24, Low: 36, NotTiered: 12},
		ReminderOffsets: []int{30, 7}, RepeatOverdue: true}
}

// PolicyInput is a partial update of a policy; nil keeps the value.
type PolicyInput struct {
	Critical, High, Medium, Low, NotTiered *int
	ReminderOffsets                        []int // nil: keep; empty: no reminders before the due date
	RepeatOverdue                          *bool
}

// ApplyPolicy validates in against cur and returns the merged policy; each
// bad value is named by its field (PolicyInput.High, PolicyInput.ReminderOffsets).
func ApplyPolicy(cur Policy, in PolicyInput) (Policy, error) {
	var errs core.Fields
	next := cur
	for _, c := range []struct {
		name string
		v    *int
		dst  *int
	}{
		{"Critical", in.Critical, &next.Cadence.Critical}, {"High", in.High, &next.Cadence.High},
		{"Medium", in.Medium, &next.Cadence.Medium}, {"Low", in.Low, &next.Cadence.Low},
		{"NotTiered", in.NotTiered, &next.Cadence.NotTiered},
	} {
		if c.v == nil {
			continue
		}
		if *c.v < 1 || *c.v > MaxCadenceMonths {
			errs.Add("PolicyInput."+c.name, "must be between 1 and %d months, not %d", MaxCadenceMonths, *c.v)
			continue
		}
		*c.dst = *c.v
	}
	if in.ReminderOffsets != nil {
		offs := slices.Clone(in.ReminderOffsets)
		ok := len(offs) <= MaxReminders
		if !ok {
			errs.Add("PolicyInput.ReminderOffsets", "must have at most %d entries", MaxReminders)
		}
		for _, d := range offs {
			if d < 1 || d > MaxReminderOffset {
				errs.Add("PolicyInput.ReminderOffsets", "must be days between 1 and %d before the due date, not %d", MaxReminderOffset, d)
				ok = false
			}
		}
		slices.SortFunc(offs, func(a, b int) int { return b - a })
		if ok {
			next.ReminderOffsets = slices.Compact(offs)
		}
	}
	if in.RepeatOverdue != nil {
		next.RepeatOverdue = *in.RepeatOverdue
	}
	return next, errs.Err()
}

// FirstReminder is the largest reminder offset in days (0 when there is
// none): an assessment is due soon from that many days before its due date.
func (p Policy) FirstReminder() int {
	if len(p.ReminderOffsets) == 0 {
		return 0
	}
	return slices.Max(p.ReminderOffsets)
}

// Due is where an assessment stands: when it is next due and its state.
type Due struct {
	// NextReviewAt is zero when the vendor was never reviewed.
	NextReviewAt time.Time
	State        State
}

// Schedule is the one rule of review due dates. The next review falls the
// tier's cadence after the last review (the same day of the month, or the
// month's last day when it has no such day: a review on 29 February 2024 is
// due again on 28 February 2025 at a 12-month cadence); a conditional
// approval is due by its condition's date when that comes first. Dates are
// compared as UTC calendar days: on the due date itself the review is due
// soon, from the next day overdue, and due soon from the first reminder
// offset before it. A vendor never reviewed has no due date.
func Schedule(f Fields, lastReviewed time.Time, p Policy, now time.Time) Due {
	if lastReviewed.IsZero() {
		return Due{State: NeverReviewed}
	}
	next := AddMonths(lastReviewed.UTC(), p.Cadence.Months(f.Tier))
	if f.Status == ConditionalApproval && !f.ConditionDueAt.IsZero() && f.ConditionDueAt.Before(next) {
		next = f.ConditionDueAt.UTC()
	}
	days := DaysUntil(now, next)
	state := Current
	switch {
	case days < 0:
		state = Overdue
	case days <= p.FirstReminder():
		state = DueSoon
	}
	return Due{NextReviewAt: next, State: state}
}

// Timing is the part of an assessment its due date follows: what a count
// of reviews due reads (a dashboard over thousands of assessments), rather
// than whole assessments.
type Timing struct {
	Tier           Tier
	Status         Status
	ConditionDueAt time.Time
	LastReviewedAt time.Time
}

// TimingOf is the timing of an assessment.
func TimingOf(a Assessment) Timing {
	return Timing{Tier: a.Tier, Status: a.Status, ConditionDueAt: a.ConditionDueAt, LastReviewedAt: a.LastReviewedAt}
}

// Due is Schedule of the assessment the timing is of.
func (t Timing) Due(p Policy, now time.Time) Due {
	return Schedule(Fields{Tier: t.Tier, Status: t.Status, ConditionDueAt: t.ConditionDueAt}, t.LastReviewedAt, p, now)
}

// DaysUntil counts the UTC calendar days from now's to t's: 0 on the same
// day, negative once t's day has passed.
func DaysUntil(now, t time.Time) int {
	day := func(x time.Time) time.Time {
		y, m, d := x.UTC().Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return int(day(t).Sub(day(now)).Hours() / 24)
}

// AddMonths adds months to t in UTC, keeping the day of the month, or the
// last day of the target month when it is shorter.
func AddMonths(t time.Time, months int) time.Time {
	t = t.UTC()
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(months), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1)
}
