package vendors

import "github.com/vetted-dev/vetted/core/platform/domainevent"

// IncidentEvent is incident.created: a live incident recorded for a
// vendor, told to every account that carries the vendor on a list, with
// its evidence, its sources and its affected service.
func IncidentEvent(v Vendor, in Incident) domainevent.Event {
	d := domainevent.Data{VendorID: v.ID, VendorName: v.Name.String(), IncidentID: in.ID, Title: in.Title, Severity: in.Severity,
		URL: in.URL, PublishedAt: in.PublishedAt.UTC(), AffectedService: in.AffectedService, Sources: []domainevent.SourceItem{}}
	if in.Match != nil {
		d.Match = &domainevent.Evidence{Rule: in.Match.Rule, MatchedText: in.Match.MatchedText, Confidence: in.Match.Confidence}
	}
	for _, s := range in.Sources {
		d.Sources = append(d.Sources, domainevent.SourceItem{Source: s.Source, URL: s.URL, PublishedAt: s.PublishedAt.UTC()})
	}
	return domainevent.Event{Type: domainevent.IncidentCreated, OccurredAt: in.CreatedAt, Data: d}
}
