// A gate lets callers through to a connection pool in the order they
// came. database/sql hands a freed connection to a waiter picked at random,
// so under load a request that needs the pool several times, or waits
// behind many others, can wait far longer than its turn: the tail of the
// latency grows with the queue. A gate with as many places as the pool has
// connections is entered before a connection is taken and left after it is
// given back, so the pool never has waiters and the callers queue here,
// first come first served (a channel's blocked senders are woken in order).

package sqlstore

import "context"

// gate admits at most its capacity of callers at once, in arrival order.
type gate chan struct{}

// newGate returns a gate of n places (at least 1).
func newGate(n int) gate { return make(gate, max(n, 1)) }

// Enter waits for a place, or for ctx to end (then it returns ctx.Err()
// and the caller holds no place).
func (g gate) Enter(ctx context.Context) error {
	select {
	case g <- struct{}{}:
		return nil
	default:
	}
	select {
	case g <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Leave gives the place back; call it once for each Enter that returned nil.
func (g gate) Leave() { <-g }
