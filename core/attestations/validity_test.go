package attestations_test

import (
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core/attestations"
)

func day(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestTwelveMonthsAfter(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2025-06-15", "2026-06-15"},
		{"2024-02-29", "2025-02-28"}, // leap day: that month's last day
		{"2023-02-28", "2024-02-28"}, // into a leap year: the same day
		{"2023-03-01", "2024-03-01"},
		{"2025-01-31", "2026-01-31"},
		{"2025-12-31", "2026-12-31"},
		{"2025-04-30", "2026-04-30"},
		{"2027-02-28", "2028-02-28"},
	} {
		if got := attestations.TwelveMonthsAfter(day(c.in)).Format(time.DateOnly); got != c.want {
			t.Errorf("TwelveMonthsAfter(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestValidUntilByKind(t *testing.T) {
	for _, c := range []struct {
		a    attestations.Attestation
		want string
	}{
		{attestations.Attestation{Kind: attestations.KindSOC2, PeriodStart: day("2023-03-01"), PeriodEnd: day("2024-02-29")}, "2025-02-28"},
		{attestations.Attestation{Kind: attestations.KindPentest, PerformedOn: day("2025-01-31")}, "2026-01-31"},
		{attestations.Attestation{Kind: attestations.KindISO27001, ValidUntil: day("2027-05-01")}, "2027-05-01"},
		{attestations.Attestation{Kind: attestations.KindInsurance, ValidUntil: day("2026-01-01")}, "2026-01-01"},
		{attestations.Attestation{Kind: attestations.KindOther, ValidUntil: day("2026-02-02")}, "2026-02-02"},
	} {
		if got := c.a.ValidUntilDate().Format(time.DateOnly); got != c.want {
			t.Errorf("%s: valid until %s, want %s", c.a.Kind, got, c.want)
		}
	}
}

func TestStateOn(t *testing.T) {
	until := day("2026-03-31")
	for _, c := range []struct {
		today string
		want  string
	}{
		{"2026-01-29", attestations.StateCurrent},  // 61 days away
		{"2026-01-30", attestations.StateExpiring}, // exactly 60 days away: expiring
		{"2026-03-30", attestations.StateExpiring},
		{"2026-03-31", attestations.StateExpiring}, // valid_until itself still counts
		{"2026-04-01", attestations.StateExpired},  // the day after
		{"2027-01-01", attestations.StateExpired},
	} {
		// Late in the day: the state goes by the civil date, not the hour.
		now := day(c.today).Add(23*time.Hour + 59*time.Minute)
		if got := attestations.StateOn(until, now); got != c.want {
			t.Errorf("on %s: %s, want %s", c.today, got, c.want)
		}
	}
	// Across a leap day: 60 days before 2024-03-01 is 2024-01-01.
	if got := attestations.StateOn(day("2024-03-01"), day("2024-01-01")); got != attestations.StateExpiring {
		t.Errorf("60 days before across a leap day: %s", got)
	}
	if got := attestations.StateOn(day("2024-03-01"), day("2023-12-31")); got != attestations.StateCurrent {
		t.Errorf("61 days before across a leap day: %s", got)
	}
}
