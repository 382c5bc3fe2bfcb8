// Package outbox holds the side effects a unit of work records for delivery
// after it commits: e-mails, enrichment and backfill jobs, alert fan-out and
// blob deletion. Nothing is sent for a rolled-back write, and nothing is lost
// while the queue or the mail server is down.
package outbox

import (
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
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
	// Outbound webhooks (core/webhooks): an event to fan out to the
	// endpoints that want it, one attempt of one delivery, and the mail to
	// an account's admins that an endpoint was disabled.
	KindWebhookEvent        Kind = "webhook:event"
	KindWebhookAttempt      Kind = "webhook:attempt"
	KindWebhookDisabledMail Kind = "mail:webhook_disabled"
	// KindRatingChanged is a change of a vendor's rating that matters (a
	// scan's record with changes): it is fanned out to the subscribers of
	// the lists alerting on the vendor, and is the event outbound webhooks
	// send as vendor.rating_changed.
	KindRatingChanged Kind = "alert:rating_changed"
	KindRatingMail    Kind = "mail:rating_alert"
	// KindMentionMail is the mail to a member mentioned in a note of a
	// vendor record (core/records).
	KindMentionMail Kind = "mail:note_mention"
	// Periodic kinds are enqueued by the scheduler, not the outbox.
	KindPollIncidents   Kind = "periodic:poll_incidents"
	KindReenrichStale   Kind = "periodic:reenrich_stale"
	KindReviewReminders Kind = "periodic:review_reminders"
)

// Kinds lists every kind.
func Kinds() []Kind {
	return []Kind{KindMemberMail, KindSubscriberConfirm, KindIncidentFanout, KindAlertMail, KindEnrich, KindBackfill, KindBlobDelete, KindReminderMail, KindRatingChanged, KindRatingMail, KindPollIncidents, KindReenrichStale, KindReviewReminders,
		KindWebhookEvent, KindWebhookAttempt, KindWebhookDisabledMail, KindMentionMail}
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
	case KindMemberMail, KindSubscriberConfirm, KindIncidentFanout, KindAlertMail, KindReminderMail, KindRatingChanged, KindRatingMail, KindWebhookDisabledMail, KindMentionMail:
		return QueueCritical
	case KindBackfill, KindPollIncidents, KindReenrichStale, KindReviewReminders:
		return QueueLow
	}
	return QueueDefault
}

// Message is one outbox row. ID is a time-ordered UUIDv7 and serves as the
// job id on the queue, so relaying a message twice cannot enqueue it twice.
//
// Payload is a value of the type below that its kind takes (MemberMail for
// KindMemberMail, ...); the periodic kinds take none. The core hands it on
// as it is: the stores and queues that write it down give it a form of
// their own (internal/outboxjson), so no wire format lives here.
type Message struct {
	ID        uuid.UUID
	Kind      Kind
	Payload   any
	CreatedAt time.Time
	// DueAt, when set, is when the relay may hand the message over first:
	// a job scheduled for later (the next attempt of a webhook delivery),
	// kept by the store until then, so that it survives restarts and queue
	// outages as every message does.
	DueAt     time.Time
	Attempts  int
	LastError string
}

// New builds a message with its payload.
func New(id uuid.UUID, kind Kind, payload any, now time.Time) Message {
	return Message{ID: id, Kind: kind, Payload: payload, CreatedAt: now.UTC()}
}

// MemberMail is the payload of KindMemberMail.
type MemberMail struct {
	EventID     uuid.UUID
	AccountID   uuid.UUID
	AccountName string
	Email       string
	Role        string
	OldRole     string
	Change      string // added or role_changed
	By          string
}

// SubscriberConfirm is the payload of KindSubscriberConfirm.
type SubscriberConfirm struct {
	EventID      uuid.UUID
	SubscriberID uuid.UUID
}

// IncidentFanout is the payload of KindIncidentFanout.
type IncidentFanout struct {
	IncidentID uuid.UUID
}

// AlertMail is the payload of KindAlertMail: one mail to one subscriber.
type AlertMail struct {
	IncidentID   uuid.UUID
	SubscriberID uuid.UUID
	// Names fixed at fan-out time, so that each of thousands of mail jobs
	// does not read them again.
	VendorName  string
	ListName    string
	AccountName string
}

// ReminderMail is the payload of KindReminderMail: one review reminder to
// one recipient, queued once by the periodic job under Key.
type ReminderMail struct {
	Key          string
	AccountID    uuid.UUID
	AssessmentID uuid.UUID
	Email        string
	DueDate      string // 2006-01-02
	Offset       int
}

// RatingChanged is the payload of KindRatingChanged: the rating history
// record (vendors.RatingRecord) that carries the changes, and its vendor.
type RatingChanged struct {
	EventID  uuid.UUID
	VendorID uuid.UUID
}

// RatingMail is the payload of KindRatingMail: the mail of one rating
// change to one subscriber.
type RatingMail struct {
	EventID      uuid.UUID
	SubscriberID uuid.UUID
	// Names fixed at fan-out time, as for AlertMail.
	VendorName  string
	ListName    string
	AccountName string
}

// Enrich is the payload of KindEnrich.
type Enrich struct {
	RunID    uuid.UUID
	JobID    uuid.UUID
	VendorID uuid.UUID
	Sections []string
}

// Backfill is the payload of KindBackfill.
type Backfill struct {
	RunID uuid.UUID
	Since *time.Time
}

// BlobDelete is the payload of KindBlobDelete.
type BlobDelete struct {
	Keys []string
}

// WebhookEvent is the payload of KindWebhookEvent: the event to fan out.
type WebhookEvent struct {
	Event domainevent.Event
}

// WebhookAttempt is the payload of KindWebhookAttempt: attempt Number of
// one delivery. The delivery (its endpoint and event) is read from the
// store, so a retry scheduled for hours later sends what was stored.
type WebhookAttempt struct {
	DeliveryID uuid.UUID
	Number     int
}

// WebhookDisabledMail is the payload of KindWebhookDisabledMail: the mail
// to the admins and owners of an endpoint's account that it was disabled.
type WebhookDisabledMail struct {
	EndpointID uuid.UUID
	AccountID  uuid.UUID
	URL        string
	LastError  string
	Attempts   int
}

// MentionMail is the payload of KindMentionMail: the mail of one note of a
// vendor record to one member it mentions.
type MentionMail struct {
	NoteID      uuid.UUID
	AccountID   uuid.UUID
	AccountName string
	VendorID    uuid.UUID
	VendorName  string
	Email       string
	Author      string
	Text        string
}
