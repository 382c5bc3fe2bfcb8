package vendors

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// The security rating model. It is deterministic and reads nothing but the
// instances of one scan (docs/security-scanner.md explains it with examples):
//
//   - Each rated domain starts at 100 and loses Penalty(severity) points per
//     finding, plus the Gap of every gap check that ran and found nothing.
//   - Each positive signal restores PositiveBonus points, but positives never
//     restore more than half of what the domain lost: a domain without
//     findings stays at 100 and positives cannot outweigh findings. The
//     result is clamped to 0..100.
//   - A domain is rated when at least one of its checks ran; not-checked
//     signals change no score. The security rating is the weighted mean of
//     the rated domains (RatingWeights, renormalised over the rated ones),
//     rounded; with no rated domain there is no rating at all.
//
// Adding a finding (or a gap) never raises a domain's score, since each
// penalty point is at most half given back; removing a positive never
// raises it either. So a worse scan never rates higher.

// DomainWeight is the weight of one GRC domain in the security rating.
type DomainWeight struct {
	Domain string
	// Weight is in percent; the weights sum to 100.
	Weight int
}

// RatingWeights are the domains the scan rates, with their weights. They
// start from UpGuard's published split (website 43, network 26, email 9)
// and give the remaining 22 to DNS health (10), compliance (6) and privacy (6).
func RatingWeights() []DomainWeight {
	return []DomainWeight{
		{"application_security", 43}, {"network_security", 26}, {"email_security", 9},
		{"dns_health", 10}, {"compliance", 6}, {"privacy", 6},
	}
}

// Penalty is what one finding of a severity takes off its domain.
func Penalty(severity string) int {
	switch severity {
	case "critical":
		return 40
	case "high":
		return 25
	case "medium":
		return 15
	case "low":
		return 5
	}
	return 0
}

// PositiveBonus is what one positive signal gives back to its domain, up to
// half of the domain's losses.
const PositiveBonus = 5

// Recommendations, from best to worst.
const (
	RecommendApprove               = "approve"
	RecommendApproveWithConditions = "approve_with_conditions"
	RecommendEscalate              = "escalate"
	RecommendReject                = "reject"
)

// MinCoverage is the share of the model's weight that must have been rated
// for a plain approve: a rating made from a few domains only (the web site
// could not be reached, say) approves with conditions at best.
const MinCoverage = 0.5

// Recommend turns a rating, the most severe finding ("" when none) and the
// share of the model's weight that was rated into a recommendation: reject
// under 40, or under 60 with a critical finding; escalate with any critical
// or high finding, or under 60; approve with conditions with a medium
// finding, under 80, or under MinCoverage; approve otherwise.
func Recommend(score int, worst string, coverage float64) string {
	switch {
	case score < 40, worst == "critical" && score < 60:
		return RecommendReject
	case worst == "critical", worst == "high", score < 60:
		return RecommendEscalate
	case worst == "medium", score < 80, coverage < MinCoverage:
		return RecommendApproveWithConditions
	}
	return RecommendApprove
}

// Rating is the outcome of the model over one scan.
type Rating struct {
	// Score is the security rating, nil when no check could run.
	Score *int
	// Domains are the rated domains with their effective weights (they sum
	// to 1) and the codes behind each score, most severe first.
	Domains []DomainScore
	// RiskCategories are the domains with a finding above info.
	RiskCategories []string
	// Worst is the most severe finding's severity, "" when none.
	Worst string
	// Coverage is the share (0..1) of the model's weight that was rated.
	Coverage float64
	// Summaries say, most severe first, what was observed; they also name
	// gaps, checks that could not run and domains left unrated.
	Summaries []string
	// Citations are the URLs and DNS names the scan read.
	Citations []Citation
}

func severityRank(s string) int {
	if i := slices.Index(SeverityValues(), s); i >= 0 {
		return i
	}
	return len(SeverityValues())
}

