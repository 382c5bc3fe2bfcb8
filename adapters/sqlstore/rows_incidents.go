package sqlstore

import (
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/vendors"
)

// The rows of the incidents area and the stored shapes of its JSON columns
// (incidents.match, incidents.sources and possible_matches.draft). As with
// the profile's (rows_profilejson.go), the keys are fixed here, apart from
// the core's Go names.

type incidentMatchJSON struct {
	Rule        string  `json:"rule"`
	MatchedText string  `json:"matched_text"`
	Confidence  float64 `json:"confidence"`
}

func fromIncidentMatch(m *vendors.IncidentMatch) *incidentMatchJSON {
	if m == nil {
		return nil
	}
	j := incidentMatchJSON(*m)
	return &j
}

func (j *incidentMatchJSON) core() *vendors.IncidentMatch {
	if j == nil {
		return nil
	}
	m := vendors.IncidentMatch(*j)
	return &m
}

type incidentItemJSON struct {
	Source      string    `json:"source"`
	URL         string    `json:"url"`
	PublishedAt time.Time `json:"published_at"`
}

// fromIncidentItems is never nil: the column is not null.
func fromIncidentItems(items []vendors.IncidentItem) []incidentItemJSON {
	out := make([]incidentItemJSON, len(items))
	for i, it := range items {
		out[i] = incidentItemJSON{Source: it.Source, URL: it.URL, PublishedAt: it.PublishedAt.UTC()}
	}
	return out
}

func incidentItemsCore(items []incidentItemJSON) []vendors.IncidentItem {
	if len(items) == 0 {
		return nil
	}
	out := make([]vendors.IncidentItem, len(items))
	for i, it := range items {
		out[i] = vendors.IncidentItem(it)
	}
	return out
}

// incidentDraftJSON is the incident a possible match's confirmation makes,
// whole. Slices keep null apart from empty, so a draft reads back as it
// was given.
type incidentDraftJSON struct {
	ID                      uuid.UUID          `json:"id"`
	VendorID                uuid.UUID          `json:"vendor_id"`
	Title                   string             `json:"title"`
	Summary                 string             `json:"summary"`
	IncidentType            string             `json:"incident_type"`
	AffectedService         string             `json:"affected_service"`
	PotentiallyImpactedData []string           `json:"potentially_impacted_data"`
	Status                  string             `json:"status"`
	Severity                string             `json:"severity"`
	URL                     string             `json:"url"`
	Source                  string             `json:"source"`
	ExternalID              string             `json:"external_id"`
	PublishedAt             time.Time          `json:"published_at"`
	Backfilled              bool               `json:"backfilled"`
	CreatedAt               time.Time          `json:"created_at"`
	Match                   *incidentMatchJSON `json:"match"`
	Sources                 []incidentItemJSON `json:"sources"`
	Keys                    []string           `json:"keys"`
}

func fromIncidentDraft(in vendors.Incident) incidentDraftJSON {
	j := incidentDraftJSON{ID: in.ID, VendorID: in.VendorID, Title: in.Title, Summary: in.Summary, IncidentType: in.IncidentType,
		AffectedService: in.AffectedService, PotentiallyImpactedData: in.PotentiallyImpactedData, Status: in.Status,
		Severity: in.Severity, URL: in.URL, Source: in.Source, ExternalID: in.ExternalID, PublishedAt: in.PublishedAt.UTC(),
		Backfilled: in.Backfilled, CreatedAt: in.CreatedAt.UTC(), Match: fromIncidentMatch(in.Match), Keys: in.Keys}
	if in.Sources != nil {
		j.Sources = fromIncidentItems(in.Sources)
	}
	return j
}

func (j incidentDraftJSON) core() vendors.Incident {
	in := vendors.Incident{ID: j.ID, VendorID: j.VendorID, Title: j.Title, Summary: j.Summary, IncidentType: j.IncidentType,
		AffectedService: j.AffectedService, PotentiallyImpactedData: j.PotentiallyImpactedData, Status: j.Status,
		Severity: j.Severity, URL: j.URL, Source: j.Source, ExternalID: j.ExternalID, PublishedAt: j.PublishedAt.UTC(),
		Backfilled: j.Backfilled, CreatedAt: j.CreatedAt.UTC(), Match: j.Match.core(), Keys: j.Keys}
	if j.Sources != nil {
		in.Sources = make([]vendors.IncidentItem, len(j.Sources))
		for i, it := range j.Sources {
			in.Sources[i] = vendors.IncidentItem{Source: it.Source, URL: it.URL, PublishedAt: it.PublishedAt.UTC()}
		}
	}
	return in
}

