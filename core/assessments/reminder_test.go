package assessments_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
)

func TestDueReminder(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 7, 15, 14, 30, 0, 0, time.UTC)
	d := assessments.Due{NextReviewAt: due, State: assessments.Current}
	def := assessments.DefaultPolicy() // offsets 30 and 7, weekly overdue
	once := def
	once.RepeatOverdue = false
	tests := []struct {
		name   string
		d      assessments.Due
		p      assessments.Policy
		now    time.Time
		want   int
		wantOK bool
	}{
		{"never reviewed", assessments.Due{State: assessments.NeverReviewed}, def, due, 0, false},
		{"before the first offset", d, def, due.AddDate(0, 0, -31), 0, false},
		{"on the first offset day", d, def, time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC), 30, true},
		{"between the offsets", d, def, due.AddDate(0, 0, -8), 30, true},
		{"on the second offset day", d, def, due.AddDate(0, 0, -7), 7, true},
		{"the day before", d, def, due.AddDate(0, 0, -1), 7, true},
		{"on the due date", d, def, time.Date(2026, 7, 15, 23, 59, 0, 0, time.UTC), 0, true},
		{"overdue, first week: the due-date window", d, def, due.AddDate(0, 0, 6), 0, true},
		{"overdue a week", d, def, due.AddDate(0, 0, 7), -7, true},
		{"overdue 20 days", d, def, due.AddDate(0, 0, 20), -14, true},
		{"overdue without weekly repeats", d, once, due.AddDate(0, 0, 20), 0, true},
		{"no offsets: nothing before the day", d, assessments.Policy{}, due.AddDate(0, 0, -1), 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, ok := assessments.DueReminder(tc.d, tc.p, tc.now)
			if ok != tc.wantOK || (ok && (r.Offset != tc.want || r.DueDate != "2026-07-15")) {
				t.Fatalf("DueReminder = %+v %v, want offset %d %v", r, ok, tc.want, tc.wantOK)
			}
		})
	}
	id := uuid.MustParse("0190f000-0000-7000-8000-000000000001")
	a := assessments.Reminder{DueDate: "2026-07-15", Offset: 7}.Key(id, "ann@acme.test")
	b := assessments.Reminder{DueDate: "2026-07-22", Offset: 7}.Key(id, "ann@acme.test")
	if a == b || a != "reminder:0190f000-0000-7000-8000-000000000001:2026-07-15:7:ann@acme.test" {
		t.Fatalf("keys %q %q: a moved due date must be a new reminder", a, b)
	}
}
