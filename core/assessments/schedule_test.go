package assessments_test

import (
	"errors"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestSchedule(t *testing.T) {
	t.Parallel()
	def := assessments.DefaultPolicy()
	quarterly := def
	quarterly.Cadence.Critical = 3
	noReminders := def
	noReminders.ReminderOffsets = nil
	reviewed := time.Date(2026, 1, 15, 14, 30, 0, 0, time.UTC)
	paris := time.FixedZone("CET", 3600)
	tests := []struct {
		name     string
		tier     assessments.Tier
		status   assessments.Status
		cond     time.Time
		last     time.Time
		policy   assessments.Policy
		now      time.Time
		wantNext time.Time
		want     assessments.State
	}{
		{"never reviewed", assessments.High, assessments.InProgress, time.Time{}, time.Time{}, def, reviewed, time.Time{}, assessments.NeverReviewed},
		{"critical: six months on", assessments.Critical, assessments.Approved, time.Time{}, reviewed, def, reviewed.AddDate(0, 1, 0),
			time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"high: twelve months", assessments.High, assessments.Rejected, time.Time{}, reviewed, def, reviewed,
			time.Date(2027, 1, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"medium: 24", assessments.Medium, assessments.Approved, time.Time{}, reviewed, def, reviewed,
			time.Date(2028, 1, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"low: 36", assessments.Low, assessments.Approved, time.Time{}, reviewed, def, reviewed,
			time.Date(2029, 1, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"not tiered: 12", assessments.Untiered, assessments.Approved, time.Time{}, reviewed, def, reviewed,
			time.Date(2027, 1, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"the policy in force decides", assessments.Critical, assessments.Approved, time.Time{}, reviewed, quarterly, reviewed,
			time.Date(2026, 4, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"one day before the first offset: current", assessments.Critical, assessments.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 6, 14, 23, 59, 0, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"on the offset day: due soon", assessments.Critical, assessments.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), assessments.DueSoon},
		{"due today, after the hour: due soon", assessments.Critical, assessments.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 7, 15, 23, 59, 59, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), assessments.DueSoon},
		{"the day after: overdue", assessments.Critical, assessments.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 7, 16, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), assessments.Overdue},
		{"no reminders: due soon only on the day", assessments.Critical, assessments.Approved, time.Time{}, reviewed, noReminders,
			time.Date(2026, 7, 14, 12, 0, 0, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"a clock in another zone counts UTC days", assessments.Critical, assessments.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 7, 16, 0, 30, 0, 0, paris), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), assessments.DueSoon},
		{"leap day + 12 months: 28 February", assessments.High, assessments.Approved, time.Time{}, day(2024, 2, 29), def, day(2024, 3, 1),
			day(2025, 2, 28), assessments.Current},
		{"leap day + 48 months: 29 February", assessments.Untiered, assessments.Approved, time.Time{}, day(2024, 2, 29),
			assessments.Policy{Cadence: assessments.Cadence{NotTiered: 48}}, day(2028, 2, 29), day(2028, 2, 29), assessments.DueSoon},
		{"31 August + 6 months: end of February", assessments.Critical, assessments.Approved, time.Time{}, day(2027, 8, 31), def, day(2027, 9, 1),
			day(2028, 2, 29), assessments.Current},
		{"conditional approval: the condition comes first", assessments.Low, assessments.ConditionalApproval, day(2026, 3, 1), reviewed, def,
			day(2026, 3, 2), day(2026, 3, 1), assessments.Overdue},
		{"conditional approval: the cadence comes first", assessments.Critical, assessments.ConditionalApproval, day(2027, 3, 1), reviewed, def,
			reviewed, time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"a condition date counts only for a conditional approval", assessments.Low, assessments.Approved, day(2026, 3, 1), reviewed, def,
			day(2026, 3, 2), time.Date(2029, 1, 15, 14, 30, 0, 0, time.UTC), assessments.Current},
		{"a review in progress keeps the last due date", assessments.Critical, assessments.InProgress, time.Time{}, reviewed, def,
			day(2026, 8, 1), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), assessments.Overdue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := assessments.Fields{Tier: tc.tier, Status: tc.status, ConditionDueAt: tc.cond}
			got := assessments.Schedule(f, tc.last, tc.policy, tc.now)
			if !got.NextReviewAt.Equal(tc.wantNext) || got.State != tc.want {
				t.Fatalf("Schedule = %v %s, want %v %s", got.NextReviewAt, got.State, tc.wantNext, tc.want)
			}
			if !got.NextReviewAt.IsZero() && got.NextReviewAt.Location() != time.UTC {
				t.Fatalf("next_review_at not in UTC: %v", got.NextReviewAt)
			}
		})
	}
}

func TestApplyPolicy(t *testing.T) {
	t.Parallel()
	ptr := func(n int) *int { return &n }
	no := false
	got, err := assessments.ApplyPolicy(assessments.DefaultPolicy(), assessments.PolicyInput{Critical: ptr(3), ReminderOffsets: []int{7, 60, 7, 1}, RepeatOverdue: &no})
	if err != nil {
		t.Fatal(err)
	}
	if got.Cadence.Critical != 3 || got.Cadence.High != 12 || got.RepeatOverdue || len(got.ReminderOffsets) != 3 ||
		got.ReminderOffsets[0] != 60 || got.ReminderOffsets[2] != 1 || got.FirstReminder() != 60 {
		t.Fatalf("ApplyPolicy = %+v", got)
	}
	for _, tc := range []struct {
		name  string
		in    assessments.PolicyInput
		field string
	}{
		{"negative cadence", assessments.PolicyInput{High: ptr(-1)}, "PolicyInput.High"},
		{"zero cadence", assessments.PolicyInput{NotTiered: ptr(0)}, "PolicyInput.NotTiered"},
		{"absurd cadence", assessments.PolicyInput{Low: ptr(1200)}, "PolicyInput.Low"},
		{"negative offset", assessments.PolicyInput{ReminderOffsets: []int{30, -7}}, "PolicyInput.ReminderOffsets"},
		{"absurd offset", assessments.PolicyInput{ReminderOffsets: []int{5000}}, "PolicyInput.ReminderOffsets"},
		{"too many offsets", assessments.PolicyInput{ReminderOffsets: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}, "PolicyInput.ReminderOffsets"},
	} {
		_, err := assessments.ApplyPolicy(assessments.DefaultPolicy(), tc.in)
		if !errors.Is(err, core.ErrInvalid) || len(core.Failures(err)) == 0 || core.Failures(err)[0].Field != tc.field {
			t.Fatalf("%s: err = %v, want invalid %s", tc.name, err, tc.field)
		}
	}
	if _, err := assessments.ParseState("review-state", "late"); !errors.Is(err, core.ErrInvalid) || core.Failures(err)[0].Field != "review-state" {
		t.Fatalf("ParseState(late) = %v", err)
	}
	if _, err := assessments.ParseTier(" High "); err != nil {
		t.Fatalf("ParseTier( High ) = %v", err)
	}
}
