package api

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/vendors"
)

// Website discovery evidence on the vendor view, the rating history of a
// vendor and the dashboard's feed of rating changes (issue 23).

// WebsiteCandidateJSON is one domain website discovery tried.
type WebsiteCandidateJSON struct {
	Domain      string  `json:"domain"`
	URL         string  `json:"url" doc:"The page read, after redirects (empty when none was)"`
	Verdict     string  `json:"verdict" doc:"kept, unresolvable, no_https, refused, http_error, parked, for_sale, unrelated_redirect, generic_page, name_mismatch, timeout or skipped"`
	Reason      string  `json:"reason"`
	Confidence  float64 `json:"confidence" minimum:"0" maximum:"1"`
	MatchText   string  `json:"match_text" doc:"The name on its page that came closest (empty when none)"`
	MatchSource string  `json:"match_source" doc:"Where: title, og:site_name, json-ld organization or certificate organization"`
	Chosen      bool    `json:"chosen"`
}

// WebsiteDiscoveryJSON is the evidence of a vendor's website discovery.
type WebsiteDiscoveryJSON struct {
	Website      string                 `json:"website" doc:"The site chosen; empty when no candidate reached the threshold (the vendor needs a website)"`
	Domain       string                 `json:"domain"`
	Confidence   float64                `json:"confidence" minimum:"0" maximum:"1"`
	Threshold    float64                `json:"threshold" minimum:"0" maximum:"1"`
	MatchText    string                 `json:"match_text" doc:"The name the chosen site's page gave"`
	MatchSource  string                 `json:"match_source"`
	Candidates   []WebsiteCandidateJSON `json:"candidates" doc:"Every domain considered, most likely first, with why it was kept or refused"`
	ElapsedMS    int64                  `json:"elapsed_ms"`
	DiscoveredAt time.Time              `json:"discovered_at"`
}

func websiteDiscoveryJSON(d *vendors.WebsiteDiscovery) *WebsiteDiscoveryJSON {
	if d == nil {
		return nil
	}
	out := &WebsiteDiscoveryJSON{Website: d.Website, Domain: d.Domain, Confidence: d.Confidence, Threshold: d.Threshold,
		MatchText: d.MatchText, MatchSource: d.MatchSource, Candidates: make([]WebsiteCandidateJSON, 0, len(d.Candidates)),
		ElapsedMS: d.Elapsed.Milliseconds(), DiscoveredAt: d.At}
	for _, c := range d.Candidates {
		out.Candidates = append(out.Candidates, WebsiteCandidateJSON(c))
	}
	return out
}

// RatingFindingJSON is a finding of a scan in the rating history.
type RatingFindingJSON struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Title    string   `json:"title"`
}

// RatingChangeJSON is one change that matters.
type RatingChangeJSON struct {
	Kind   RatingChangeKind `json:"kind"`
	Detail string           `json:"detail"`
}

// RatingRecordJSON is one scan of the rating history.
type RatingRecordJSON struct {
	ID                   string              `json:"id" format:"uuid"`
	ScannedAt            time.Time           `json:"scanned_at"`
	SecurityRating       *int                `json:"security_rating" doc:"0-100; null when no check could run"`
	Grade                string              `json:"grade" doc:"A-F; empty when not rated"`
	ChecksRun            *int                `json:"checks_run" doc:"How many of the scan's checks ran (a check that could not run records its not-checked signal, which findings leave out); null for scans recorded before the coverage was kept"`
	ChecksTotal          *int                `json:"checks_total" doc:"How many checks the scan had; null with checks_run"`
	Findings             []RatingFindingJSON `json:"findings"`
	CertificateExpiresAt *time.Time          `json:"certificate_expires_at" doc:"When the site's certificate expires; null when none was read"`
	Changes              []RatingChangeJSON  `json:"changes" doc:"What changed that matters since the scan before: an alert when not empty"`
}

func ratingRecordJSON(r vendors.RatingRecord) RatingRecordJSON {
	out := RatingRecordJSON{ID: r.ID.String(), ScannedAt: r.ScannedAt, SecurityRating: r.Rating, Grade: r.Grade,
		ChecksRun: r.ChecksRun, ChecksTotal: r.ChecksTotal, Findings: make([]RatingFindingJSON, 0, len(r.Findings)), CertificateExpiresAt: r.CertExpiresAt,
		Changes: make([]RatingChangeJSON, 0, len(r.Changes))}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, RatingFindingJSON{Code: f.Code, Severity: Severity(f.Severity), Title: f.Title})
	}
	for _, c := range r.Changes {
		out.Changes = append(out.Changes, RatingChangeJSON{Kind: RatingChangeKind(c.Kind), Detail: c.Detail})
	}
	return out
}

type ratingHistoryIn struct {
	VendorPath
	Limit  int    `query:"limit" minimum:"0" maximum:"100" doc:"Page size (default 20, at most 100)"`
	Cursor string `query:"cursor" doc:"next_cursor of the previous page"`
}

