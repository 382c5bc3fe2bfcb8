package api

import (
	"testing"
	"time"
)

// TestLimiterDefaultBurst: with the default options a caller may send 200
// requests at once, and the next one waits (the rate, 100 per second,
// refills far less than a token while the loop runs).
func TestLimiterDefaultBurst(t *testing.T) {
	l := newLimiter(100, 200)
	for i := range 200 {
		if wait := l.take("ann"); wait != 0 {
			t.Fatalf("request %d of the burst waits %v", i+1, wait)
		}
	}
	if wait := l.take("ann"); wait <= 0 {
		t.Fatal("request 201 did not wait")
	}
	if wait := l.take("bob"); wait != 0 {
		t.Fatalf("another caller waits %v", wait)
	}
}

// TestLimiterClockOrder: concurrent requests read the clock before they
// take the limiter's lock, so a take may carry a time a little before the
// previous one. At a high rate that must not drain the bucket: a caller
// well within its limit is never refused.
func TestLimiterClockOrder(t *testing.T) {
	l := newLimiter(1_000_000, 200)
	t0 := time.Unix(1_700_000_000, 0)
	for i := range 1000 {
		// Alternate between a time and one 300 µs before it: reordered by
		// the lock, worth 300 tokens at this rate.
		at := t0.Add(time.Duration(i) * time.Millisecond)
		if i%2 == 1 {
			at = at.Add(-1300 * time.Microsecond)
		}
		if wait := l.takeAt("ann", at); wait != 0 {
			t.Fatalf("take %d at %v waits %v", i+1, at.Sub(t0), wait)
		}
	}
	// The rate still applies: a burst past 200 within one instant waits.
	now := t0.Add(time.Hour)
	for range 200 {
		l.takeAt("ann", now)
	}
	if wait := l.takeAt("ann", now); wait <= 0 {
		t.Fatal("take 201 of a burst did not wait")
	}
}