// incidentKeyRow is a row of incident_keys: one key of an incident, at its
// place (ord) among the incident's keys.
type incidentKeyRow struct {
	bun.BaseModel `bun:"table:incident_keys,alias:ik"`

	IncidentID uuid.UUID `bun:"incident_id,pk"`
	VendorID   uuid.UUID `bun:"vendor_id"`
	Key        string    `bun:"key,pk"`
	Ord        int       `bun:"ord"`
}

// incidentKeyRows are the rows of the keys of an incident: each key once,
// at its first place.
func incidentKeyRows(incidentID, vendorID uuid.UUID, keys []string) []incidentKeyRow {
	out := make([]incidentKeyRow, 0, len(keys))
	for i, k := range keys {
		if slices.Contains(keys[:i], k) {
			continue
		}
		out = append(out, incidentKeyRow{IncidentID: incidentID, VendorID: vendorID, Key: k, Ord: len(out)})
	}
	return out
}

// sourceStateRow is a row of incident_sources; a source never polled has
// a null last_polled_at.
type sourceStateRow struct {
	bun.BaseModel `bun:"table:incident_sources,alias:src"`

	Key          string    `bun:"key,pk"`
	ETag         string    `bun:"etag"`
	LastModified string    `bun:"last_modified"`
	Polled       bool      `bun:"polled"`
	LastPolledAt time.Time `bun:"last_polled_at,nullzero"`
	LastResult   string    `bun:"last_result"`
	LastError    string    `bun:"last_error"`
}

func fromSourceState(s incidents.SourceState) sourceStateRow {
	return sourceStateRow{Key: s.Key, ETag: s.Validators.ETag, LastModified: s.Validators.LastModified, Polled: s.Polled,
		LastPolledAt: utcZero(s.LastPolledAt), LastResult: s.LastResult, LastError: s.LastError}
}

func (r sourceStateRow) core() incidents.SourceState {
	return incidents.SourceState{Key: r.Key, Validators: incidents.Validators{ETag: r.ETag, LastModified: r.LastModified},
		Polled: r.Polled, LastPolledAt: utcZero(r.LastPolledAt), LastResult: r.LastResult, LastError: r.LastError}
}

// possibleRow is a row of possible_matches; the decision's columns are
// null until it is made.
type possibleRow struct {
	bun.BaseModel `bun:"table:possible_matches,alias:pm"`

	ID         uuid.UUID         `bun:"id,pk"`
	Key        string            `bun:"key"`
	VendorID   uuid.UUID         `bun:"vendor_id"`
	VendorName string            `bun:"vendor_name"`
	Draft      incidentDraftJSON `bun:"draft,type:jsonb"`
	Status     string            `bun:"status"`
	CreatedAt  time.Time         `bun:"created_at"`
	DecidedAt  time.Time         `bun:"decided_at,nullzero"`
	DecidedBy  string            `bun:"decided_by"`
	IncidentID *uuid.UUID        `bun:"incident_id"`
}

func fromPossible(p incidents.PossibleMatch) possibleRow {
	return possibleRow{ID: p.ID, Key: p.Key, VendorID: p.Draft.VendorID, VendorName: p.VendorName, Draft: fromIncidentDraft(p.Draft),
		Status: p.Status, CreatedAt: p.CreatedAt, DecidedAt: utcZero(p.DecidedAt), DecidedBy: p.DecidedBy, IncidentID: uuidPtr(p.IncidentID)}
}

func (r possibleRow) core() incidents.PossibleMatch {
	p := incidents.PossibleMatch{ID: r.ID, Key: r.Key, VendorName: r.VendorName, Draft: r.Draft.core(), Status: r.Status,
		CreatedAt: utc(r.CreatedAt), DecidedAt: utcZero(r.DecidedAt), DecidedBy: r.DecidedBy}
	if r.IncidentID != nil {
		p.IncidentID = *r.IncidentID
	}
	return p
}

// candidateRow is a directory vendor with what its profile's company says
// of it (null columns without a profile).
type candidateRow struct {
	ID             uuid.UUID `bun:"id"`
	Name           string    `bun:"name"`
	Aliases        []string  `bun:"aliases,type:jsonb"`
	Domain         string    `bun:"domain"`
	ProfileAliases []string  `bun:"profile_aliases,type:jsonb"`
	LegalName      string    `bun:"legal_name"`
	PrimaryProduct string    `bun:"primary_product"`
}

func (r candidateRow) core() incidents.Candidate {
	c := incidents.Candidate{ID: r.ID, CanonicalName: r.Name, Aliases: append(append([]string{}, r.Aliases...), r.ProfileAliases...),
		LegalName: r.LegalName, Domain: r.Domain, Products: []string{}}
	if r.PrimaryProduct != "" {
		c.Products = append(c.Products, r.PrimaryProduct)
	}
	return c
}

// uuidPtr is nil for the nil id (a null column).
func uuidPtr(id uuid.UUID) *uuid.UUID {
	if id == uuid.Nil {
		return nil
	}
	return &id
}
