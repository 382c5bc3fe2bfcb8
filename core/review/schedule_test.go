package review_test

import (
	"errors"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/review"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestSchedule(t *testing.T) {
	t.Parallel()
	def := review.DefaultPolicy()
	quarterly := def
	quarterly.Cadence.Critical = 3
	noReminders := def
	noReminders.ReminderOffsets = nil
	reviewed := time.Date(2026, 1, 15, 14, 30, 0, 0, time.UTC)
	paris := time.FixedZone("CET", 3600)
	tests := []struct {
		name     string
		tier     review.Tier
		status   review.Status
		cond     time.Time
		last     time.Time
		policy   review.Policy
		now      time.Time
		wantNext time.Time
		want     review.State
	}{
		{"never reviewed", review.High, review.InProgress, time.Time{}, time.Time{}, def, reviewed, time.Time{}, review.NeverReviewed},
		{"critical: six months on", review.Critical, review.Approved, time.Time{}, reviewed, def, reviewed.AddDate(0, 1, 0),
			time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"high: twelve months", review.High, review.Rejected, time.Time{}, reviewed, def, reviewed,
			time.Date(2027, 1, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"medium: 24", review.Medium, review.Approved, time.Time{}, reviewed, def, reviewed,
			time.Date(2028, 1, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"low: 36", review.Low, review.Approved, time.Time{}, reviewed, def, reviewed,
			time.Date(2029, 1, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"not tiered: 12", review.Untiered, review.Approved, time.Time{}, reviewed, def, reviewed,
			time.Date(2027, 1, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"the policy in force decides", review.Critical, review.Approved, time.Time{}, reviewed, quarterly, reviewed,
			time.Date(2026, 4, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"one day before the first offset: current", review.Critical, review.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 6, 14, 23, 59, 0, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"on the offset day: due soon", review.Critical, review.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), review.DueSoon},
		{"due today, after the hour: due soon", review.Critical, review.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 7, 15, 23, 59, 59, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), review.DueSoon},
		{"the day after: overdue", review.Critical, review.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 7, 16, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), review.Overdue},
		{"no reminders: due soon only on the day", review.Critical, review.Approved, time.Time{}, reviewed, noReminders,
			time.Date(2026, 7, 14, 12, 0, 0, 0, time.UTC), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"a clock in another zone counts UTC days", review.Critical, review.Approved, time.Time{}, reviewed, def,
			time.Date(2026, 7, 16, 0, 30, 0, 0, paris), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), review.DueSoon},
		{"leap day + 12 months: 28 February", review.High, review.Approved, time.Time{}, day(2024, 2, 29), def, day(2024, 3, 1),
			day(2025, 2, 28), review.Current},
		{"leap day + 48 months: 29 February", review.Untiered, review.Approved, time.Time{}, day(2024, 2, 29),
			review.Policy{Cadence: review.Cadence{NotTiered: 48}}, day(2028, 2, 29), day(2028, 2, 29), review.DueSoon},
		{"31 August + 6 months: end of February", review.Critical, review.Approved, time.Time{}, day(2027, 8, 31), def, day(2027, 9, 1),
			day(2028, 2, 29), review.Current},
		{"conditional approval: the condition comes first", review.Low, review.ConditionalApproval, day(2026, 3, 1), reviewed, def,
			day(2026, 3, 2), day(2026, 3, 1), review.Overdue},
		{"conditional approval: the cadence comes first", review.Critical, review.ConditionalApproval, day(2027, 3, 1), reviewed, def,
			reviewed, time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"a condition date counts only for a conditional approval", review.Low, review.Approved, day(2026, 3, 1), reviewed, def,
			day(2026, 3, 2), time.Date(2029, 1, 15, 14, 30, 0, 0, time.UTC), review.Current},
		{"a review in progress keeps the last due date", review.Critical, review.InProgress, time.Time{}, reviewed, def,
			day(2026, 8, 1), time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC), review.Overdue},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := review.Fields{Tier: tc.tier, Status: tc.status, ConditionDueAt: tc.cond}
			got := review.Schedule(f, tc.last, tc.policy, tc.now)
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
	got, err := review.ApplyPolicy(review.DefaultPolicy(), review.PolicyInput{Critical: ptr(3), ReminderOffsets: []int{7, 60, 7, 1}, RepeatOverdue: &no})
	if err != nil {
		t.Fatal(err)
	}
	if got.Cadence.Critical != 3 || got.Cadence.High != 12 || got.RepeatOverdue || len(got.ReminderOffsets) != 3 ||
		got.ReminderOffsets[0] != 60 || got.ReminderOffsets[2] != 1 || got.FirstReminder() != 60 {
		t.Fatalf("ApplyPolicy = %+v", got)
	}
	for _, tc := range []struct {
		name  string
		in    review.PolicyInput
		field string
	}{
		{"negative cadence", review.PolicyInput{High: ptr(-1)}, "PolicyInput.High"},
		{"zero cadence", review.PolicyInput{NotTiered: ptr(0)}, "PolicyInput.NotTiered"},
		{"absurd cadence", review.PolicyInput{Low: ptr(1200)}, "PolicyInput.Low"},
		{"negative offset", review.PolicyInput{ReminderOffsets: []int{30, -7}}, "PolicyInput.ReminderOffsets"},
		{"absurd offset", review.PolicyInput{ReminderOffsets: []int{5000}}, "PolicyInput.ReminderOffsets"},
		{"too many offsets", review.PolicyInput{ReminderOffsets: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}}, "PolicyInput.ReminderOffsets"},
	} {
		_, err := review.ApplyPolicy(review.DefaultPolicy(), tc.in)
		if !errors.Is(err, core.ErrInvalid) || len(core.Failures(err)) == 0 || core.Failures(err)[0].Field != tc.field {
			t.Fatalf("%s: err = %v, want invalid %s", tc.name, err, tc.field)
		}
	}
	if _, err := review.ParseState("review-state", "late"); !errors.Is(err, core.ErrInvalid) || core.Failures(err)[0].Field != "review-state" {
		t.Fatalf("ParseState(late) = %v", err)
	}
	if _, err := review.ParseTier(" High "); err != nil {
		t.Fatalf("ParseTier( High ) = %v", err)
	}
}
