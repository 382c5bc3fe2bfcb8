package webhook

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/webhooks"
)

// Port is the Sender as the core drives it (webhooks.WebhookSender): it
// writes an event in its wire form and sends it, and lends the core the
// backoff, the URL check and the secrets of this package.
type Port struct {
	Sender *Sender
}

var _ webhooks.WebhookSender = Port{}

// Send encodes ev (Payload) and makes one attempt.
func (p Port) Send(ctx context.Context, e webhooks.Endpoint, messageID string, ev domainevent.Event) webhooks.Outcome {
	body, err := Payload(ev, p.Sender.cfg.Now())
	if err != nil {
		return webhooks.Outcome{Err: err}
	}
	a := p.Sender.Send(ctx, Delivery{URL: e.URL, Secret: e.Secret, MessageID: messageID, EventType: string(ev.Type), Payload: body})
	return webhooks.Outcome{StatusCode: a.StatusCode, Duration: a.Duration, Err: a.Err}
}

// NextRetry is the package's NextRetry.
func (Port) NextRetry(attempt int, firstAt, now time.Time) (time.Time, bool) {
	return NextRetry(attempt, firstAt, now)
}

// NewSecret is the package's NewSecret.
func (Port) NewSecret() (string, error) { return NewSecret() }

// CheckURL is ValidateURL under the sender's address rules, refusing as a
// validation error of the field "url" (a 422 naming it).
func (p Port) CheckURL(raw string) error {
	if err := ValidateURL(raw, p.Sender.cfg.AllowPrivate); err != nil {
		return core.Invalid("url", "%v", err)
	}
	return nil
}

// Payload is the body of an event as receivers get it, the Standard
// Webhooks form {"type", "timestamp", "data"}, with the data of its type.
// timestamp is when the event happened; the webhook-timestamp header is
// when it was signed (now, on every attempt).
func Payload(ev domainevent.Event, now time.Time) ([]byte, error) {
	at := ev.OccurredAt
	if at.IsZero() {
		at = now
	}
	return json.Marshal(envelope{Type: string(ev.Type), Timestamp: at.UTC(), Data: wireData(ev)})
}

// envelope is the Standard Webhooks payload.
type envelope struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      any       `json:"data"`
}

// wireData picks the data struct of the event's type. Every data carries
// the event's id, the same on every endpoint it goes to, while the
// webhook-id header is one per endpoint.
func wireData(ev domainevent.Event) any {
	d := ev.Data
	vendor := VendorRef{ID: d.VendorID, Name: d.VendorName}
	assessment := AssessmentData{EventID: ev.ID, AccountID: ev.AccountID, AssessmentID: d.AssessmentID, Vendor: vendor,
		ListID: d.ListID, ListName: d.ListName}
	switch ev.Type {
	case domainevent.IncidentCreated:
		return IncidentData{EventID: ev.ID, Vendor: vendor, IncidentID: d.IncidentID, Title: d.Title, Severity: d.Severity,
			URL: d.URL, PublishedAt: d.PublishedAt.UTC()}
	case domainevent.RatingChanged:
		return RatingData{EventID: ev.ID, Vendor: vendor, OldGrade: d.OldGrade, NewGrade: d.NewGrade, OldScore: d.OldScore,
			NewScore: d.NewScore, Reasons: nonNil(d.Reasons)}
	case domainevent.AssessmentStatusChanged:
		return StatusData{AssessmentData: assessment, OldStatus: d.OldStatus, NewStatus: d.NewStatus}
	case domainevent.ReviewDueSoon, domainevent.ReviewOverdue:
		return ReviewData{AssessmentData: assessment, DueDate: d.DueDate, DaysLeft: d.DaysLeft}
	case domainevent.ListVendorsChanged:
		return ListData{EventID: ev.ID, AccountID: ev.AccountID, ListID: d.ListID, ListName: d.ListName,
			Added: nonNil(d.Added), Removed: nonNil(d.Removed)}
	}
	return PingData{EventID: ev.ID, AccountID: ev.AccountID, EndpointID: d.EndpointID}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// VendorRef names a vendor of the directory.
type VendorRef struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

// IncidentData is the data of incident.created.
type IncidentData struct {
	EventID     uuid.UUID `json:"event_id"`
	Vendor      VendorRef `json:"vendor"`
	IncidentID  uuid.UUID `json:"incident_id"`
	Title       string    `json:"title"`
	Severity    string    `json:"severity"`
	URL         string    `json:"url,omitempty"`
	PublishedAt time.Time `json:"published_at"`
}

// RatingData is the data of vendor.rating_changed.
type RatingData struct {
	EventID  uuid.UUID `json:"event_id"`
	Vendor   VendorRef `json:"vendor"`
	OldGrade string    `json:"old_grade"`
	NewGrade string    `json:"new_grade"`
	OldScore int       `json:"old_score"`
	NewScore int       `json:"new_score"`
	Reasons  []string  `json:"reasons"`
}

// AssessmentData names the assessment of assessment and review events.
type AssessmentData struct {
	EventID      uuid.UUID `json:"event_id"`
	AccountID    uuid.UUID `json:"account_id"`
	AssessmentID uuid.UUID `json:"assessment_id"`
	Vendor       VendorRef `json:"vendor"`
	ListID       uuid.UUID `json:"list_id"`
	ListName     string    `json:"list_name"`
}

// StatusData is the data of assessment.status_changed.
type StatusData struct {
	AssessmentData
	OldStatus string `json:"old_status"`
	NewStatus string `json:"new_status"`
}

// ReviewData is the data of review.due_soon and review.overdue.
type ReviewData struct {
	AssessmentData
	DueDate  string `json:"due_date"`
	DaysLeft int    `json:"days_left"`
}

// ListData is the data of list.vendors_changed (vendor ids).
type ListData struct {
	EventID   uuid.UUID   `json:"event_id"`
	AccountID uuid.UUID   `json:"account_id"`
	ListID    uuid.UUID   `json:"list_id"`
	ListName  string      `json:"list_name"`
	Added     []uuid.UUID `json:"added"`
	Removed   []uuid.UUID `json:"removed"`
}

// PingData is the data of webhooks.ping.
type PingData struct {
	EventID    uuid.UUID `json:"event_id"`
	AccountID  uuid.UUID `json:"account_id"`
	EndpointID uuid.UUID `json:"endpoint_id"`
}