// RatingHistoryBody is the answer of GET /vendor/{id_or_name}/rating-history.
type RatingHistoryBody struct {
	VendorID   string             `json:"vendor_id" format:"uuid"`
	History    []RatingRecordJSON `json:"history" doc:"Newest first"`
	NextCursor string             `json:"next_cursor,omitempty" doc:"When older scans follow: the cursor of the next page"`
}

type ratingHistoryOut struct{ Body RatingHistoryBody }

// ratingCursorJSON is a rating history cursor on the wire: the base64url
// of this JSON, opaque to clients.
type ratingCursorJSON struct {
	At time.Time `json:"t"`
	ID uuid.UUID `json:"i"`
}

func encodeRatingCursor(c *vendors.RatingCursor) string {
	if c == nil {
		return ""
	}
	b, _ := json.Marshal(ratingCursorJSON{At: c.At, ID: c.ID})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeRatingCursor reads a cursor: nil when none is given, and the zero
// cursor, which the history read refuses, when it is not one this API gave.
func decodeRatingCursor(raw string) *vendors.RatingCursor {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil
	}
	var c ratingCursorJSON
	b, err := base64.RawURLEncoding.DecodeString(raw)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil {
		return &vendors.RatingCursor{}
	}
	return &vendors.RatingCursor{At: c.At, ID: c.ID}
}

// RatingChangeFeedJSON is a rating change event as the dashboard shows it
// beside the incident feed.
type RatingChangeFeedJSON struct {
	ID             string             `json:"id" format:"uuid" doc:"The rating history record's id"`
	Kind           string             `json:"kind" enum:"rating_change" doc:"Always rating_change, to tell these items from incidents in a merged feed"`
	VendorID       string             `json:"vendor_id" format:"uuid"`
	VendorName     string             `json:"vendor_name"`
	Product        string             `json:"product" doc:"The vendor's product rows on the lists in scope, comma-separated"`
	ScannedAt      time.Time          `json:"scanned_at"`
	SecurityRating *int               `json:"security_rating"`
	Grade          string             `json:"grade"`
	ChecksRun      *int               `json:"checks_run" doc:"How many of the scan's checks ran; null for scans recorded before the coverage was kept"`
	ChecksTotal    *int               `json:"checks_total" doc:"How many checks the scan had; null with checks_run"`
	Changes        []RatingChangeJSON `json:"changes"`
}

type recentRatingChangesOut struct{ Body []RatingChangeFeedJSON }

func ratingChangeFeedJSON(v assessments.RatingChangeView) RatingChangeFeedJSON {
	r := ratingRecordJSON(v.Record)
	return RatingChangeFeedJSON{ID: r.ID, Kind: "rating_change", VendorID: v.Record.VendorID.String(), VendorName: v.VendorName,
		Product: strings.Join(v.Products, ", "), ScannedAt: r.ScannedAt, SecurityRating: r.SecurityRating, Grade: r.Grade,
		ChecksRun: r.ChecksRun, ChecksTotal: r.ChecksTotal, Changes: r.Changes}
}

// ratingsHandler answers the rating reads: a vendor's rating history
// (vendors area) and the dashboard's recent rating changes (assessments
// area).
type ratingsHandler struct{ *Server }

// ratingHistory answers get-vendor-rating-history.
func (h ratingsHandler) ratingHistory(ctx context.Context, in *ratingHistoryIn) (*ratingHistoryOut, error) {
	ref, err := in.vendorRef()
	if err != nil {
		return nil, err
	}
	v, page, next, err := h.vendors.RatingHistory(ctx, actor(ctx), ref, decodeRatingCursor(in.Cursor), in.Limit)
	if err != nil {
		return nil, err
	}
	out := &ratingHistoryOut{Body: RatingHistoryBody{VendorID: v.ID.String(), History: make([]RatingRecordJSON, 0, len(page)),
		NextCursor: encodeRatingCursor(next)}}
	for _, r := range page {
		out.Body.History = append(out.Body.History, ratingRecordJSON(r))
	}
	return out, nil
}

// recentRatingChanges answers get-recent-rating-changes.
func (h ratingsHandler) recentRatingChanges(ctx context.Context, in *recentIncidentsIn) (*recentRatingChangesOut, error) {
	acc, lr, err := accountAnd(in.AccountParam, in.listRef)
	if err != nil {
		return nil, err
	}
	vs, err := h.assessments.RecentRatingChanges(ctx, actor(ctx), acc, lr, in.Limit)
	if err != nil {
		return nil, err
	}
	out := &recentRatingChangesOut{Body: make([]RatingChangeFeedJSON, 0, len(vs))}
	for _, v := range vs {
		out.Body = append(out.Body, ratingChangeFeedJSON(v))
	}
	return out, nil
}
