package api

import (
	"time"

	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/convert"
)

// The profile groups as the API answers them (GET and PATCH /vendor). They
// are the public schema: their JSON names are the contract, apart from the
// core's Go names and from the stored shapes (adapters/sqlstore, rows.go).
// The editable fields' names are also the paths of the core's PATCH
// whitelist (vendors.PatchPaths); TestPatchPathsAreAnswered holds the two
// together.

// Company is the company-details group.
type Company struct {
	CompanyDescription   string   `json:"company_description"`
	BusinessType         string   `json:"business_type"`
	FoundedYear          *int     `json:"founded_year"`
	EmployeeCount        *int     `json:"employee_count"`
	Industry             string   `json:"industry"`
	PrimaryProduct       string   `json:"primary_product"`
	HeadquartersLocation string   `json:"headquarters_location"`
	WebsiteURL           string   `json:"website_url"`
	Alias                []string `json:"alias"`
	LegalName            string   `json:"legal_name"`
	ContactEmail         string   `json:"contact_email"`
	TosURL               string   `json:"tos_url"`
	Logo                 string   `json:"logo"`
}

// ExternalSignals are passively observed security signals.
type ExternalSignals struct {
	TLS             *bool  `json:"tls"`
	TLSExpiresAt    string `json:"tls_expires_at"`
	HSTS            *bool  `json:"hsts"`
	SecurityHeaders *bool  `json:"security_headers"`
	SPF             *bool  `json:"spf"`
	DMARC           *bool  `json:"dmarc"`
	DNSSEC          *bool  `json:"dnssec"`
	CAA             *bool  `json:"caa"`
	MTASTS          *bool  `json:"mta_sts"`
	SecurityTxt     *bool  `json:"security_txt"`
}

// Security is the security-posture group.
type Security struct {
	ComplianceCertifications []string        `json:"compliance_certifications"`
	PublishedSubprocessors   []string        `json:"published_subprocessors"`
	SecurityPageURL          string          `json:"security_page_url"`
	TrustCenterURL           string          `json:"trust_center_url"`
	StatusPageURL            string          `json:"status_page_url"`
	ExternalSignals          ExternalSignals `json:"external_signals"`
}

// Privacy is the privacy group.
type Privacy struct {
	PrivacyPolicyURL             string   `json:"privacy_policy_url"`
	DataCollected                []string `json:"data_collected"`
	SharedDataDescription        string   `json:"shared_data_description"`
	MLTrainingDataDescription    string   `json:"ml_training_data_description"`
	SupportsDataSubjectRequests  *bool    `json:"supports_data_subject_requests"`
	GDPRCompliant                *bool    `json:"gdpr_compliant"`
	DataReturnedAfterTermination *bool    `json:"data_returned_after_termination"`
	DataPhysicalLocation         string   `json:"data_physical_location"`
}

// Maturity is the business-maturity group.
type Maturity struct {
	CompanyType            string `json:"company_type"`
	TotalFunding           string `json:"total_funding"`
	FundingRound           string `json:"funding_round"`
	HasEnterpriseCustomers *bool  `json:"has_enterprise_customers"`
	PopularityIndex        *int   `json:"popularity_index"`
	RevenueEstimate        string `json:"revenue_estimate"`
	CustomerCountEstimate  string `json:"customer_count_estimate"`
}

// Breach is one known breach.
type Breach struct {
	Date        string `json:"date"`
	Description string `json:"description"`
	Source      string `json:"source"`
}

// Scores is the scores group.
type Scores struct {
	SecurityRating *int     `json:"security_rating"`
	RiskScore      *int     `json:"risk_score"`
	Grade          string   `json:"grade"`
	RiskCategories []string `json:"risk_categories"`
	BreachHistory  []Breach `json:"breach_history"`
}

// DomainScore is one domain of a GRC assessment.
type DomainScore struct {
	Domain   string   `json:"domain"`
	Score    int      `json:"score"`
	Weight   float64  `json:"weight"`
	Findings []string `json:"findings"`
}

// Citation is a source a GRC assessment relied on.
type Citation struct {
	URL         string    `json:"url"`
	Title       string    `json:"title"`
	RetrievedAt time.Time `json:"retrieved_at"`
}

// GRCAssessment is the latest risk assessment of a profile.
type GRCAssessment struct {
	AggregateScore    int           `json:"aggregate_score"`
	Grade             string        `json:"grade"`
	DomainScores      []DomainScore `json:"domain_scores"`
	IntegrationDepth  string        `json:"integration_depth"`
	Recommendation    string        `json:"recommendation"`
	EvidenceSummaries []string      `json:"evidence_summaries"`
	Citations         []Citation    `json:"citations"`
	AssessedAt        time.Time     `json:"assessed_at"`
}

// The conversions are Go conversions where the fields match one to one, so
// that a field added to or renamed in the core stops the build here rather
// than changing the schema unseen.

func securityJSON(s vendors.Security) Security {
	return Security{ComplianceCertifications: s.ComplianceCertifications, PublishedSubprocessors: s.PublishedSubprocessors,
		SecurityPageURL: s.SecurityPageURL, TrustCenterURL: s.TrustCenterURL, StatusPageURL: s.StatusPageURL,
		ExternalSignals: ExternalSignals(s.ExternalSignals)}
}

// scoresJSON keeps a nil breach history nil (the view answers it as []).
func scoresJSON(s vendors.Scores) Scores {
	return Scores{SecurityRating: s.SecurityRating, RiskScore: s.RiskScore, Grade: s.Grade, RiskCategories: s.RiskCategories,
		BreachHistory: convert.Slice(s.BreachHistory, func(b vendors.Breach) Breach { return Breach(b) })}
}

// grcJSON answers an assessment; its lists stay null when the core's are
// nil, as the assessment's JSON always had them.
func grcJSON(a *vendors.GRCAssessment) *GRCAssessment {
	if a == nil {
		return nil
	}
	return &GRCAssessment{AggregateScore: a.AggregateScore, Grade: a.Grade,
		DomainScores:     convert.Slice(a.DomainScores, func(d vendors.DomainScore) DomainScore { return DomainScore(d) }),
		IntegrationDepth: a.IntegrationDepth, Recommendation: a.Recommendation, EvidenceSummaries: a.EvidenceSummaries,
		Citations:  convert.Slice(a.Citations, func(c vendors.Citation) Citation { return Citation(c) }),
		AssessedAt: a.AssessedAt}
}
