package vendors

import "github.com/vetted-dev/vetted/core/platform/domainevent"

// IncidentEvent is incident.created: a live incident recorded for a
// vendor, told to every account that carries the vendor on a list.
func IncidentEvent(v Vendor, in Incident) domainevent.Event {
	return domainevent.Event{Type: domainevent.IncidentCreated, OccurredAt: in.CreatedAt, Data: domainevent.Data{VendorID: v.ID, VendorName: v.Name.String(),
		IncidentID: in.ID, Title: in.Title, Severity: in.Severity, URL: in.URL, PublishedAt: in.PublishedAt.UTC()}}
}
