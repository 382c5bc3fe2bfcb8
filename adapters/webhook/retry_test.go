package webhook_test

import (
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/webhook"
)

func TestNextRetry(t *testing.T) {
	first := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return first.Add(d) }
	h, m, s := time.Hour, time.Minute, time.Second
	for _, tc := range []struct {
		name    string
		attempt int
		now     time.Time
		want    time.Time // zero: give up
	}{
		{"after the 1st", 1, first, at(5 * s)},
		{"after the 2nd", 2, at(5 * s), at(5*s + 5*m)},
		{"after the 3rd", 3, at(5*s + 5*m), at(5*s + 35*m)},
		{"after the 4th", 4, at(5*s + 35*m), at(5*s + 2*h + 35*m)},
		{"after the 5th", 5, at(5*s + 2*h + 35*m), at(5*s + 7*h + 35*m)},
		{"after the 6th", 6, at(5*s + 7*h + 35*m), at(5*s + 17*h + 35*m)},
		{"after the 7th: moved to the window's end", 7, at(5*s + 17*h + 35*m), at(24 * h)},
		{"at the window's end: give up", 8, at(24 * h), time.Time{}},
		{"past the window: give up", 3, at(30 * h), time.Time{}},
		{"late attempts wait the longest delay", 40, at(1 * h), at(11 * h)},
		{"attempt 0 counts as the first", 0, first, at(5 * s)},
		{"slow attempts shift the schedule", 2, at(10 * m), at(15 * m)},
		{"close to the end", 2, at(24*h - time.Minute), at(24 * h)},
	} {
		got, ok := webhook.NextRetry(tc.attempt, first, tc.now)
		if ok != !tc.want.IsZero() || !got.Equal(tc.want) {
			t.Errorf("%s: NextRetry(%d, first, %s) = %s, %v; want %s", tc.name, tc.attempt, tc.now.Sub(first), got.Sub(first), ok, tc.want.Sub(first))
		}
	}
}

// TestNextRetrySchedule follows a delivery that always fails, each attempt
// made exactly when NextRetry said: the retries come later and later, with
// growing gaps, none after the 24-hour window, and then it gives up.
func TestNextRetrySchedule(t *testing.T) {
	first := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC)
	now, gap, attempts := first, time.Duration(0), 1
	for {
		next, ok := webhook.NextRetry(attempts, first, now)
		if !ok {
			break
		}
		if !next.After(now) || next.After(first.Add(webhook.RetryWindow)) {
			t.Fatalf("attempt %d at %s: next %s is not after it and within the window", attempts, now.Sub(first), next.Sub(first))
		}
		last := next.Equal(first.Add(webhook.RetryWindow))
		if next.Sub(now) < gap && !last {
			t.Fatalf("attempt %d: the gap shrank from %s to %s", attempts, gap, next.Sub(now))
		}
		now, gap = next, next.Sub(now)
		attempts++
		if attempts > 100 {
			t.Fatal("NextRetry never gives up")
		}
	}
	if attempts != 8 || !now.Equal(first.Add(webhook.RetryWindow)) {
		t.Fatalf("%d attempts, the last at %s; want 8, the last when the 24h window closes", attempts, now.Sub(first))
	}
}
