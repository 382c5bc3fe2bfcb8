package contracts

import "time"

// NoticeWindowDays is how long before its notice deadline a contract reads
// notice_due.
const NoticeWindowDays = 90

// State is a contract's derived state.
type State string

// The states, as the wire spells them.
const (
	// Active: before the notice window, or rolled forward by auto-renewal.
	Active State = "active"
	// NoticeDue: from NoticeWindowDays before the notice deadline until
	// the end date, both days included.
	NoticeDue State = "notice_due"
	// Expired: after the end date, for a contract that does not renew.
	Expired State = "expired"
)

// Term is how long one period of a contract runs: whole months, or days.
// Exactly one of the two is positive.
type Term struct {
	Months int
	Days   int
}

// TermOf returns the term of a contract running from start to end, both
// civil dates and both included. It is whole months when the day after end
// is start moved by that many months (the day of month kept, or that
// month's last day when it has fewer days: 31 January to 27 February
// 2026 is one month, since 28 February stands for the 31st); otherwise it
// is the number of days from start to end inclusive.
func TermOf(start, end time.Time) Term {
	next := end.AddDate(0, 0, 1)
	months := (next.Year()-start.Year())*12 + int(next.Month()) - int(start.Month())
	if months >= 1 && AddMonths(start, months).Equal(next) {
		return Term{Months: months}
	}
	return Term{Days: days(start, end) + 1}
}

// AddMonths moves a civil date by n months keeping its day of month, or
// the target month's last day when it is shorter (31 January + 1 month is
// 28 or 29 February).
func AddMonths(d time.Time, n int) time.Time {
	y, m, day := d.Date()
	first := time.Date(y, m+time.Month(n), 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return time.Date(first.Year(), first.Month(), min(day, last), 0, 0, 0, 0, time.UTC)
}

// days counts the days from a to b (civil dates; negative when b is
// before a).
func days(a, b time.Time) int {
	return int(b.Sub(a).Hours()+12) / 24
}

// Derived is what a contract's dates say on a given day.
type Derived struct {
	// Start and End are the current period: the stored dates, or, for an
	// auto-renewing contract past its end, the period that covers today.
	Start, End time.Time
	// NoticeDeadline is End minus the notice period.
	NoticeDeadline time.Time
	State          State
}

// Derive computes a contract's current period, notice deadline and state on
// today (a civil date). An auto-renewing contract whose end is before today
// is rolled forward by as many whole terms as needed for its period to
// cover today; each period is counted from the stored start (period k runs
// from start + k terms to start + (k+1) terms - 1 day, months clamped to
// month ends), so a monthly contract from 31 January does not drift to the
// 28th. The state is then read on the current period: expired after End
// (never for an auto-renewing contract), notice_due from NoticeWindowDays
// before the notice deadline until End, active otherwise.
func Derive(start, end time.Time, autoRenew bool, noticeDays int, today time.Time) Derived {
	if autoRenew && today.After(end) && !end.Before(start) {
		start, end = roll(start, end, today)
	}
	d := Derived{Start: start, End: end, NoticeDeadline: end.AddDate(0, 0, -noticeDays)}
	switch {
	case today.After(end):
		d.State = Expired
	case !today.Before(d.NoticeDeadline.AddDate(0, 0, -NoticeWindowDays)):
		d.State = NoticeDue
	default:
		d.State = Active
	}
	return d
}

// roll returns the period of the contract that covers today (today is after
// end).
func roll(start, end, today time.Time) (time.Time, time.Time) {
	t := TermOf(start, end)
	if t.Days > 0 {
		k := (days(end, today) + t.Days - 1) / t.Days
		s := start.AddDate(0, 0, k*t.Days)
		return s, s.AddDate(0, 0, t.Days-1)
	}
	elapsed := (today.Year()-start.Year())*12 + int(today.Month()) - int(start.Month())
	k := max(1, elapsed/t.Months-1)
	for AddMonths(start, (k+1)*t.Months).AddDate(0, 0, -1).Before(today) {
		k++
	}
	return AddMonths(start, k*t.Months), AddMonths(start, (k+1)*t.Months).AddDate(0, 0, -1)
}
