package relay

import "time"

// SetAfter replaces the relay's time.After, so that tests see every wait
// of Run and need not sleep through it.
func SetAfter(r *Relay, after func(time.Duration) <-chan time.Time) { r.after = after }
