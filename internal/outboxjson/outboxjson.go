// Package outboxjson is the JSON form of outbox payloads: what the SQL
// stores keep in outbox.payload and what the Redis queue carries as a task's
// payload. The core hands typed payloads (outbox.MemberMail, ...) through
// its ports; their keys are fixed here, once, so that renaming a field in
// the core changes neither a stored row nor a task already queued.
// TestStoredPayloads holds them to documents the earlier code wrote. It
// sits in the root module (a wire format, kept out of core/) so that the
// in-memory store, ports/memstore, copies payloads through the same form.
package outboxjson

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// Encode writes the payload of a message of kind. A kind with a payload
// type takes only that type; the other kinds (the periodic ones) carry no
// payload of their own, and whatever value they were given is written by
// encoding/json as it is (nil as null, struct{}{} as {}).
func Encode(kind outbox.Kind, payload any) (json.RawMessage, error) {
	c, ok := codecs[kind]
	if !ok {
		b, err := json.Marshal(payload)
		if err != nil {
			return nil, fmt.Errorf("outbox payload of %s: %w", kind, err)
		}
		return b, nil
	}
	return c.encode(payload)
}

// Decode reads a payload of kind into the core's typed value. A payload it
// cannot read, or one of a kind without a payload type, is returned as it
// is (a json.RawMessage): the job's handler then refuses it as a payload of
// the wrong type, permanently, as it refused JSON it could not decode.
func Decode(kind outbox.Kind, raw []byte) any {
	if c, ok := codecs[kind]; ok {
		if v, err := c.decode(raw); err == nil {
			return v
		}
	}
	return json.RawMessage(raw)
}

// codec converts one payload type to and from its JSON form.
type codec struct {
	encode func(any) (json.RawMessage, error)
	decode func([]byte) (any, error)
}

// typed makes the codec of core payload type C whose JSON form is J.
func typed[C, J any](to func(C) J, from func(J) C) codec {
	return codec{
		encode: func(p any) (json.RawMessage, error) {
			c, ok := p.(C)
			if !ok {
				return nil, fmt.Errorf("outbox payload is %T, want %T", p, *new(C))
			}
			return json.Marshal(to(c))
		},
		decode: func(raw []byte) (any, error) {
			var j J
			if err := json.Unmarshal(raw, &j); err != nil {
				return nil, err
			}
			return from(j), nil
		},
	}
}

// codecs are the payload types by kind. The JSON forms have the core
// types' fields one to one, so each converts with a Go conversion, and a
// field added to or renamed in the core stops the build here.
var codecs = map[outbox.Kind]codec{
	outbox.KindMemberMail: typed(func(p outbox.MemberMail) memberMail { return memberMail(p) },
		func(j memberMail) outbox.MemberMail { return outbox.MemberMail(j) }),
	outbox.KindSubscriberConfirm: typed(func(p outbox.SubscriberConfirm) subscriberConfirm { return subscriberConfirm(p) },
		func(j subscriberConfirm) outbox.SubscriberConfirm { return outbox.SubscriberConfirm(j) }),
	outbox.KindIncidentFanout: typed(func(p outbox.IncidentFanout) incidentFanout { return incidentFanout(p) },
		func(j incidentFanout) outbox.IncidentFanout { return outbox.IncidentFanout(j) }),
	outbox.KindAlertMail: typed(func(p outbox.AlertMail) alertMail { return alertMail(p) },
		func(j alertMail) outbox.AlertMail { return outbox.AlertMail(j) }),
	outbox.KindReminderMail: typed(func(p outbox.ReminderMail) reminderMail { return reminderMail(p) },
		func(j reminderMail) outbox.ReminderMail { return outbox.ReminderMail(j) }),
	outbox.KindRatingChanged: typed(func(p outbox.RatingChanged) ratingChanged { return ratingChanged(p) },
		func(j ratingChanged) outbox.RatingChanged { return outbox.RatingChanged(j) }),
	outbox.KindRatingMail: typed(func(p outbox.RatingMail) ratingMail { return ratingMail(p) },
		func(j ratingMail) outbox.RatingMail { return outbox.RatingMail(j) }),
	outbox.KindEnrich: typed(func(p outbox.Enrich) enrich { return enrich(p) },
		func(j enrich) outbox.Enrich { return outbox.Enrich(j) }),
	outbox.KindBackfill: typed(func(p outbox.Backfill) backfill { return backfill(p) },
		func(j backfill) outbox.Backfill { return outbox.Backfill(j) }),
	outbox.KindBlobDelete: typed(func(p outbox.BlobDelete) blobDelete { return blobDelete(p) },
		func(j blobDelete) outbox.BlobDelete { return outbox.BlobDelete(j) }),
	outbox.KindWebhookEvent: typed(func(p outbox.WebhookEvent) webhookEvent { return webhookEvent{Event: FromEvent(p.Event)} },
		func(j webhookEvent) outbox.WebhookEvent { return outbox.WebhookEvent{Event: j.Event.Core()} }),
	outbox.KindWebhookAttempt: typed(func(p outbox.WebhookAttempt) webhookAttempt { return webhookAttempt(p) },
		func(j webhookAttempt) outbox.WebhookAttempt { return outbox.WebhookAttempt(j) }),
	outbox.KindWebhookDisabledMail: typed(func(p outbox.WebhookDisabledMail) webhookDisabledMail { return webhookDisabledMail(p) },
		func(j webhookDisabledMail) outbox.WebhookDisabledMail { return outbox.WebhookDisabledMail(j) }),
	outbox.KindMentionMail: typed(func(p outbox.MentionMail) mentionMail { return mentionMail(p) },
		func(j mentionMail) outbox.MentionMail { return outbox.MentionMail(j) }),
}

