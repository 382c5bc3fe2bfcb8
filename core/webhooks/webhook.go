package webhooks

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
)

// EventTypes lists the types an endpoint may subscribe to.
func EventTypes() []domainevent.EventType {
	return []domainevent.EventType{domainevent.IncidentCreated, domainevent.RatingChanged, domainevent.AssessmentStatusChanged, domainevent.ReviewDueSoon, domainevent.ReviewOverdue, domainevent.ListVendorsChanged}
}

// MaxEndpoints bounds the endpoints of one account: each event is one
// delivery per endpoint, so the bound is also the fan-out of one event.
const MaxEndpoints = 20

// MaxDescription bounds an endpoint's description.
const MaxDescription = 200

// Endpoint is a URL an account sends events to. Secret is shown once, in
// the answer that creates it, and never read back by the API.
type Endpoint struct {
	ID          uuid.UUID
	AccountID   uuid.UUID
	URL         string
	Description string
	Events      []domainevent.EventType
	Secret      string
	CreatedAt   time.Time
	CreatedBy   string
	// DisabledAt is set when deliveries failed for the whole retry window;
	// a disabled endpoint gets no new deliveries.
	DisabledAt *time.Time
}

// Wants reports whether the endpoint takes events of type t.
func (e Endpoint) Wants(t domainevent.EventType) bool {
	return e.DisabledAt == nil && slices.Contains(e.Events, t)
}

// ParseEvents validates the event types an endpoint asks for: at least one,
// each known, duplicates dropped, in the order of EventTypes.
func ParseEvents(in []string) ([]domainevent.EventType, error) {
	if len(in) == 0 {
		return nil, core.Invalid("CreateInput.Events", "name at least one of: %s", strings.Join(typeNames(), ", "))
	}
	want := map[domainevent.EventType]bool{}
	for _, s := range in {
		t := domainevent.EventType(strings.TrimSpace(s))
		if !slices.Contains(EventTypes(), t) {
			return nil, core.Invalid("CreateInput.Events", "%q is not one of: %s", s, strings.Join(typeNames(), ", "))
		}
		want[t] = true
	}
	var out []domainevent.EventType
	for _, t := range EventTypes() {
		if want[t] {
			out = append(out, t)
		}
	}
	return out, nil
}

func typeNames() []string {
	var out []string
	for _, t := range EventTypes() {
		out = append(out, string(t))
	}
	return out
}

// CheckDescription validates a description (plain text, bounded).
func CheckDescription(s string) (string, error) {
	s = strings.TrimSpace(s)
	if len(s) > MaxDescription {
		return "", core.Invalid("CreateInput.Description", "is longer than %d characters", MaxDescription)
	}
	return s, nil
}

// DeliveryID is the id of the delivery of an event to one endpoint: the
// same however often the fan-out runs, so a retried fan-out cannot deliver
// twice, and the receiver's webhook-id on every attempt.
func DeliveryID(eventID, endpointID uuid.UUID) uuid.UUID {
	return uuid.NewSHA1(eventID, endpointID[:])
}

// MessageID is the webhook-id header of a delivery ("msg_" and its id, the
// form the Standard Webhooks examples use).
func MessageID(deliveryID uuid.UUID) string {
	return "msg_" + strings.ReplaceAll(deliveryID.String(), "-", "")
}

// Delivery is one event to one endpoint, attempted until it succeeds or the
// retry window closes.
type Delivery struct {
	ID         uuid.UUID
	EndpointID uuid.UUID
	AccountID  uuid.UUID
	Event      domainevent.Event
	CreatedAt  time.Time
}

// Attempt is one try of a delivery, as the delivery log shows it.
type Attempt struct {
	DeliveryID uuid.UUID
	EndpointID uuid.UUID
	EventType  domainevent.EventType
	EventID    uuid.UUID
	Number     int // from 1
	At         time.Time
	StatusCode int // 0 when no answer came
	Duration   time.Duration
	Error      string
	// NextRetryAt is when the next attempt is due; zero when this one
	// succeeded or was the last.
	NextRetryAt time.Time
}

// OK reports whether the attempt was delivered.
func (a Attempt) OK() bool { return a.Error == "" }

// Outcome is what one attempt of the transport found.
type Outcome struct {
	StatusCode int
	Duration   time.Duration
	// Err is nil on a 2xx answer.
	Err error
}

// ErrorText is the attempt's error as the log keeps it ("" on success);
// the transport's errors are short and carry no response body.
func (o Outcome) ErrorText() string {
	if o.Err == nil {
		return ""
	}
	return o.Err.Error()
}

// String names an attempt in logs.
func (a Attempt) String() string {
	return fmt.Sprintf("delivery %s attempt %d: %d %s", a.DeliveryID, a.Number, a.StatusCode, a.Error)
}
