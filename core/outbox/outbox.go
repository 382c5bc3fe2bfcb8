// Package outbox holds the side effects a unit of work records for delivery
// after it commits: e-mails, enrichment and backfill jobs, alert fan-out and
// blob deletion. Nothing is sent for a rolled-back write, and nothing is lost
// while the queue or the mail server is down.
package outbox

import (
	"encoding/json"
	"time"

	"github.com/google/uuid"
)

// Kind names a side effect; it doubles as the job type on the queue.
type Kind string

// The kinds of side effects.
const (
	KindMemberMail        Kind = "mail:member"
	KindSubscriberConfirm Kind = "mail:subscriber_confirm"
	KindIncidentFanout    Kind = "alert:fanout"
	KindAlertMail         Kind = "mail:alert"
	KindEnrich            Kind = "enrich:vendor"
	KindBackfill          Kind = "backfill:run"
	KindBlobDelete        Kind = "blob:delete"
	KindReminderMail      Kind = "mail:review_reminder"
	// Periodic kinds are enqueued by the scheduler, not the outbox.
	KindPollIncidents   Kind = "periodic:poll_incidents"
	KindReenrichStale   Kind = "periodic:reenrich_stale"
	KindReviewReminders Kind = "periodic:review_reminders"
)

// Kinds lists every kind.
func Kinds() []Kind {
	return []Kind{KindMemberMail, KindSubscriberConfirm, KindIncidentFanout, KindAlertMail, KindEnrich, KindBackfill, KindBlobDelete, KindReminderMail, KindPollIncidents, KindReenrichStale, KindReviewReminders}
}

// Queue names by urgency.
const (
	QueueCritical = "critical" // mail and alerts
	QueueDefault  = "default"  // enrichment, blob deletion
	QueueLow      = "low"      // backfill
)

// Queue is where a kind runs.
func (k Kind) Queue() string {
	switch k {
	case KindMemberMail, KindSubscriberConfirm, KindIncidentFanout, KindAlertMail, KindReminderMail:
		return QueueCritical
	case KindBackfill, KindPollIncidents, KindReenrichStale, KindReviewReminders:
		return QueueLow
	}
	return QueueDefault
}

// Message is one outbox row. ID is a time-ordered UUIDv7 and serves as the
// job id on the queue, so relaying a message twice cannot enqueue it twice.
type Message struct {
	ID        uuid.UUID
	Kind      Kind
	Payload   json.RawMessage
	CreatedAt time.Time
	Attempts  int
	LastError string
}

// New builds a message with a JSON payload.
func New(id uuid.UUID, kind Kind, payload any, now time.Time) Message {
	b, err := json.Marshal(payload)
	if err != nil {
		panic("outbox: unmarshalable payload: " + err.Error()) // payloads are our own structs
	}
	return Message{ID: id, Kind: kind, Payload: b, CreatedAt: now.UTC()}
}

// MemberMail is the payload of KindMemberMail.
type MemberMail struct {
	EventID     uuid.UUID `json:"event_id"`
	AccountID   uuid.UUID `json:"account_id"`
	AccountName string    `json:"account_name"`
	Email       string    `json:"email"`
	Role        string    `json:"role"`
	OldRole     string    `json:"old_role,omitempty"`
	Change      string    `json:"change"` // added or role_changed
	By          string    `json:"by"`
}

// SubscriberConfirm is the payload of KindSubscriberConfirm.
type SubscriberConfirm struct {
	EventID      uuid.UUID `json:"event_id"`
	SubscriberID uuid.UUID `json:"subscriber_id"`
}

// IncidentFanout is the payload of KindIncidentFanout.
type IncidentFanout struct {
	IncidentID uuid.UUID `json:"incident_id"`
}

// AlertMail is the payload of KindAlertMail: one mail to one subscriber.
type AlertMail struct {
	IncidentID   uuid.UUID `json:"incident_id"`
	SubscriberID uuid.UUID `json:"subscriber_id"`
	// Names fixed at fan-out time, so that each of thousands of mail jobs
	// does not read them again.
	VendorName  string `json:"vendor_name,omitempty"`
	ListName    string `json:"list_name,omitempty"`
	AccountName string `json:"account_name,omitempty"`
}

// ReminderMail is the payload of KindReminderMail: one review reminder to
// one recipient, queued once by the periodic job under Key.
type ReminderMail struct {
	Key          string    `json:"key"`
	AccountID    uuid.UUID `json:"account_id"`
	AssessmentID uuid.UUID `json:"assessment_id"`
	Email        string    `json:"email"`
	DueDate      string    `json:"due_date"` // 2006-01-02
	Offset       int       `json:"offset"`
}

// Enrich is the payload of KindEnrich.
type Enrich struct {
	RunID    uuid.UUID `json:"run_id"`
	JobID    uuid.UUID `json:"job_id"`
	VendorID uuid.UUID `json:"vendor_id"`
	Sections []string  `json:"sections"`
}

// Backfill is the payload of KindBackfill.
type Backfill struct {
	RunID uuid.UUID  `json:"run_id"`
	Since *time.Time `json:"since,omitempty"`
}

// BlobDelete is the payload of KindBlobDelete.
type BlobDelete struct {
	Keys []string `json:"keys"`
}
