package webhook

import (
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/directory"
)

// The constructors below are how the areas describe what happened; each
// is recorded through uow.Unit.Event in the unit of work of the change.
// The event id and time are filled in by Emit when left zero.

// IncidentEvent is incident.created: a live incident recorded for a
// vendor, told to every account that carries the vendor on a list.
func IncidentEvent(v directory.Vendor, in directory.Incident) Event {
	return Event{Type: IncidentCreated, OccurredAt: in.CreatedAt, Data: Data{VendorID: v.ID, VendorName: v.Name.String(),
		IncidentID: in.ID, Title: in.Title, Severity: in.Severity, URL: in.URL, PublishedAt: in.PublishedAt.UTC()}}
}

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
