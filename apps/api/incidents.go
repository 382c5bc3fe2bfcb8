package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// The Incidents operations: an account's incidents across the vendors it
// follows (GET /incidents) and the platform admins' queue of possible
// matches (GET /incidents/possible, confirm, dismiss), answered with the
// incidents area of the core.

// IncidentMatchJSON is the evidence that tied an item of a platform-wide
// source to the vendor.
type IncidentMatchJSON struct {
	Rule        string  `json:"rule" doc:"The rule that matched: kev_vendor_project, breach_domain, filing_filer or news_named"`
	MatchedText string  `json:"matched_text" doc:"What the rule matched in the item"`
	Confidence  float64 `json:"confidence" minimum:"0" maximum:"1"`
}

// IncidentSourceJSON is one item merged into an incident.
type IncidentSourceJSON struct {
	Source      string    `json:"source" doc:"news, kev, breach, filing, or the source of a status-page, feed or manual incident"`
	URL         string    `json:"url"`
	PublishedAt time.Time `json:"published_at"`
}

func incidentMatchJSON(m *vendors.IncidentMatch) *IncidentMatchJSON {
	if m == nil {
		return nil
	}
	return &IncidentMatchJSON{Rule: m.Rule, MatchedText: m.MatchedText, Confidence: m.Confidence}
}

func incidentSourcesJSON(items []vendors.IncidentItem) []IncidentSourceJSON {
	out := make([]IncidentSourceJSON, 0, len(items))
	for _, it := range items {
		out = append(out, IncidentSourceJSON{Source: it.Source, URL: it.URL, PublishedAt: it.PublishedAt})
	}
	return out
}

// ListNameJSON is a list by id and name.
type ListNameJSON struct {
	ID   string `json:"id" format:"uuid"`
	Name string `json:"name"`
}

// AccountIncidentJSON is an incident of a vendor the account follows.
type AccountIncidentJSON struct {
	IncidentJSON
	VendorName string         `json:"vendor_name"`
	Lists      []ListNameJSON `json:"lists" doc:"The account's lists that carry the vendor (the one list asked for, with vendor-list-id)"`
}

// IncidentQuery are the filters and the page of GET /incidents.
type IncidentQuery struct {
	Sources    []string `query:"source,explode" doc:"Only incidents with an item of these sources: news, kev, breach, filing (repeat or separate with commas)"`
	Severities []string `query:"severity,explode" doc:"Only incidents of these severities: critical, high, medium, low, info (repeat or separate with commas)"`
	Limit      int      `query:"limit" minimum:"0" limit:"account-incidents" doc:"Page size (default and most 200); next_cursor is set while more follow"`
	Cursor     string   `query:"cursor" maxLength:"1024" doc:"next_cursor of the previous page (same filters)"`
}

type accountIncidentsIn struct {
	AccountParam
	ScopeParam
	IncidentQuery
}

// AccountIncidentsBody is the answer of GET /incidents.
type AccountIncidentsBody struct {
	Incidents  []AccountIncidentJSON `json:"incidents" doc:"Newest first (by published_at, then created_at, then id)"`
	NextCursor string                `json:"next_cursor,omitempty" doc:"When more incidents follow: the cursor of the next page"`
}

type accountIncidentsOut struct{ Body AccountIncidentsBody }

// PossibleMatchJSON is an item that named a vendor without enough evidence
// to be its incident.
type PossibleMatchJSON struct {
	ID         string       `json:"id" format:"uuid"`
	VendorID   string       `json:"vendor_id" format:"uuid"`
	VendorName string       `json:"vendor_name"`
	Status     string       `json:"status" enum:"pending,confirmed,dismissed"`
	CreatedAt  time.Time    `json:"created_at"`
	DecidedAt  *time.Time   `json:"decided_at" doc:"null while pending"`
	DecidedBy  string       `json:"decided_by" doc:"The e-mail of the platform admin who decided; empty while pending"`
	IncidentID *string      `json:"incident_id" format:"uuid" doc:"The incident a confirmation made or merged into; null otherwise"`
	Incident   IncidentJSON `json:"incident" doc:"The draft: the incident a confirmation makes, with its evidence"`
}

func possibleMatchJSON(p incidents.PossibleMatch) PossibleMatchJSON {
	out := PossibleMatchJSON{ID: p.ID.String(), VendorID: p.Draft.VendorID.String(), VendorName: p.VendorName, Status: p.Status,
		CreatedAt: p.CreatedAt, DecidedAt: optionalTime(p.DecidedAt), DecidedBy: p.DecidedBy, Incident: incidentJSON(p.Draft)}
	if p.IncidentID != uuid.Nil {
		id := p.IncidentID.String()
		out.IncidentID = &id
	}
	return out
}

type possibleListIn struct {
	Status string `query:"status" enum:"pending,confirmed,dismissed" doc:"Default pending"`
	Limit  int    `query:"limit" minimum:"0" limit:"possible-page" doc:"At most this many, newest first (default and most 500)"`
}

type possibleListOut struct {
	Body struct {
		Possible []PossibleMatchJSON `json:"possible"`
	}
}

type possibleIn struct {
	ID string `path:"id" format:"uuid" doc:"The possible match"`
}

