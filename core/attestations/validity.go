package attestations

import "time"

// ExpiringWithinDays is how close valid_until may be before a record reads
// as expiring: it is expiring from the day valid_until is this many days
// away (inclusive) through valid_until itself, and expired from the day
// after.
const ExpiringWithinDays = 60

// States of a record, derived on every read.
const (
	StateCurrent  = "current"
	StateExpiring = "expiring"
	StateExpired  = "expired"
)

// StateValues lists the states.
func StateValues() []string { return []string{StateCurrent, StateExpiring, StateExpired} }

// TwelveMonthsAfter is the same day a year later, or that month's last day
// when it has no such day (2024-02-29 gives 2025-02-28). d is a civil date
// (midnight UTC).
func TwelveMonthsAfter(d time.Time) time.Time {
	y, m, day := d.Date()
	first := time.Date(y+1, m, 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return time.Date(y+1, m, min(day, last), 0, 0, 0, 0, time.UTC)
}

// ValidUntilDate is the last day a record counts: a SOC 2 report 12 months
// after its period's end, a pen test 12 months after it was performed, any
// other kind its own valid_until.
func (a Attestation) ValidUntilDate() time.Time {
	switch a.Kind {
	case KindSOC2:
		return TwelveMonthsAfter(a.PeriodEnd)
	case KindPentest:
		return TwelveMonthsAfter(a.PerformedOn)
	}
	return a.ValidUntil
}

// StateOn is the state of a record valid until validUntil, on the day
// today (the civil date of a UTC instant): expired after validUntil,
// expiring when validUntil is ExpiringWithinDays days away or less
// (validUntil itself included), current otherwise.
func StateOn(validUntil, today time.Time) string {
	y, m, d := today.UTC().Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	switch {
	case day.After(validUntil):
		return StateExpired
	case !day.Before(validUntil.AddDate(0, 0, -ExpiringWithinDays)):
		return StateExpiring
	}
	return StateCurrent
}
