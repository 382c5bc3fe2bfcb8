package contracts

import (
	"testing"
	"time"
)

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestTermOf(t *testing.T) {
	for _, tc := range []struct {
		start, end string
		want       Term
	}{
		{"2026-01-01", "2026-12-31", Term{Months: 12}},
		{"2026-01-31", "2026-02-27", Term{Months: 1}}, // 28 Feb stands for the 31st
		{"2024-01-31", "2024-02-28", Term{Months: 1}}, // leap year: 29 Feb stands for the 31st
		{"2024-01-31", "2024-02-27", Term{Days: 28}},
		{"2024-02-29", "2025-02-27", Term{Months: 12}}, // 28 Feb 2025 stands for the 29th
		{"2026-03-15", "2026-04-14", Term{Months: 1}},
		{"2026-03-15", "2026-04-20", Term{Days: 37}},
		{"2026-03-15", "2026-03-15", Term{Days: 1}},
		{"2025-07-01", "2028-06-30", Term{Months: 36}},
	} {
		if got := TermOf(day(tc.start), day(tc.end)); got != tc.want {
			t.Errorf("TermOf(%s, %s) = %+v, want %+v", tc.start, tc.end, got, tc.want)
		}
	}
}

func TestAddMonths(t *testing.T) {
	for _, tc := range []struct {
		from string
		n    int
		want string
	}{
		{"2026-01-31", 1, "2026-02-28"},
		{"2024-01-31", 1, "2024-02-29"},
		{"2024-02-29", 12, "2025-02-28"},
		{"2024-02-29", 48, "2028-02-29"},
		{"2026-01-31", 2, "2026-03-31"},
		{"2026-11-30", 3, "2027-02-28"},
	} {
		if got := AddMonths(day(tc.from), tc.n).Format(time.DateOnly); got != tc.want {
			t.Errorf("AddMonths(%s, %d) = %s, want %s", tc.from, tc.n, got, tc.want)
		}
	}
}

func TestDerive(t *testing.T) {
	for _, tc := range []struct {
		name       string
		start, end string
		autoRenew  bool
		notice     int
		today      string
		wantStart  string
		wantEnd    string
		wantNotice string
		wantState  State
	}{
		// A year to 31 December 2026 with 30 days' notice: deadline 1 Dec,
		// window from 2 Sep (90 days before).
		{"before the window", "2026-01-01", "2026-12-31", false, 30, "2026-09-01", "2026-01-01", "2026-12-31", "2026-12-01", Active},
		{"exactly 90 days before the deadline", "2026-01-01", "2026-12-31", false, 30, "2026-09-02", "2026-01-01", "2026-12-31", "2026-12-01", NoticeDue},
		{"on the deadline", "2026-01-01", "2026-12-31", false, 30, "2026-12-01", "2026-01-01", "2026-12-31", "2026-12-01", NoticeDue},
		{"on the end date", "2026-01-01", "2026-12-31", false, 30, "2026-12-31", "2026-01-01", "2026-12-31", "2026-12-01", NoticeDue},
		{"the day after the end", "2026-01-01", "2026-12-31", false, 30, "2027-01-01", "2026-01-01", "2026-12-31", "2026-12-01", Expired},
		{"no notice period", "2026-01-01", "2026-12-31", false, 0, "2026-10-02", "2026-01-01", "2026-12-31", "2026-12-31", NoticeDue},
		{"no notice period, a day earlier", "2026-01-01", "2026-12-31", false, 0, "2026-10-01", "2026-01-01", "2026-12-31", "2026-12-31", Active},
		{"notice across a leap day", "2024-01-01", "2024-03-31", false, 31, "2024-02-29", "2024-01-01", "2024-03-31", "2024-02-29", NoticeDue},
		{"auto-renew on the end date does not roll", "2026-01-01", "2026-12-31", true, 30, "2026-12-31", "2026-01-01", "2026-12-31", "2026-12-01", NoticeDue},
		{"auto-renew the day after rolls a year", "2026-01-01", "2026-12-31", true, 30, "2027-01-01", "2027-01-01", "2027-12-31", "2027-12-01", Active},
		{"auto-renew rolls as many terms as needed", "2020-01-01", "2020-12-31", true, 30, "2026-11-28", "2026-01-01", "2026-12-31", "2026-12-01", NoticeDue},
		{"monthly from 31 Jan: Feb ends 28th", "2026-01-31", "2026-02-27", true, 0, "2026-02-28", "2026-02-28", "2026-03-30", "2026-03-30", NoticeDue},
		{"monthly from 31 Jan does not drift", "2026-01-31", "2026-02-27", true, 0, "2026-04-01", "2026-03-31", "2026-04-29", "2026-04-29", NoticeDue},
		{"yearly from 29 Feb rolls to 28 Feb", "2024-02-29", "2025-02-27", true, 10, "2025-03-01", "2025-02-28", "2026-02-27", "2026-02-17", Active},
		{"yearly from 29 Feb: the 2027 term ends the day before 29 Feb 2028", "2024-02-29", "2025-02-27", true, 0, "2027-03-01", "2027-02-28", "2028-02-28", "2028-02-28", Active},
		{"day term rolls by days", "2026-03-15", "2026-04-20", true, 0, "2026-04-21", "2026-04-21", "2026-05-27", "2026-05-27", NoticeDue},
		{"day term rolls several terms", "2026-03-15", "2026-04-20", true, 0, "2026-06-03", "2026-05-28", "2026-07-03", "2026-07-03", NoticeDue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := Derive(day(tc.start), day(tc.end), tc.autoRenew, tc.notice, day(tc.today))
			got := [4]string{d.Start.Format(time.DateOnly), d.End.Format(time.DateOnly), d.NoticeDeadline.Format(time.DateOnly), string(d.State)}
			want := [4]string{tc.wantStart, tc.wantEnd, tc.wantNotice, string(tc.wantState)}
			if got != want {
				t.Fatalf("got %v, want %v", got, want)
			}
		})
	}
}
