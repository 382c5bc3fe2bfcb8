package vendors

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// CertExpiryWindow is how close to its expiry a site's certificate makes a
// rating change event.
const CertExpiryWindow = 14 * 24 * time.Hour

// RatingFinding is one finding of a scan as the rating history keeps it.
type RatingFinding struct {
	Code     string
	Severity string
	Title    string
}

// RatingRecord is what one scan of a vendor rated: its rating and grade
// (nil and "" when no check could run), its findings (the instances that
// are not positive or not-checked signals), how many of its checks ran
// of how many (CheckCoverage: the not-checked signals the findings skip;
// nil for records kept before the coverage was recorded, so unknown),
// when its certificate expires (nil when none was read), and the change
// that mattered since the scan before it, if any (the event subscribers
// are told of).
type RatingRecord struct {
	ID            uuid.UUID
	VendorID      uuid.UUID
	ScannedAt     time.Time
	Rating        *int
	Grade         string
	ChecksRun     *int
	ChecksTotal   *int
	Findings      []RatingFinding
	CertExpiresAt *time.Time
	Changes       []RatingChange
}

// IsEvent reports whether the record carries a change that matters.
func (r RatingRecord) IsEvent() bool { return len(r.Changes) > 0 }

// RatingChangeKind names a change that matters.
type RatingChangeKind string

// Rating change kinds.
const (
	// ChangeGradeDrop: the grade dropped a letter or more.
	ChangeGradeDrop RatingChangeKind = "grade_drop"
	// ChangeNewFinding: a critical or high finding the scan before did not have.
	ChangeNewFinding RatingChangeKind = "new_finding"
	// ChangeCertExpiring: the certificate expires within CertExpiryWindow
	// of the scan, and did not at the scan before.
	ChangeCertExpiring RatingChangeKind = "certificate_expiring"
)

// RatingChangeKindValues lists the change kinds.
func RatingChangeKindValues() []string {
	return []string{string(ChangeGradeDrop), string(ChangeNewFinding), string(ChangeCertExpiring)}
}

// RatingChange is one change that matters, with a sentence for people.
type RatingChange struct {
	Kind   RatingChangeKind
	Detail string
}

// NewRatingRecord makes the record of a scan from its instances and the
// profile it rated (its scores and external signals).
func NewRatingRecord(id uuid.UUID, p Profile, is []SecurityInstance, at time.Time) RatingRecord {
	r := RatingRecord{ID: id, VendorID: p.VendorID, ScannedAt: at.UTC(), Grade: p.Scores.Grade, Findings: []RatingFinding{}}
	if p.Scores.SecurityRating != nil {
		v := *p.Scores.SecurityRating
		r.Rating = &v
	}
	run, total := CheckCoverage(is)
	r.ChecksRun, r.ChecksTotal = &run, &total
	for _, in := range is {
		if in.Severity == "positive" || IsNotChecked(in.Code) {
			continue
		}
		r.Findings = append(r.Findings, RatingFinding{Code: in.Code, Severity: in.Severity, Title: in.Title})
	}
	slices.SortFunc(r.Findings, func(a, b RatingFinding) int { return strings.Compare(a.Code, b.Code) })
	if exp, err := time.Parse(time.RFC3339, p.Security.ExternalSignals.TLSExpiresAt); err == nil {
		exp = exp.UTC()
		r.CertExpiresAt = &exp
	}
	return r
}

// RatingChanges is the rule of change alerts: what changed that matters
// between the scan before (prev, nil for a vendor's first scan) and cur.
// A first scan is the baseline and changes nothing. All changes of one
// scan are one event: a certificate swapped for an expiring one that also
// lowers the grade is one alert, not two.
func RatingChanges(prev *RatingRecord, cur RatingRecord) []RatingChange {
	if prev == nil {
		return nil
	}
	var out []RatingChange
	if drop := gradeRank(cur.Grade) - gradeRank(prev.Grade); prev.Grade != "" && cur.Grade != "" && drop >= 1 {
		out = append(out, RatingChange{Kind: ChangeGradeDrop, Detail: fmt.Sprintf("grade dropped from %s to %s", prev.Grade, cur.Grade)})
	}
	had := map[string]bool{}
	for _, f := range prev.Findings {
		had[f.Code] = true
	}
	for _, f := range cur.Findings {
		if (f.Severity == "critical" || f.Severity == "high") && !had[f.Code] {
			out = append(out, RatingChange{Kind: ChangeNewFinding, Detail: fmt.Sprintf("new %s finding: %s", f.Severity, f.Title)})
		}
	}
	if cur.certExpiring() && !prev.certExpiring() {
		out = append(out, RatingChange{Kind: ChangeCertExpiring,
			Detail: "the certificate expires on " + cur.CertExpiresAt.Format("2006-01-02")})
	}
	return out
}

// certExpiring reports whether the certificate read by the scan expires
// within CertExpiryWindow of it (an expired one included).
func (r RatingRecord) certExpiring() bool {
	return r.CertExpiresAt != nil && r.CertExpiresAt.Sub(r.ScannedAt) <= CertExpiryWindow
}

// gradeRank orders the letters of Grade, A first; an unknown grade ranks
// with A so that it never reads as a drop.
func gradeRank(g string) int {
	return max(strings.Index("ABCDF", g), 0)
}

// RatingCursor is where a page of the rating history continues: after
// the record scanned at At with id ID (newest first).
type RatingCursor struct {
	At time.Time
	ID uuid.UUID
}
