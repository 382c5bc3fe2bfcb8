package directory

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Section is a part of the enrichment pipeline.
type Section string

// The enrichment sections of the contract.
const (
	SectionBasic      Section = "basic"
	SectionAdditional Section = "additional"
	SectionMaturity   Section = "maturity"
	SectionSecurity   Section = "security"
	SectionPrivacy    Section = "privacy"
	SectionLogo       Section = "logo"
	SectionScores     Section = "scores"
)

// SectionValues lists every section in pipeline order.
func SectionValues() []string {
	return []string{"basic", "additional", "maturity", "security", "privacy", "logo", "scores"}
}

// ParseSections validates a list of section names; nil or empty means all.
func ParseSections(in []string) ([]Section, error) {
	if len(in) == 0 {
		out := make([]Section, 0, 7)
		for _, s := range SectionValues() {
			out = append(out, Section(s))
		}
		return out, nil
	}
	seen := map[Section]bool{}
	var out []Section
	for _, s := range in {
		sec := Section(strings.ToLower(strings.TrimSpace(s)))
		ok := false
		for _, v := range SectionValues() {
			if string(sec) == v {
				ok = true
			}
		}
		if !ok {
			return nil, core.Invalid("enrichmentSections", "%q is not one of %s", s, strings.Join(SectionValues(), ", "))
		}
		if !seen[sec] {
			seen[sec] = true
			out = append(out, sec)
		}
	}
	return out, nil
}

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

// Scores is the scores group. Grade follows from SecurityRating.
type Scores struct {
	SecurityRating *int     `json:"security_rating"`
	RiskScore      *int     `json:"risk_score"`
	Grade          string   `json:"grade"`
	RiskCategories []string `json:"risk_categories"`
	BreachHistory  []Breach `json:"breach_history"`
}

// Grade maps a 0-100 score to a letter: A >= 90, B >= 80, C >= 70, D >= 60, F.
func Grade(score int) string {
	switch {
	case score >= 90:
		return "A"
	case score >= 80:
		return "B"
	case score >= 70:
		return "C"
	case score >= 60:
		return "D"
	}
	return "F"
}

