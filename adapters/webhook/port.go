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
	body, err := Payload(ForAccount(ev, e.AccountID), p.Sender.cfg.Now())
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

// ForAccount is a directory event as one account is told of it: of the
// lists an incident's ProductLists names, only the account's own.
func ForAccount(ev domainevent.Event, accountID uuid.UUID) domainevent.Event {
	if len(ev.Data.ProductLists) == 0 {
		return ev
	}
	own := []domainevent.ProductList{}
	for _, p := range ev.Data.ProductLists {
		if p.AccountID == accountID {
			own = append(own, p)
		}
	}
	ev.Data.ProductLists = own
	return ev
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
		return incidentData(ev.ID, vendor, d)
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
	// Match is the evidence of a match (null for status-page, feed and
	// manual incidents); Sources the items merged into the incident.
	Match           *IncidentMatch   `json:"match"`
	Sources         []IncidentSource `json:"sources"`
	AffectedService string           `json:"affected_service,omitempty"`
	// ProductLists, for an incident with an affected service (a KEV
	// entry's product), tells each of the account's lists carrying the
	// vendor whether it records that product.
	ProductLists []ProductList `json:"product_lists,omitempty"`
}

// IncidentMatch is the evidence of an incident matched from a
// platform-wide source.
type IncidentMatch struct {
	Rule        string  `json:"rule"`
	MatchedText string  `json:"matched_text"`
	Confidence  float64 `json:"confidence"`
}

// IncidentSource is one item merged into an incident.
type IncidentSource struct {
	Source      string    `json:"source"`
	URL         string    `json:"url"`
	PublishedAt time.Time `json:"published_at"`
}

// ProductList is one of the receiving account's lists that carries the
// vendor, and whether it records the incident's affected product.
type ProductList struct {
	ListID   uuid.UUID `json:"list_id"`
	ListName string    `json:"list_name"`
	Recorded bool      `json:"recorded"`
}

func incidentData(eventID uuid.UUID, vendor VendorRef, d domainevent.Data) IncidentData {
	out := IncidentData{EventID: eventID, Vendor: vendor, IncidentID: d.IncidentID, Title: d.Title, Severity: d.Severity,
		URL: d.URL, PublishedAt: d.PublishedAt.UTC(), AffectedService: d.AffectedService, Sources: []IncidentSource{}}
	if d.Match != nil {
		out.Match = &IncidentMatch{Rule: d.Match.Rule, MatchedText: d.Match.MatchedText, Confidence: d.Match.Confidence}
	}
	for _, s := range d.Sources {
		out.Sources = append(out.Sources, IncidentSource{Source: s.Source, URL: s.URL, PublishedAt: s.PublishedAt.UTC()})
	}
	for _, p := range d.ProductLists {
		out.ProductLists = append(out.ProductLists, ProductList{ListID: p.ListID, ListName: p.ListName, Recorded: p.Recorded})
	}
	return out
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