// Rate applies the model to a scan's instances. Codes outside the catalog
// are ignored; a list without any catalog code means no scan, so no rating.
func Rate(is []SecurityInstance) Rating {
	known := make([]SecurityInstance, 0, len(is))
	for _, in := range is {
		if _, ok := codeInfo[in.Code]; ok {
			known = append(known, in)
		}
	}
	slices.SortStableFunc(known, func(a, b SecurityInstance) int {
		return cmp.Or(cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)), cmp.Compare(a.Code, b.Code))
	})
	var r Rating
	r.RiskCategories = []string{}
	if len(known) == 0 {
		return r
	}
	notRun := map[string]bool{}
	recorded := map[string]bool{} // checks with a finding or positive
	for _, in := range known {
		info := codeInfo[in.Code]
		if IsNotChecked(in.Code) {
			notRun[info.Check] = true
			r.Summaries = append(r.Summaries, fmt.Sprintf("%s not checked: %s", checkByName[info.Check].Title, in.Evidence))
			continue
		}
		recorded[info.Check] = true
		r.Summaries = append(r.Summaries, fmt.Sprintf("%s (%s): %s", in.Title, in.Severity, in.Evidence))
		if in.Kind == KindFinding && severityRank(in.Severity) < severityRank(r.Worst) {
			r.Worst = in.Severity
		}
	}
	r.Citations = citations(known)

	var weighted, total float64
	type rated struct {
		ds     DomainScore
		weight int
	}
	var domains []rated
	for _, dw := range RatingWeights() {
		ran, lost, bonus := false, 0, 0
		codes := []string{}
		for _, c := range Checks() {
			if c.Category != dw.Domain || notRun[c.Name] {
				continue
			}
			ran = true
			if c.Gap > 0 && !recorded[c.Name] {
				lost += c.Gap
				r.Summaries = append(r.Summaries, fmt.Sprintf("%s: none found (-%d in %s)", c.Title, c.Gap, dw.Domain))
			}
		}
		for _, in := range known {
			if in.Category != dw.Domain || IsNotChecked(in.Code) {
				continue
			}
			codes = append(codes, in.Code)
			if in.Kind == KindFinding {
				lost += Penalty(in.Severity)
			} else if in.Severity == "positive" {
				bonus += PositiveBonus
			}
		}
		if !ran {
			r.Summaries = append(r.Summaries, fmt.Sprintf("%s not rated: none of its checks could run", dw.Domain))
			continue
		}
		score := min(max(100-lost+min(bonus, lost/2), 0), 100)
		domains = append(domains, rated{DomainScore{Domain: dw.Domain, Score: score, Findings: codes}, dw.Weight})
		weighted += float64(dw.Weight * score)
		total += float64(dw.Weight)
	}
	for _, in := range known {
		if in.Kind == KindFinding && Penalty(in.Severity) > 0 && !slices.Contains(r.RiskCategories, in.Category) {
			r.RiskCategories = append(r.RiskCategories, in.Category)
		}
	}
	slices.SortFunc(r.RiskCategories, func(a, b string) int {
		return cmp.Compare(slices.Index(Domains(), a), slices.Index(Domains(), b))
	})
	if len(domains) == 0 {
		return r
	}
	r.Coverage = total / 100
	if r.Coverage < MinCoverage {
		r.Summaries = append(r.Summaries, fmt.Sprintf("only %.0f%% of the rating's weight could be checked, so it approves with conditions at best", r.Coverage*100))
	}
	for _, d := range domains {
		d.ds.Weight = math.Round(float64(d.weight)/total*10000) / 10000
		r.Domains = append(r.Domains, d.ds)
	}
	score := int(math.Round(weighted / total))
	r.Score = &score
	return r
}

// citations lists each source once, in the order of the instances, titled
// with the checks that read it.
func citations(is []SecurityInstance) []Citation {
	var out []Citation
	titles := map[string][]string{}
	at := map[string]time.Time{}
	for _, in := range is {
		if in.Source == "" {
			continue
		}
		title := checkByName[codeInfo[in.Code].Check].Title
		if _, seen := titles[in.Source]; !seen {
			out = append(out, Citation{URL: in.Source})
			at[in.Source] = in.ObservedAt
		}
		if !slices.Contains(titles[in.Source], title) {
			titles[in.Source] = append(titles[in.Source], title)
		}
	}
	for i := range out {
		out[i].Title = strings.Join(titles[out[i].URL], "; ")
		out[i].RetrievedAt = at[out[i].URL]
	}
	return out
}

// ApplyRating sets the scores group (security_rating, risk_score, grade,
// risk_categories) and the latest GRC assessment from a scan's instances,
// and returns the assessment so it can be kept in the history. When no
// check could run it clears the rating, the grade and the latest
// assessment, and returns nil: a scan that saw nothing rates nothing.
func (p *Profile) ApplyRating(is []SecurityInstance, at time.Time) *GRCAssessment {
	r := Rate(is)
	s := &p.Scores
	s.RiskCategories = r.RiskCategories
	if r.Score == nil {
		s.SecurityRating, s.RiskScore, s.Grade = nil, nil, ""
		p.LatestGRC = nil
		return nil
	}
	rating, risk := *r.Score, 100-*r.Score
	s.SecurityRating, s.RiskScore, s.Grade = &rating, &risk, Grade(rating)
	summaries := r.Summaries
	if summaries == nil {
		summaries = []string{}
	}
	g := &GRCAssessment{
		AggregateScore:    rating,
		Grade:             Grade(rating),
		DomainScores:      r.Domains,
		Recommendation:    Recommend(rating, r.Worst, r.Coverage),
		EvidenceSummaries: summaries,
		Citations:         r.Citations,
		AssessedAt:        at.UTC(),
	}
	if g.Citations == nil {
		g.Citations = []Citation{}
	}
	p.LatestGRC = g
	return g.Clone()
}

// Clone returns a deep copy of the assessment.
func (g *GRCAssessment) Clone() *GRCAssessment {
	if g == nil {
		return nil
	}
	out := *g
	out.DomainScores = slices.Clone(g.DomainScores)
	for i := range out.DomainScores {
		out.DomainScores[i].Findings = slices.Clone(out.DomainScores[i].Findings)
	}
	out.EvidenceSummaries = slices.Clone(g.EvidenceSummaries)
	out.Citations = slices.Clone(g.Citations)
	return &out
}
