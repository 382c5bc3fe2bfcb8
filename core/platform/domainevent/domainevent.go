// Package domainevent is what the areas tell has happened: the event
// types (their wire names), the event with what it says, and the
// constructors the areas describe their changes with. Each is recorded
// through uow.Unit.Event in the unit of work of the change; the webhooks
// area (core/webhooks) fans it out to the endpoints that asked for it, and
// the outbox carries it. It holds no rule of any area and imports none.
package domainevent

import (
	"time"

	"github.com/google/uuid"
)

// EventType names an event; the names are their wire names.
type EventType string

// The event types an endpoint may ask for, and the ping a test sends.
const (
	IncidentCreated         EventType = "incident.created"
	RatingChanged           EventType = "vendor.rating_changed"
	AssessmentStatusChanged EventType = "assessment.status_changed"
	ReviewDueSoon           EventType = "review.due_soon"
	ReviewOverdue           EventType = "review.overdue"
	ListVendorsChanged      EventType = "list.vendors_changed"
	// Ping is sent by POST /webhooks/test to one endpoint, whatever it
	// asked for; it cannot be subscribed to.
	Ping EventType = "webhook.ping"
)

// Event is something that happened that endpoints may be told about. An
// event names its account, or, for the directory's events (incidents and
// ratings, which belong to no account), its vendor: it then goes to every
// account that carries the vendor on a list.
type Event struct {
	ID         uuid.UUID
	Type       EventType
	AccountID  uuid.UUID // uuid.Nil for a directory event
	OccurredAt time.Time
	Data       Data
}

// Data is what an event says. Each type fills the fields it has (see
// the wire structs of adapters/webhook); the others stay zero.
type Data struct {
	VendorID   uuid.UUID
	VendorName string
	// incident.created
	IncidentID  uuid.UUID
	Title       string
	Severity    string
	URL         string
	PublishedAt time.Time
	// Match is the evidence of an incident matched from a platform-wide
	// source (nil otherwise), Sources the items merged into it, and
	// AffectedService its affected service. ProductLists, for an incident
	// with an affected service, tells each list that carries the vendor
	// whether it records that product; each account is told of its own.
	Match           *Evidence
	Sources         []SourceItem
	AffectedService string
	ProductLists    []ProductList
	// assessment.status_changed, review.*
	AssessmentID uuid.UUID
	ListID       uuid.UUID
	ListName     string
	OldStatus    string
	NewStatus    string
	DueDate      string // 2006-01-02
	DaysLeft     int    // negative once overdue
	// list.vendors_changed
	Added   []uuid.UUID
	Removed []uuid.UUID
	// vendor.rating_changed
	OldGrade string
	NewGrade string
	OldScore int
	NewScore int
	Reasons  []string
	// webhook.ping
	EndpointID uuid.UUID
}

// Evidence is why an item was matched to a vendor.
type Evidence struct {
	Rule        string
	MatchedText string
	Confidence  float64
}

// SourceItem is one item merged into an incident.
type SourceItem struct {
	Source      string
	URL         string
	PublishedAt time.Time
}

// ProductList is one list that carries an incident's vendor, and whether
// it records the incident's affected product.
type ProductList struct {
	AccountID uuid.UUID
	ListID    uuid.UUID
	ListName  string
	Recorded  bool
}

// ForVendor reports whether the event goes to the accounts carrying a
// vendor rather than to one account.
func (e Event) ForVendor() bool { return e.AccountID == uuid.Nil }

// The constructors below are how the areas describe what happened; each
// is recorded through uow.Unit.Event in the unit of work of the change.
// The event id and time are filled in by Emit when left zero.

// RatingChange is vendor.rating_changed, told to every account that
// carries the vendor on a list; vendors.recordRating records it in the unit
// of work that keeps a scan's rating with changes that matter, with the
// rating record's id as the event's.
func RatingChange(vendorID uuid.UUID, vendorName, oldGrade, newGrade string, oldScore, newScore int, reasons []string, at time.Time) Event {
	return Event{Type: RatingChanged, OccurredAt: at, Data: Data{VendorID: vendorID, VendorName: vendorName,
		OldGrade: oldGrade, NewGrade: newGrade, OldScore: oldScore, NewScore: newScore, Reasons: reasons}}
}

// Assessment names the assessment an event is about.
type Assessment struct {
	AccountID    uuid.UUID
	AssessmentID uuid.UUID
	VendorID     uuid.UUID
	VendorName   string
	ListID       uuid.UUID
	ListName     string
}

func (a Assessment) data() Data {
	return Data{AssessmentID: a.AssessmentID, VendorID: a.VendorID, VendorName: a.VendorName, ListID: a.ListID, ListName: a.ListName}
}

// StatusChange is assessment.status_changed.
func StatusChange(a Assessment, oldStatus, newStatus string, at time.Time) Event {
	d := a.data()
	d.OldStatus, d.NewStatus = oldStatus, newStatus
	return Event{Type: AssessmentStatusChanged, AccountID: a.AccountID, OccurredAt: at, Data: d}
}

// ReviewDue is review.due_soon, or review.overdue once the due date has
// passed (daysLeft negative).
func ReviewDue(a Assessment, dueDate string, daysLeft int, at time.Time) Event {
	d := a.data()
	d.DueDate, d.DaysLeft = dueDate, daysLeft
	t := ReviewDueSoon
	if daysLeft < 0 {
		t = ReviewOverdue
	}
	return Event{Type: t, AccountID: a.AccountID, OccurredAt: at, Data: d}
}

// VendorsChanged is list.vendors_changed: vendors added to or removed from
// one list.
func VendorsChanged(accountID, listID uuid.UUID, listName string, added, removed []uuid.UUID, at time.Time) Event {
	return Event{Type: ListVendorsChanged, AccountID: accountID, OccurredAt: at,
		Data: Data{ListID: listID, ListName: listName, Added: added, Removed: removed}}
}