type memberMail struct {
	EventID     uuid.UUID `json:"event_id"`
	AccountID   uuid.UUID `json:"account_id"`
	AccountName string    `json:"account_name"`
	Email       string    `json:"email"`
	Role        string    `json:"role"`
	OldRole     string    `json:"old_role,omitempty"`
	Change      string    `json:"change"`
	By          string    `json:"by"`
}

type subscriberConfirm struct {
	EventID      uuid.UUID `json:"event_id"`
	SubscriberID uuid.UUID `json:"subscriber_id"`
}

type incidentFanout struct {
	IncidentID uuid.UUID `json:"incident_id"`
}

type alertMail struct {
	IncidentID   uuid.UUID `json:"incident_id"`
	SubscriberID uuid.UUID `json:"subscriber_id"`
	VendorName   string    `json:"vendor_name,omitempty"`
	ListName     string    `json:"list_name,omitempty"`
	AccountName  string    `json:"account_name,omitempty"`
}

type reminderMail struct {
	Key          string    `json:"key"`
	AccountID    uuid.UUID `json:"account_id"`
	AssessmentID uuid.UUID `json:"assessment_id"`
	Email        string    `json:"email"`
	DueDate      string    `json:"due_date"`
	Offset       int       `json:"offset"`
}

type ratingChanged struct {
	EventID  uuid.UUID `json:"event_id"`
	VendorID uuid.UUID `json:"vendor_id"`
}

type ratingMail struct {
	EventID      uuid.UUID `json:"event_id"`
	SubscriberID uuid.UUID `json:"subscriber_id"`
	VendorName   string    `json:"vendor_name,omitempty"`
	ListName     string    `json:"list_name,omitempty"`
	AccountName  string    `json:"account_name,omitempty"`
}

type enrich struct {
	RunID    uuid.UUID `json:"run_id"`
	JobID    uuid.UUID `json:"job_id"`
	VendorID uuid.UUID `json:"vendor_id"`
	Sections []string  `json:"sections"`
}

type backfill struct {
	RunID uuid.UUID  `json:"run_id"`
	Since *time.Time `json:"since,omitempty"`
}

type blobDelete struct {
	Keys []string `json:"keys"`
}

type webhookEvent struct {
	Event Event `json:"event"`
}

type webhookAttempt struct {
	DeliveryID uuid.UUID `json:"delivery_id"`
	Number     int       `json:"number"`
}

type webhookDisabledMail struct {
	EndpointID uuid.UUID `json:"endpoint_id"`
	AccountID  uuid.UUID `json:"account_id"`
	URL        string    `json:"url"`
	LastError  string    `json:"last_error,omitempty"`
	Attempts   int       `json:"attempts"`
}

// Event is the stored form of a webhook event: in the outbox (KindWebhookEvent)
// and in a delivery row, which keeps what each retry sends. It is this
// store's form, not the wire form receivers get (adapters/webhook has that).
type Event struct {
	ID         uuid.UUID `json:"id"`
	Type       string    `json:"type"`
	AccountID  uuid.UUID `json:"account_id,omitzero"` // none for a directory event
	OccurredAt time.Time `json:"occurred_at"`
	Data       eventData `json:"data"`
}

