package testenv_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/internal/testenv"
)

// TestClockShiftMovesTestClocks: VETTED_TEST_CLOCK_SHIFT moves the start of
// a fixed test clock and a running test clock by the same duration, either
// way; unset moves nothing.
func TestClockShiftMovesTestClocks(t *testing.T) {
	at := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		env  string
		want time.Duration
	}{{"", 0}, {"8760h", 8760 * time.Hour}, {"-8760h", -8760 * time.Hour}} {
		t.Run(fmt.Sprintf("shift=%q", tc.env), func(t *testing.T) {
			t.Setenv(testenv.ClockShift, tc.env)
			if got := testenv.ClockStart(t, at); !got.Equal(at.Add(tc.want)) {
				t.Errorf("ClockStart = %v, want %v", got, at.Add(tc.want))
			}
			// The running clock is read between two readings of the real
			// one, both moved by the shift.
			before := time.Now().Add(tc.want)
			got := testenv.Clock(t)()
			after := time.Now().Add(tc.want)
			if got.Before(before) || got.After(after) || got.Location() != time.UTC {
				t.Errorf("Clock() = %v, want between %v and %v, in UTC", got, before, after)
			}
		})
	}
}

// fatalTB records Fatal instead of ending the test.
type fatalTB struct {
	testing.TB
	fatal []any
}

func (f *fatalTB) Helper()           {}
func (f *fatalTB) Fatal(args ...any) { f.fatal = append(f.fatal, args...) }

// TestClockShiftRefusesGarbage: a shift that is no Go duration fails the
// test rather than running it unshifted.
func TestClockShiftRefusesGarbage(t *testing.T) {
	t.Setenv(testenv.ClockShift, "a year")
	if _, err := testenv.Shift(); err == nil {
		t.Fatal("Shift accepted \"a year\"")
	}
	f := &fatalTB{TB: t}
	testenv.ClockStart(f, time.Now())
	if len(f.fatal) == 0 {
		t.Fatal("ClockStart did not fail the test")
	}
}
