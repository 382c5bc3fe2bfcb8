package sqlstore

import (
	"time"

	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/convert"
)

// The stored shapes of a profile's JSON columns (profiles.company,
// .security, .privacy, .maturity, .scores, .enrichment, .latest_grc and
// grc_assessments.assessment). Their keys are what the databases already
// hold, so they are fixed here, apart from the core's Go names: renaming a
// field of vendors.Company changes the converters below, never a stored
// document. TestStoredProfileJSON holds the keys to documents written
// before these types existed.

type companyJSON struct {
	CompanyDescription   string   `json:"company_description"`
	BusinessType         string   `json:"business_type"`
	FoundedYear          *int     `json:"founded_year"`
	EmployeeCount        *int     `json:"employee_count"`
	Industry             string   `json:"industry"`
	PrimaryProduct       string   `json:"primary_product"`
	HeadquartersLocation string   `json:"headquarters_location"`
	WebsiteURL           string   `json:"website_url"`
	Alias                []string `json:"alias"`
	LegalName            string   `json:"legal_name,omitempty"` // absent from the documents written before it
	ContactEmail         string   `json:"contact_email"`
	TosURL               string   `json:"tos_url"`
	Logo                 string   `json:"logo"`
}

func fromCompany(c vendors.Company) companyJSON { return companyJSON(c) }

func (j companyJSON) core() vendors.Company { return vendors.Company(j) }

