package sqlstore

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/vendors"
)

// The stored shapes of website discovery (profiles.website) and of the
// rating history (rating_history): keys fixed here, as for the profile's
// other JSON columns.

type websiteCandidateJSON struct {
	Domain      string  `json:"domain"`
	URL         string  `json:"url,omitempty"`
	Verdict     string  `json:"verdict"`
	Reason      string  `json:"reason"`
	Confidence  float64 `json:"confidence"`
	MatchText   string  `json:"match_text,omitempty"`
	MatchSource string  `json:"match_source,omitempty"`
	Chosen      bool    `json:"chosen,omitempty"`
}

type websiteDiscoveryJSON struct {
	Website     string                 `json:"website"`
	Domain      string                 `json:"domain"`
	Confidence  float64                `json:"confidence"`
	Threshold   float64                `json:"threshold"`
	MatchText   string                 `json:"match_text"`
	MatchSource string                 `json:"match_source"`
	Candidates  []websiteCandidateJSON `json:"candidates"`
	Elapsed     time.Duration          `json:"elapsed_ns"`
	At          time.Time              `json:"at"`
}

// websiteJSON is profiles.website: where the website came from and the
// evidence of the last discovery.
type websiteJSON struct {
	Source    string                `json:"source,omitempty"`
	Discovery *websiteDiscoveryJSON `json:"discovery,omitempty"`
}

func fromWebsite(p vendors.Profile) *websiteJSON {
	if p.WebsiteSource == "" && p.Discovery == nil {
		return nil
	}
	w := &websiteJSON{Source: string(p.WebsiteSource)}
	if d := p.Discovery; d != nil {
		j := websiteDiscoveryJSON{Website: d.Website, Domain: d.Domain, Confidence: d.Confidence, Threshold: d.Threshold,
			MatchText: d.MatchText, MatchSource: d.MatchSource, Candidates: make([]websiteCandidateJSON, 0, len(d.Candidates)),
			Elapsed: d.Elapsed, At: d.At}
		for _, c := range d.Candidates {
			j.Candidates = append(j.Candidates, websiteCandidateJSON(c))
		}
		w.Discovery = &j
	}
	return w
}

// applyTo sets the website fields of p from w (nil: none known).
func (w *websiteJSON) applyTo(p *vendors.Profile) {
	if w == nil {
		return
	}
	p.WebsiteSource = vendors.WebsiteSource(w.Source)
	if j := w.Discovery; j != nil {
		d := &vendors.WebsiteDiscovery{Website: j.Website, Domain: j.Domain, Confidence: j.Confidence, Threshold: j.Threshold,
			MatchText: j.MatchText, MatchSource: j.MatchSource, Candidates: make([]vendors.WebsiteCandidate, 0, len(j.Candidates)),
			Elapsed: j.Elapsed, At: utcZero(j.At)}
		for _, c := range j.Candidates {
			d.Candidates = append(d.Candidates, vendors.WebsiteCandidate(c))
		}
		p.Discovery = d
	}
}

type ratingFindingJSON struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
}

type ratingChangeJSON struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// ratingRow is a row of rating_history.
type ratingRow struct {
	bun.BaseModel `bun:"table:rating_history,alias:rh"`

	ID            uuid.UUID           `bun:"id,pk"`
	VendorID      uuid.UUID           `bun:"vendor_id"`
	ScannedAt     time.Time           `bun:"scanned_at"`
	Rating        *int                `bun:"rating"`
	Grade         string              `bun:"grade"`
	ChecksRun     *int                `bun:"checks_run"`   // null: kept before the coverage was recorded
	ChecksTotal   *int                `bun:"checks_total"` // null with checks_run
	Findings      []ratingFindingJSON `bun:"findings,type:jsonb"`
	CertExpiresAt *time.Time          `bun:"cert_expires_at"`
	Changes       []ratingChangeJSON  `bun:"changes,type:jsonb"`
	IsEvent       bool                `bun:"is_event"`
}

// fromRating makes the row of r.
func fromRating(r vendors.RatingRecord) ratingRow {
	row := ratingRow{ID: r.ID, VendorID: r.VendorID, ScannedAt: r.ScannedAt, Rating: r.Rating, Grade: r.Grade,
		ChecksRun: r.ChecksRun, ChecksTotal: r.ChecksTotal,
		Findings: make([]ratingFindingJSON, 0, len(r.Findings)), CertExpiresAt: r.CertExpiresAt,
		Changes: make([]ratingChangeJSON, 0, len(r.Changes)), IsEvent: r.IsEvent()}
	for _, f := range r.Findings {
		row.Findings = append(row.Findings, ratingFindingJSON(f))
	}
	for _, c := range r.Changes {
		row.Changes = append(row.Changes, ratingChangeJSON{Kind: string(c.Kind), Detail: c.Detail})
	}
	return row
}

// Core rebuilds the record.
func (r ratingRow) Core() vendors.RatingRecord {
	out := vendors.RatingRecord{ID: r.ID, VendorID: r.VendorID, ScannedAt: utc(r.ScannedAt), Rating: r.Rating, Grade: r.Grade,
		ChecksRun: r.ChecksRun, ChecksTotal: r.ChecksTotal, Findings: make([]vendors.RatingFinding, 0, len(r.Findings))}
	if r.CertExpiresAt != nil {
		t := r.CertExpiresAt.UTC()
		out.CertExpiresAt = &t
	}
	for _, f := range r.Findings {
		out.Findings = append(out.Findings, vendors.RatingFinding(f))
	}
	for _, c := range r.Changes {
		out.Changes = append(out.Changes, vendors.RatingChange{Kind: vendors.RatingChangeKind(c.Kind), Detail: c.Detail})
	}
	return out
}
