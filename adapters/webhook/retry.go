package webhook

import "time"

// RetryWindow is how long after the first attempt a delivery is retried;
// then the caller gives up (disables the endpoint and tells its admins).
const RetryWindow = 24 * time.Hour

// retryDelays are the waits after the 1st, 2nd, ... failed attempt: the
// Standard Webhooks / Svix schedule. Later failures wait as long as the
// last entry until the window closes.
var retryDelays = []time.Duration{
	5 * time.Second,
	5 * time.Minute,
	30 * time.Minute,
	2 * time.Hour,
	5 * time.Hour,
	10 * time.Hour,
}

// NextRetry says when to try a delivery again after its attempt-th attempt
// (1 for the first) failed at now; firstAt is when the first attempt was
// made. The wait grows with each failure (5 s, 5 min, 30 min, 2 h, 5 h,
// then 10 h). A retry that would fall after firstAt+RetryWindow is moved to
// that moment, so the last attempt is made when the window closes; once
// now has reached it, NextRetry answers false: give up.
//
// Retries carry no jitter: deliveries to one endpoint fail at different
// times anyway, and a fixed schedule is what the deliveries log shows.
func NextRetry(attempt int, firstAt, now time.Time) (time.Time, bool) {
	deadline := firstAt.Add(RetryWindow)
	if !now.Before(deadline) {
		return time.Time{}, false
	}
	i := min(max(attempt, 1), len(retryDelays)) - 1
	next := now.Add(retryDelays[i])
	if next.After(deadline) {
		next = deadline
	}
	return next, true
}