type eventData struct {
	VendorID     uuid.UUID   `json:"vendor_id,omitzero"`
	VendorName   string      `json:"vendor_name,omitempty"`
	IncidentID   uuid.UUID   `json:"incident_id,omitzero"`
	Title        string      `json:"title,omitempty"`
	Severity     string      `json:"severity,omitempty"`
	URL          string      `json:"url,omitempty"`
	PublishedAt  time.Time   `json:"published_at,omitzero"`
	Match        *evidence   `json:"match,omitempty"`
	Sources      []source    `json:"sources,omitempty"`
	Service      string      `json:"affected_service,omitempty"`
	ProductLists []product   `json:"product_lists,omitempty"`
	AssessmentID uuid.UUID   `json:"assessment_id,omitzero"`
	ListID       uuid.UUID   `json:"list_id,omitzero"`
	ListName     string      `json:"list_name,omitempty"`
	OldStatus    string      `json:"old_status,omitempty"`
	NewStatus    string      `json:"new_status,omitempty"`
	DueDate      string      `json:"due_date,omitempty"`
	DaysLeft     int         `json:"days_left,omitempty"`
	Added        []uuid.UUID `json:"added,omitempty"`
	Removed      []uuid.UUID `json:"removed,omitempty"`
	OldGrade     string      `json:"old_grade,omitempty"`
	NewGrade     string      `json:"new_grade,omitempty"`
	OldScore     int         `json:"old_score,omitempty"`
	NewScore     int         `json:"new_score,omitempty"`
	Reasons      []string    `json:"reasons,omitempty"`
	EndpointID   uuid.UUID   `json:"endpoint_id,omitzero"`
}

type evidence struct {
	Rule        string  `json:"rule"`
	MatchedText string  `json:"matched_text"`
	Confidence  float64 `json:"confidence"`
}

type source struct {
	Source      string    `json:"source"`
	URL         string    `json:"url"`
	PublishedAt time.Time `json:"published_at"`
}

type product struct {
	AccountID uuid.UUID `json:"account_id"`
	ListID    uuid.UUID `json:"list_id"`
	ListName  string    `json:"list_name"`
	Recorded  bool      `json:"recorded"`
}

// FromEvent is the stored form of e.
func FromEvent(e domainevent.Event) Event {
	d := e.Data
	out := eventData{VendorID: d.VendorID, VendorName: d.VendorName, IncidentID: d.IncidentID, Title: d.Title, Severity: d.Severity,
		URL: d.URL, PublishedAt: d.PublishedAt, Service: d.AffectedService, AssessmentID: d.AssessmentID, ListID: d.ListID,
		ListName: d.ListName, OldStatus: d.OldStatus, NewStatus: d.NewStatus, DueDate: d.DueDate, DaysLeft: d.DaysLeft,
		Added: d.Added, Removed: d.Removed, OldGrade: d.OldGrade, NewGrade: d.NewGrade, OldScore: d.OldScore, NewScore: d.NewScore,
		Reasons: d.Reasons, EndpointID: d.EndpointID}
	if d.Match != nil {
		out.Match = &evidence{Rule: d.Match.Rule, MatchedText: d.Match.MatchedText, Confidence: d.Match.Confidence}
	}
	for _, s := range d.Sources {
		out.Sources = append(out.Sources, source(s))
	}
	for _, p := range d.ProductLists {
		out.ProductLists = append(out.ProductLists, product(p))
	}
	return Event{ID: e.ID, Type: string(e.Type), AccountID: e.AccountID, OccurredAt: e.OccurredAt.UTC(), Data: out}
}

// Core is the event of the stored form.
func (e Event) Core() domainevent.Event {
	d := e.Data
	out := domainevent.Data{VendorID: d.VendorID, VendorName: d.VendorName, IncidentID: d.IncidentID, Title: d.Title, Severity: d.Severity,
		URL: d.URL, PublishedAt: d.PublishedAt, AffectedService: d.Service, AssessmentID: d.AssessmentID, ListID: d.ListID,
		ListName: d.ListName, OldStatus: d.OldStatus, NewStatus: d.NewStatus, DueDate: d.DueDate, DaysLeft: d.DaysLeft,
		Added: d.Added, Removed: d.Removed, OldGrade: d.OldGrade, NewGrade: d.NewGrade, OldScore: d.OldScore, NewScore: d.NewScore,
		Reasons: d.Reasons, EndpointID: d.EndpointID}
	if d.Match != nil {
		out.Match = &domainevent.Evidence{Rule: d.Match.Rule, MatchedText: d.Match.MatchedText, Confidence: d.Match.Confidence}
	}
	for _, s := range d.Sources {
		out.Sources = append(out.Sources, domainevent.SourceItem(s))
	}
	for _, p := range d.ProductLists {
		out.ProductLists = append(out.ProductLists, domainevent.ProductList(p))
	}
	return domainevent.Event{ID: e.ID, Type: domainevent.EventType(e.Type), AccountID: e.AccountID, OccurredAt: e.OccurredAt.UTC(), Data: out}
}

type mentionMail struct {
	NoteID      uuid.UUID `json:"note_id"`
	AccountID   uuid.UUID `json:"account_id"`
	AccountName string    `json:"account_name"`
	VendorID    uuid.UUID `json:"vendor_id"`
	VendorName  string    `json:"vendor_name"`
	Email       string    `json:"email"`
	Author      string    `json:"author"`
	Text        string    `json:"text"`
}
