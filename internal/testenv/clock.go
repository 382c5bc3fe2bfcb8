package testenv

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// ClockShift names the variable that moves every test clock: a Go duration
// (8760h for a year ahead, -8760h for a year back) added to the start of
// each fixed test clock (ClockStart) and to the running clock of the tests
// that need one (Clock). Unset or empty: no shift.
//
// A test never mixes its clock with the real one: the fixtures it starts
// (certificates, security.txt, signed links, seeded rows) take the test's
// clock. Running the suite with the clock a year ahead and a year back
// proves it: a fixture or a piece of code under test that still read the
// real clock would be a year off and its test would fail.
const ClockShift = "VETTED_TEST_CLOCK_SHIFT"

// Shift is the duration VETTED_TEST_CLOCK_SHIFT holds (0 when unset), for
// a process that has no testing.TB (a child process of a test).
func Shift() (time.Duration, error) {
	s := os.Getenv(ClockShift)
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: want a Go duration such as 8760h or -8760h: %w", ClockShift, s, err)
	}
	return d, nil
}

// ClockStart is where a fixed test clock meant to start at at starts:
// at moved by VETTED_TEST_CLOCK_SHIFT. A malformed value fails t.
func ClockStart(t testing.TB, at time.Time) time.Time {
	t.Helper()
	return at.Add(mustShift(t))
}

// Clock is a running test clock, for a test that lets time pass as it
// does: the real time in UTC moved by VETTED_TEST_CLOCK_SHIFT. The code
// under test and every fixture of the test take this one.
func Clock(t testing.TB) func() time.Time {
	t.Helper()
	d := mustShift(t)
	return func() time.Time { return time.Now().UTC().Add(d) }
}

func mustShift(t testing.TB) time.Duration {
	t.Helper()
	d, err := Shift()
	if err != nil {
		t.Fatal(err)
	}
	return d
}