type externalSignalsJSON struct {
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

type securityJSON struct {
	ComplianceCertifications []string            `json:"compliance_certifications"`
	PublishedSubprocessors   []string            `json:"published_subprocessors"`
	SecurityPageURL          string              `json:"security_page_url"`
	TrustCenterURL           string              `json:"trust_center_url"`
	StatusPageURL            string              `json:"status_page_url"`
	ExternalSignals          externalSignalsJSON `json:"external_signals"`
}

func fromSecurity(s vendors.Security) securityJSON {
	return securityJSON{ComplianceCertifications: s.ComplianceCertifications, PublishedSubprocessors: s.PublishedSubprocessors,
		SecurityPageURL: s.SecurityPageURL, TrustCenterURL: s.TrustCenterURL, StatusPageURL: s.StatusPageURL,
		ExternalSignals: externalSignalsJSON(s.ExternalSignals)}
}

func (j securityJSON) core() vendors.Security {
	return vendors.Security{ComplianceCertifications: j.ComplianceCertifications, PublishedSubprocessors: j.PublishedSubprocessors,
		SecurityPageURL: j.SecurityPageURL, TrustCenterURL: j.TrustCenterURL, StatusPageURL: j.StatusPageURL,
		ExternalSignals: vendors.ExternalSignals(j.ExternalSignals)}
}

type privacyJSON struct {
	PrivacyPolicyURL             string   `json:"privacy_policy_url"`
	DataCollected                []string `json:"data_collected"`
	SharedDataDescription        string   `json:"shared_data_description"`
	MLTrainingDataDescription    string   `json:"ml_training_data_description"`
	SupportsDataSubjectRequests  *bool    `json:"supports_data_subject_requests"`
	GDPRCompliant                *bool    `json:"gdpr_compliant"`
	DataReturnedAfterTermination *bool    `json:"data_returned_after_termination"`
	DataPhysicalLocation         string   `json:"data_physical_location"`
}

type maturityJSON struct {
	CompanyType            string `json:"company_type"`
	TotalFunding           string `json:"total_funding"`
	FundingRound           string `json:"funding_round"`
	HasEnterpriseCustomers *bool  `json:"has_enterprise_customers"`
	PopularityIndex        *int   `json:"popularity_index"`
	RevenueEstimate        string `json:"revenue_estimate"`
	CustomerCountEstimate  string `json:"customer_count_estimate"`
}

type breachJSON struct {
	Date        string `json:"date"`
	Description string `json:"description"`
	Source      string `json:"source"`
}

type scoresJSON struct {
	SecurityRating *int         `json:"security_rating"`
	RiskScore      *int         `json:"risk_score"`
	Grade          string       `json:"grade"`
	RiskCategories []string     `json:"risk_categories"`
	BreachHistory  []breachJSON `json:"breach_history"`
}

func fromScores(s vendors.Scores) scoresJSON {
	return scoresJSON{SecurityRating: s.SecurityRating, RiskScore: s.RiskScore, Grade: s.Grade, RiskCategories: s.RiskCategories,
		BreachHistory: convert.Slice(s.BreachHistory, func(b vendors.Breach) breachJSON { return breachJSON(b) })}
}

func (j scoresJSON) core() vendors.Scores {
	return vendors.Scores{SecurityRating: j.SecurityRating, RiskScore: j.RiskScore, Grade: j.Grade, RiskCategories: j.RiskCategories,
		BreachHistory: convert.Slice(j.BreachHistory, func(b breachJSON) vendors.Breach { return vendors.Breach(b) })}
}

type sectionStatusJSON struct {
	Status    string    `json:"status"`
	UpdatedAt time.Time `json:"updated_at"`
	Source    string    `json:"source"`
	Error     string    `json:"error,omitempty"`
}

// fromEnrichment makes the stored enrichment map; never nil, so the column
// holds {} rather than null.
func fromEnrichment(m map[vendors.Section]vendors.SectionStatus) map[string]sectionStatusJSON {
	out := make(map[string]sectionStatusJSON, len(m))
	for sec, st := range m {
		out[string(sec)] = sectionStatusJSON(st)
	}
	return out
}

func enrichmentCore(m map[string]sectionStatusJSON) map[vendors.Section]vendors.SectionStatus {
	out := make(map[vendors.Section]vendors.SectionStatus, len(m))
	for sec, st := range m {
		out[vendors.Section(sec)] = vendors.SectionStatus(st)
	}
	return out
}

type domainScoreJSON struct {
	Domain   string   `json:"domain"`
	Score    int      `json:"score"`
	Weight   float64  `json:"weight"`
	Findings []string `json:"findings"`
}

type citationJSON struct {
	URL         string    `json:"url"`
	Title       string    `json:"title"`
	RetrievedAt time.Time `json:"retrieved_at"`
}

type grcJSON struct {
	AggregateScore    int               `json:"aggregate_score"`
	Grade             string            `json:"grade"`
	DomainScores      []domainScoreJSON `json:"domain_scores"`
	IntegrationDepth  string            `json:"integration_depth"`
	Recommendation    string            `json:"recommendation"`
	EvidenceSummaries []string          `json:"evidence_summaries"`
	Citations         []citationJSON    `json:"citations"`
	AssessedAt        time.Time         `json:"assessed_at"`
}

func fromGRC(a vendors.GRCAssessment) grcJSON {
	return grcJSON{AggregateScore: a.AggregateScore, Grade: a.Grade,
		DomainScores:     convert.Slice(a.DomainScores, func(d vendors.DomainScore) domainScoreJSON { return domainScoreJSON(d) }),
		IntegrationDepth: a.IntegrationDepth, Recommendation: a.Recommendation, EvidenceSummaries: a.EvidenceSummaries,
		Citations:  convert.Slice(a.Citations, func(c vendors.Citation) citationJSON { return citationJSON(c) }),
		AssessedAt: a.AssessedAt}
}

func (j grcJSON) core() vendors.GRCAssessment {
	return vendors.GRCAssessment{AggregateScore: j.AggregateScore, Grade: j.Grade,
		DomainScores:     convert.Slice(j.DomainScores, func(d domainScoreJSON) vendors.DomainScore { return vendors.DomainScore(d) }),
		IntegrationDepth: j.IntegrationDepth, Recommendation: j.Recommendation, EvidenceSummaries: j.EvidenceSummaries,
		Citations:  convert.Slice(j.Citations, func(c citationJSON) vendors.Citation { return vendors.Citation(c) }),
		AssessedAt: j.AssessedAt}
}

// fromGRCPtr is fromGRC of an assessment that may be absent (a null column).
func fromGRCPtr(a *vendors.GRCAssessment) *grcJSON {
	if a == nil {
		return nil
	}
	j := fromGRC(*a)
	return &j
}

func (j *grcJSON) corePtr() *vendors.GRCAssessment {
	if j == nil {
		return nil
	}
	a := j.core()
	return &a
}
