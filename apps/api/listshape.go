package api

import (
	"context"
	"time"

	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
)

// ListShape are the parameters of a shaped list read (issue 22). Without
// any of them a list read answers the whole list, as the contract says.
type ListShape struct {
	Limit           int    `query:"limit" minimum:"0" limit:"list-page" doc:"Page size (1-500); with it the answer carries next_cursor while more rows follow"`
	Cursor          string `query:"cursor" doc:"next_cursor of the previous page (same sort and filters)"`
	Q               string `query:"q" maxLength:"200" doc:"Case-insensitive search in vendor and product names"`
	Sort            string `query:"sort" enum:"name,-rating,next_review_at,status" doc:"Order (default name); ties by name"`
	ReviewState     string `query:"review-state" doc:"never_reviewed, current, due_soon or overdue (several: comma-separated)"`
	EnrichmentState string `query:"enrichment-state" doc:"none (no profile yet: the first enrichment waits, runs or found nothing), needs_website, failed or done (several: comma-separated); queued and running are accepted and match no vendor (no entry has them)"`
	Alerts          string `query:"alerts" enum:"true,false" doc:"Only entries with alerts on (true) or off (false)"`
}

func (p ListShape) given() bool { return p.Cursor != "" || p.query().Paged() }

// query is the list read the parameters ask for.
func (p ListShape) query() assessments.ListQuery {
	return assessments.ListQuery{Limit: p.Limit, Cursor: decodeListCursor(p.Cursor), Q: p.Q, Sort: p.Sort, ReviewStates: []string{p.ReviewState},
		EnrichmentStates: []string{p.EnrichmentState}, Alerts: p.Alerts}
}

// listCursorJSON is a list read's cursor on the wire: the base64url of
// this JSON, opaque to clients.
type listCursorJSON struct {
	Sort string    `json:"s"`
	Num  int64     `json:"k"`
	Name string    `json:"n"`
	ID   uuid.UUID `json:"i"`
}

// encodeListCursor writes a next page's cursor; "" on the last page.
func encodeListCursor(c *assessments.Cursor) string {
	if c == nil {
		return ""
	}
	b, _ := json.Marshal(listCursorJSON{Sort: c.Sort, Num: c.Num, Name: c.Name, ID: c.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeListCursor reads a cursor: nil when none is given, and the zero
// cursor, which the list read refuses, when it is not one this API gave.
func decodeListCursor(raw string) *assessments.Cursor {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil
	}
	var c listCursorJSON
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil {
		return &assessments.Cursor{}
	}
	return &assessments.Cursor{Sort: c.Sort, Num: c.Num, Name: c.Name, ID: c.ID}
}

// EntryReviewJSON is what a shaped list read adds to each entry: the
// vendor's review on the list and its rating.
type EntryReviewJSON struct {
	AssessmentID             *string     `json:"assessment_id" format:"uuid" doc:"null when the vendor has no assessment on the list"`
	Tier                     Tier        `json:"tier"`
	ComplianceApprovalStatus *string     `json:"compliance_approval_status" doc:"null when the vendor has no assessment on the list"`
	NextReviewAt             *time.Time  `json:"next_review_at"`
	ReviewState              ReviewState `json:"review_state"`
	Rating                   *int        `json:"rating" doc:"The profile's security_rating (0-100); null when none"`
}

func (s *Server) shapedList(ctx context.Context, in *listsGetIn) (listsGetBody, lists.List, error) {
	p := in.ListShape
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return listsGetBody{}, lists.List{}, err
	}
	page, err := s.assessments.ListRead(ctx, actor(ctx), acc, lr, p.query())
	if err != nil {
		return listsGetBody{}, lists.List{}, err
	}
	var out listsGetBody
	lj := listJSON(page.List)
	out.List = &lj
	vendors := make([]EntryJSON, 0, len(page.Rows))
	for _, r := range page.Rows {
		e := entryJSON(r.Entry)
		rv := &EntryReviewJSON{ReviewState: ReviewState("never_reviewed"), Rating: r.Rating}
		if a := r.Assessment; a != nil {
			id, st := a.ID.String(), string(a.Status)
			rv.AssessmentID, rv.ComplianceApprovalStatus, rv.Tier = &id, &st, Tier(a.Tier)
			rv.NextReviewAt, rv.ReviewState = optionalTime(a.Due.NextReviewAt), ReviewState(a.Due.State)
		}
		e.EntryReviewJSON = rv
		vendors = append(vendors, e)
	}
	out.Vendors = &vendors
	out.NextCursor = encodeListCursor(page.NextCursor)
	return out, page.List, nil
}
