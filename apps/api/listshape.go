package api

import (
	"context"
	"time"

	"github.com/vetted-dev/vetted/core/service"
)

// ListShape are the parameters of a shaped list read (issue 22). Without
// any of them a list read answers the whole list, as the contract says.
type ListShape struct {
	Limit           int    `query:"limit" minimum:"0" maximum:"500" doc:"Page size (1-500); with it the answer carries next_cursor while more rows follow"`
	Cursor          string `query:"cursor" doc:"next_cursor of the previous page (same sort and filters)"`
	Q               string `query:"q" maxLength:"200" doc:"Case-insensitive search in vendor and product names"`
	Sort            string `query:"sort" enum:"name,-rating,next_review_at,status" doc:"Order (default name); ties by name"`
	ReviewState     string `query:"review-state" doc:"never_reviewed, current, due_soon or overdue (several: comma-separated)"`
	EnrichmentState string `query:"enrichment-state" doc:"none, queued, running, failed or done (several: comma-separated)"`
	Alerts          string `query:"alerts" enum:"true,false" doc:"Only entries with alerts on (true) or off (false)"`
}

func (p ListShape) given() bool {
	return service.ListQuery{Limit: p.Limit, Cursor: p.Cursor, Q: p.Q, Sort: p.Sort, ReviewStates: []string{p.ReviewState},
		EnrichmentStates: []string{p.EnrichmentState}, Alerts: p.Alerts}.Paged()
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

func (s *Server) shapedList(ctx context.Context, in *listsGetIn) (*listsGetOut, error) {
	p := in.ListShape
	page, err := s.svc.ListRead(ctx, actor(ctx), in.AccountID, in.ref(), service.ListQuery{Limit: p.Limit, Cursor: p.Cursor,
		Q: p.Q, Sort: p.Sort, ReviewStates: []string{p.ReviewState}, EnrichmentStates: []string{p.EnrichmentState}, Alerts: p.Alerts})
	if err != nil {
		return nil, err
	}
	out := &listsGetOut{}
	lj := listJSON(page.List)
	out.Body.List = &lj
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
	out.Body.Vendors = &vendors
	out.Body.NextCursor = page.NextCursor
	return out, nil
}