// SectionStatus is the enrichment state of one section.
type SectionStatus struct {
	Status    string    `json:"status"` // queued, running, done, failed, skipped
	UpdatedAt time.Time `json:"updated_at"`
	Source    string    `json:"source"`
	Error     string    `json:"error,omitempty"`
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

// Domains are the GRC and security-instance categories.
func Domains() []string {
	return []string{"application_security", "network_security", "email_security", "dns_health", "breach_history", "compliance", "privacy", "business_maturity"}
}

// Profile is the enriched, global profile of a directory entry (1:1).
type Profile struct {
	ID         uuid.UUID
	VendorID   uuid.UUID
	Company    Company
	Security   Security
	Privacy    Privacy
	Maturity   Maturity
	Scores     Scores
	Enrichment map[Section]SectionStatus
	LatestGRC  *GRCAssessment
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// NewProfile builds an empty profile for a vendor.
func NewProfile(id, vendorID uuid.UUID, now time.Time) Profile {
	return Profile{ID: id, VendorID: vendorID, Enrichment: map[Section]SectionStatus{}, CreatedAt: now.UTC(), UpdatedAt: now.UTC()}
}

// PatchableGroups are the content groups a platform admin may edit by hand.
var PatchableGroups = []string{"company", "security", "privacy", "maturity"}

// ApplyPatch applies a JSON merge patch (RFC 7396) whose top-level keys are
// content groups and whose second-level keys must be whitelisted fields of
// that group. Any other key is refused with a validation error naming it.
func (p *Profile) ApplyPatch(patch map[string]json.RawMessage, now time.Time) error {
	var errs core.Fields
	groups := map[string]any{"company": &p.Company, "security": &p.Security, "privacy": &p.Privacy, "maturity": &p.Maturity}
	keys := make([]string, 0, len(patch))
	for k := range patch {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	next := *p
	nextGroups := map[string]any{"company": &next.Company, "security": &next.Security, "privacy": &next.Privacy, "maturity": &next.Maturity}
	// A group is decoded into its zero value from the merged document, so
	// fields the patch removed (null) are really gone, and so that decoding
	// never writes through the slices and pointers next shares with p (a
	// refused patch must leave p as it was).
	reset := map[string]func(){
		"company":  func() { next.Company = Company{} },
		"security": func() { next.Security = Security{} },
		"privacy":  func() { next.Privacy = Privacy{} },
		"maturity": func() { next.Maturity = Maturity{} },
	}
	for _, g := range keys {
		target, ok := groups[g]
		if !ok {
			errs.Add(g, "is not an editable group (editable: %s)", strings.Join(PatchableGroups, ", "))
			continue
		}
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(patch[g], &fields); err != nil {
			errs.Add(g, "must be an object")
			continue
		}
		cur, _ := json.Marshal(target)
		var doc map[string]json.RawMessage
		_ = json.Unmarshal(cur, &doc)
		fk := make([]string, 0, len(fields))
		for f := range fields {
			fk = append(fk, f)
		}
		sort.Strings(fk)
		for _, f := range fk {
			if _, known := doc[f]; !known {
				errs.Add(g+"."+f, "is not an editable field")
				continue
			}
			merged, err := mergePatch(doc[f], fields[f])
			if err != nil {
				errs.Add(g+"."+f, "%v", err)
				continue
			}
			doc[f] = merged
		}
		buf, _ := json.Marshal(doc)
		reset[g]()
		dec := json.NewDecoder(strings.NewReader(string(buf)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(nextGroups[g]); err != nil {
			errs.Add(g, "has a value of the wrong type: %v", err)
		}
	}
	if err := errs.Err(); err != nil {
		return err
	}
	next.UpdatedAt = now.UTC()
	*p = next
	return nil
}

// mergePatch applies RFC 7396 to one value.
func mergePatch(target, patch json.RawMessage) (json.RawMessage, error) {
	var pobj map[string]json.RawMessage
	if err := json.Unmarshal(patch, &pobj); err != nil || pobj == nil {
		return patch, nil // not an object: replace (null included)
	}
	var tobj map[string]json.RawMessage
	if err := json.Unmarshal(target, &tobj); err != nil || tobj == nil {
		tobj = map[string]json.RawMessage{}
	}
	for k, v := range pobj {
		if string(v) == "null" {
			delete(tobj, k)
			continue
		}
		m, err := mergePatch(tobj[k], v)
		if err != nil {
			return nil, err
		}
		tobj[k] = m
	}
	return json.Marshal(tobj)
}

// Severity of a security instance or incident.
type Severity string

// SeverityValues lists severities, most severe first.
func SeverityValues() []string {
	return []string{"critical", "high", "medium", "low", "info", "positive"}
}

// IncidentSeverityValues lists the severities an incident may have, most
// severe first ("positive" is for security instances only).
func IncidentSeverityValues() []string { return SeverityValues()[:5] }

// InstanceKindValues lists the kinds of security instance.
func InstanceKindValues() []string { return []string{"finding", "signal"} }

// SecurityInstance is a finding or signal about a vendor.
type SecurityInstance struct {
	ID         uuid.UUID
	VendorID   uuid.UUID
	Kind       string // finding or signal
	Category   string
	Code       string
	Title      string
	Severity   string
	Evidence   string
	Source     string
	ObservedAt time.Time
}

// Incident is a security incident at a vendor. Backfilled incidents are
// historical and never alert.
type Incident struct {
	ID                      uuid.UUID
	VendorID                uuid.UUID
	Title                   string
	Summary                 string
	IncidentType            string
	AffectedService         string
	PotentiallyImpactedData []string
	Status                  string
	Severity                string
	URL                     string
	Source                  string
	ExternalID              string
	PublishedAt             time.Time
	Backfilled              bool
	CreatedAt               time.Time
}

// NewIncident validates an incident.
func NewIncident(in Incident) (Incident, error) {
	var errs core.Fields
	title, err := core.PlainText("title", in.Title, 500)
	switch {
	case err != nil:
		errs.AddErr(err)
	case title == "":
		errs.Add("title", "must not be empty")
	}
	in.Title = title
	if in.Severity == "" {
		in.Severity = "medium"
	}
	if !slices.Contains(IncidentSeverityValues(), in.Severity) {
		errs.Add("severity", "must be one of %s", strings.Join(IncidentSeverityValues(), ", "))
	}
	if in.Status == "" {
		in.Status = "open"
	}
	if in.Source == "" {
		in.Source = "manual"
	}
	if in.PotentiallyImpactedData == nil {
		in.PotentiallyImpactedData = []string{}
	}
	if in.ExternalID == "" {
		in.ExternalID = in.ID.String()
	}
	return in, errs.Err()
}

// EnrichmentStatus summarises per-section enrichment states for a list
// entry: "" when there is no profile or no section state, else the most
// pressing state present (running, queued, failed), else "done". Every
// store reports list entries through this one rule.
func EnrichmentStatus(hasProfile bool, secs map[Section]SectionStatus) string {
	statuses := make([]string, 0, len(secs))
	for _, s := range secs {
		statuses = append(statuses, s.Status)
	}
	return EnrichmentStatusOf(hasProfile, statuses)
}

// EnrichmentStatusOf is EnrichmentStatus given only the states of the
// profile's sections (any order, repeats allowed), as a store can read them
// without decoding each section's record.
func EnrichmentStatusOf(hasProfile bool, statuses []string) string {
	if !hasProfile || len(statuses) == 0 {
		return ""
	}
	for _, s := range []string{"running", "queued", "failed"} {
		if slices.Contains(statuses, s) {
			return s
		}
	}
	return "done"
}
