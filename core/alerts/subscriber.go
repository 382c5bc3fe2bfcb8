package alerts

import (
	"time"

	"github.com/google/uuid"
)

// Status of a subscription.
const (
	SubscriberPending   = "pending"
	SubscriberConfirmed = "confirmed"
)

// SubscriberStatusValues lists the states of a subscription.
func SubscriberStatusValues() []string { return []string{SubscriberPending, SubscriberConfirmed} }

// Subscriber is one e-mail address subscribed to one list.
type Subscriber struct {
	ID          uuid.UUID
	AccountID   uuid.UUID
	ListID      uuid.UUID
	Email       string
	Status      string
	IsMember    bool
	CreatedAt   time.Time
	ConfirmedAt *time.Time
}

// Recipient is a confirmed subscriber who should get an incident alert.
type Recipient struct {
	SubscriberID uuid.UUID
	AccountID    uuid.UUID
	ListID       uuid.UUID
	ListName     string
	Email        string
}