type possibleConfirmOut struct {
	Body struct {
		Possible PossibleMatchJSON `json:"possible"`
		Incident IncidentJSON      `json:"incident" doc:"The incident made, or the incident of the same event it was merged into"`
	}
}

type possibleDismissOut struct {
	Body struct {
		Possible PossibleMatchJSON `json:"possible"`
	}
}

// incidentCursorJSON is an account incidents cursor on the wire: the
// base64url of this JSON, opaque to clients.
type incidentCursorJSON struct {
	PublishedAt time.Time `json:"p"`
	CreatedAt   time.Time `json:"c"`
	ID          uuid.UUID `json:"i"`
}

func encodeIncidentCursor(in vendors.Incident) string {
	b, _ := json.Marshal(incidentCursorJSON{PublishedAt: in.PublishedAt, CreatedAt: in.CreatedAt, ID: in.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeIncidentCursor reads a cursor: nil when none is given, 422 when it
// is not one this API gave.
func decodeIncidentCursor(raw string) (*vendors.IncidentCursor, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, nil
	}
	var c incidentCursorJSON
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.ID == uuid.Nil {
		return nil, core.Invalid("cursor", "is not a cursor this service gave")
	}
	return &vendors.IncidentCursor{PublishedAt: c.PublishedAt, CreatedAt: c.CreatedAt, ID: c.ID}, nil
}

// commaValues reads a multi-valued query parameter given repeated, with
// commas, or both; blanks are dropped.
func commaValues(raw []string) []string {
	var out []string
	for _, q := range raw {
		for _, v := range strings.Split(q, ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// filter is the core's filter of the query.
func (q IncidentQuery) filter(list lists.ListRef) (incidents.AccountFilter, error) {
	f := incidents.AccountFilter{Severities: commaValues(q.Severities), Limit: q.Limit}
	for _, s := range commaValues(q.Sources) {
		f.Sources = append(f.Sources, incidents.Source(s))
	}
	if !list.Empty() {
		f.List = &list
	}
	var err error
	f.After, err = decodeIncidentCursor(q.Cursor)
	return f, err
}

// incidentsHandler answers the Incidents operations with the incidents
// area of the core.
type incidentsHandler struct{ *Server }

// accountIncidents answers list-incidents.
func (h incidentsHandler) accountIncidents(ctx context.Context, in *accountIncidentsIn) (*accountIncidentsOut, error) {
	acc, lr, err := accountAnd(in.AccountParam, in.listRef)
	if err != nil {
		return nil, err
	}
	f, err := in.filter(lr)
	if err != nil {
		return nil, err
	}
	ins, more, err := h.incidents.AccountIncidents(ctx, actor(ctx), acc, f)
	if err != nil {
		return nil, err
	}
	out := &accountIncidentsOut{Body: AccountIncidentsBody{Incidents: make([]AccountIncidentJSON, 0, len(ins))}}
	for _, ai := range ins {
		ls := make([]ListNameJSON, 0, len(ai.Lists))
		for _, l := range ai.Lists {
			ls = append(ls, ListNameJSON{ID: l.ID.String(), Name: l.Name})
		}
		out.Body.Incidents = append(out.Body.Incidents, AccountIncidentJSON{IncidentJSON: incidentJSON(ai.Incident), VendorName: ai.VendorName, Lists: ls})
	}
	if more && len(ins) > 0 {
		out.Body.NextCursor = encodeIncidentCursor(ins[len(ins)-1].Incident)
	}
	return out, nil
}

// possibleMatches answers list-possible-matches.
func (h incidentsHandler) possibleMatches(ctx context.Context, in *possibleListIn) (*possibleListOut, error) {
	ps, err := h.incidents.PossibleMatches(ctx, actor(ctx), in.Status, in.Limit)
	if err != nil {
		return nil, err
	}
	out := &possibleListOut{}
	out.Body.Possible = make([]PossibleMatchJSON, 0, len(ps))
	for _, p := range ps {
		out.Body.Possible = append(out.Body.Possible, possibleMatchJSON(p))
	}
	return out, nil
}

// confirmPossible answers confirm-possible-match.
func (h incidentsHandler) confirmPossible(ctx context.Context, in *possibleIn) (*possibleConfirmOut, error) {
	id, err := accounts.ParseID("id", in.ID)
	if err != nil {
		return nil, err
	}
	p, inc, err := h.incidents.ConfirmPossible(ctx, actor(ctx), id)
	if err != nil {
		return nil, err
	}
	out := &possibleConfirmOut{}
	out.Body.Possible, out.Body.Incident = possibleMatchJSON(p), incidentJSON(inc)
	return out, nil
}

// dismissPossible answers dismiss-possible-match.
func (h incidentsHandler) dismissPossible(ctx context.Context, in *possibleIn) (*possibleDismissOut, error) {
	id, err := accounts.ParseID("id", in.ID)
	if err != nil {
		return nil, err
	}
	p, err := h.incidents.DismissPossible(ctx, actor(ctx), id)
	if err != nil {
		return nil, err
	}
	out := &possibleDismissOut{}
	out.Body.Possible = possibleMatchJSON(p)
	return out, nil
}
