package api

import "testing"

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
