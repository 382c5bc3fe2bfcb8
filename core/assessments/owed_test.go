package assessments_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
)

func TestOwedReminders(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 7, 15, 9, 0, 0, 0, time.UTC)
	acc := uuid.MustParse("0190f000-0000-7000-8000-0000000000aa")
	mk := func(n byte, sponsor string, d assessments.Due) assessments.Assessment {
		a := assessments.Assessment{ID: uuid.UUID{15: n}, AccountID: acc, Due: d}
		a.SponsorContact = sponsor
		return a
	}
	current := assessments.Due{NextReviewAt: due, State: assessments.Current}
	never := assessments.Due{State: assessments.NeverReviewed}
	staff := []string{"Owner@Acme.test", "admin@acme.test"}
	def := assessments.DefaultPolicy()
	tests := []struct {
		name     string
		as       []assessments.Assessment
		p        assessments.Policy
		now      time.Time
		optedOut []string
		want     []string // "assessment byte/offset/email"
	}{
		{"nothing before the first offset", []assessments.Assessment{mk(1, "s@v.test", current)}, def, due.AddDate(0, 0, -31), nil, nil},
		{"first offset: sponsor then staff", []assessments.Assessment{mk(1, "s@v.test", current)}, def, due.AddDate(0, 0, -30), nil,
			[]string{"1/30/s@v.test", "1/30/owner@acme.test", "1/30/admin@acme.test"}},
		{"sponsor who is staff gets one mail", []assessments.Assessment{mk(1, "ADMIN@acme.test", current)}, def, due.AddDate(0, 0, -7), nil,
			[]string{"1/7/admin@acme.test", "1/7/owner@acme.test"}},
		{"no sponsor: staff only", []assessments.Assessment{mk(1, "", current)}, def, due, nil,
			[]string{"1/0/owner@acme.test", "1/0/admin@acme.test"}},
		{"overdue weekly", []assessments.Assessment{mk(1, "s@v.test", current)}, def, due.AddDate(0, 0, 15), nil,
			[]string{"1/-14/s@v.test", "1/-14/owner@acme.test", "1/-14/admin@acme.test"}},
		{"opted out get none", []assessments.Assessment{mk(1, "s@v.test", current)}, def, due, []string{"s@v.test", "owner@acme.test"},
			[]string{"1/0/admin@acme.test"}},
		{"never reviewed is owed none", []assessments.Assessment{mk(1, "s@v.test", never), mk(2, "t@v.test", current)}, def, due, nil,
			[]string{"2/0/t@v.test", "2/0/owner@acme.test", "2/0/admin@acme.test"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := assessments.OwedReminders(tc.as, tc.p, tc.now, staff, func(e string) bool { return slices.Contains(tc.optedOut, e) })
			var got []string
			for _, o := range out {
				got = append(got, string('0'+rune(o.AssessmentID[15]))+"/"+strconv.Itoa(o.Reminder.Offset)+"/"+o.Email)
				if o.Key() != o.Reminder.Key(o.AssessmentID, o.Email) || o.Reminder.DueDate != "2026-07-15" {
					t.Fatalf("owed %+v: key %q", o, o.Key())
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("OwedReminders = %q, want %q", got, tc.want)
			}
		})
	}
	if k := assessments.OptOutKey(acc, " Ann@Acme.test "); k != "reminder-optout:0190f000-0000-7000-8000-0000000000aa:ann@acme.test" {
		t.Fatalf("OptOutKey = %q", k)
	}
}
