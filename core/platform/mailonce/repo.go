package mailonce

import (
	"context"
	"time"
)

// DeliveryState is what Claim found for a delivery key.
type DeliveryState int

// The outcomes of Repo.Claim.
const (
	// DeliveryClaimed: the caller holds the key (it was new, or its claim
	// was older than the lease and never marked sent) and should send, then
	// MarkSent or Release it.
	DeliveryClaimed DeliveryState = iota + 1
	// DeliverySent: the mail went out; nothing is left to do.
	DeliverySent
	// DeliveryBusy: another sender claimed the key less than a lease ago
	// and has not marked it sent; try again once the lease is over.
	DeliveryBusy
)

// String names the state, for logs.
func (s DeliveryState) String() string {
	switch s {
	case DeliveryClaimed:
		return "claimed"
	case DeliverySent:
		return "sent"
	case DeliveryBusy:
		return "busy"
	}
	return "unknown"
}

// Delivery is the state of a delivery key after Claim.
type Delivery struct {
	State DeliveryState
	// ClaimedAt is when the key's current claim was taken: now for
	// DeliveryClaimed, the other sender's claim for DeliveryBusy.
	ClaimedAt time.Time
	// SentAt is when the mail was marked sent (DeliverySent only).
	SentAt time.Time
}

// Repo remembers which mails went out, by delivery key, so that a
// retried job does not mail twice and a crashed one does not lose its mail:
// a key is claimed before the send and marked sent after it, and a claim
// never marked sent expires after a lease, when the next claim takes it over.
type Repo interface {
	// Claim takes key at now. A key never claimed, or claimed at or before
	// now-lease and never marked sent, is taken (DeliveryClaimed); a key
	// marked sent answers DeliverySent, and one claimed less than lease ago
	// DeliveryBusy with that claim's time. Of concurrent claims at most one
	// is DeliveryClaimed.
	Claim(ctx context.Context, key string, now time.Time, lease time.Duration) (Delivery, error)
	// MarkSent records that the mail of a claimed key went out at now; the
	// key is then DeliverySent for good. Marking an unknown key is
	// core.ErrNotFound; marking it again keeps the first time.
	MarkSent(ctx context.Context, key string, now time.Time) error
	// Release forgets the claim of a key whose send failed, so that a retry
	// may send at once. A key marked sent is kept.
	Release(ctx context.Context, key string) error
}

// Tx is what a unit of work must offer to mail once: the delivery keys.
type Tx interface{ Deliveries() Repo }
