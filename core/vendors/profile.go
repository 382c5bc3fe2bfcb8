package vendors

import (
	"slices"
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
			return nil, core.Invalid("Sections", "%q is not one of %s", s, strings.Join(SectionValues(), ", "))
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
	CompanyDescription   string
	BusinessType         string
	FoundedYear          *int
	EmployeeCount        *int
	Industry             string
	PrimaryProduct       string
	HeadquartersLocation string
	WebsiteURL           string
	Alias                []string
	// LegalName is the registered name of the company ("Okta, Inc."),
	// from the site's JSON-LD legalName or its certificate's organization;
	// the incident matcher compares filers and KEV vendors to it.
	LegalName    string
	ContactEmail string
	TosURL       string
	Logo         string
}

// ExternalSignals are passively observed security signals.
type ExternalSignals struct {
	TLS             *bool
	TLSExpiresAt    string
	HSTS            *bool
	SecurityHeaders *bool
	SPF             *bool
	DMARC           *bool
	DNSSEC          *bool
	CAA             *bool
	MTASTS          *bool
	SecurityTxt     *bool
}

// Security is the security-posture group.
type Security struct {
	ComplianceCertifications []string
	PublishedSubprocessors   []string
	SecurityPageURL          string
	TrustCenterURL           string
	StatusPageURL            string
	ExternalSignals          ExternalSignals
}

// Privacy is the privacy group.
type Privacy struct {
	PrivacyPolicyURL             string
	DataCollected                []string
	SharedDataDescription        string
	MLTrainingDataDescription    string
	SupportsDataSubjectRequests  *bool
	GDPRCompliant                *bool
	DataReturnedAfterTermination *bool
	DataPhysicalLocation         string
}

// Maturity is the business-maturity group.
type Maturity struct {
	CompanyType            string
	TotalFunding           string
	FundingRound           string
	HasEnterpriseCustomers *bool
	PopularityIndex        *int
	RevenueEstimate        string
	CustomerCountEstimate  string
}

// Breach is one known breach.
type Breach struct {
	Date        string
	Description string
	Source      string
}

// Scores is the scores group. Grade follows from SecurityRating.
type Scores struct {
	SecurityRating *int
	RiskScore      *int
	Grade          string
	RiskCategories []string
	BreachHistory  []Breach
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
	Status    string // queued, running, done, failed, skipped
	UpdatedAt time.Time
	Source    string
	Error     string
}

// DomainScore is one domain of a GRC assessment.
type DomainScore struct {
	Domain   string
	Score    int
	Weight   float64
	Findings []string
}

// Citation is a source a GRC assessment relied on.
type Citation struct {
	URL         string
	Title       string
	RetrievedAt time.Time
}

// GRCAssessment is the latest risk assessment of a profile.
type GRCAssessment struct {
	AggregateScore    int
	Grade             string
	DomainScores      []DomainScore
	IntegrationDepth  string
	Recommendation    string
	EvidenceSummaries []string
	Citations         []Citation
	AssessedAt        time.Time
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
	// WebsiteSource says where Company.WebsiteURL came from ("" when the
	// vendor has no website yet); Discovery is the evidence of the last
	// website discovery, nil when none ran.
	WebsiteSource WebsiteSource
	Discovery     *WebsiteDiscovery
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// NewProfile builds an empty profile for a vendor.
func NewProfile(id, vendorID uuid.UUID, now time.Time) Profile {
	return Profile{ID: id, VendorID: vendorID, Enrichment: map[Section]SectionStatus{}, CreatedAt: now.UTC(), UpdatedAt: now.UTC()}
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
	// Match is the evidence that tied an item of a platform-wide source
	// (news, KEV, breach list, filing) to the vendor; nil for status-page,
	// feed and manual incidents.
	Match *IncidentMatch
	// Sources lists every item merged into the incident, first seen first;
	// an incident of one item has one entry (NewIncident makes it from
	// Source, URL and PublishedAt).
	Sources []IncidentItem
	// Keys are what merges items into the incident (core/incidents: the
	// url:, cve: and title: keys of its items) and the source: key of each
	// item's source. The store indexes them per vendor; they are not on
	// the wire.
	Keys []string
}

// IncidentMatch is the evidence of a match: the rule, the text it matched
// and its confidence in [0,1].
type IncidentMatch struct {
	Rule        string
	MatchedText string
	Confidence  float64
}

// IncidentItem is one item merged into an incident: its source, link and
// publication time.
type IncidentItem struct {
	Source      string
	URL         string
	PublishedAt time.Time
}

// NewIncident validates an incident.
func NewIncident(in Incident) (Incident, error) {
	var errs core.Fields
	title, err := core.PlainText("Incident.Title", in.Title, 500)
	switch {
	case err != nil:
		errs.AddErr(err)
	case title == "":
		errs.Add("Incident.Title", "must not be empty")
	}
	in.Title = title
	if in.Severity == "" {
		in.Severity = "medium"
	}
	if !slices.Contains(IncidentSeverityValues(), in.Severity) {
		errs.Add("Incident.Severity", "must be one of %s", strings.Join(IncidentSeverityValues(), ", "))
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
	if len(in.Sources) == 0 {
		in.Sources = []IncidentItem{{Source: in.Source, URL: in.URL, PublishedAt: in.PublishedAt}}
	}
	if in.Keys == nil {
		in.Keys = []string{}
	}
	in.PublishedAt, in.CreatedAt = in.PublishedAt.UTC(), in.CreatedAt.UTC()
	for i := range in.Sources {
		in.Sources[i].PublishedAt = in.Sources[i].PublishedAt.UTC()
	}
	return in, errs.Err()
}

// IncidentFromStore rebuilds an incident a store read from its stored
// fields, in. Nothing is validated or defaulted again (it was when the
// incident was made, and a row written under older rules must still read),
// but no impacted data is an empty list, as NewIncident makes it, and its
// times are in UTC.
func IncidentFromStore(in Incident) Incident {
	if in.PotentiallyImpactedData == nil {
		in.PotentiallyImpactedData = []string{}
	}
	if len(in.Sources) == 0 { // a row written before incidents had sources
		in.Sources = []IncidentItem{{Source: in.Source, URL: in.URL, PublishedAt: in.PublishedAt}}
	}
	if in.Keys == nil {
		in.Keys = []string{}
	}
	in.PublishedAt, in.CreatedAt = in.PublishedAt.UTC(), in.CreatedAt.UTC()
	for i := range in.Sources {
		in.Sources[i].PublishedAt = in.Sources[i].PublishedAt.UTC()
	}
	return in
}

// EnrichmentStatus summarises per-section enrichment states for a list
// entry: "" when there is no profile or no section state, else the most
// pressing state present (running, queued, needs_website, failed), else
// "done". Every store reports list entries through this one rule.
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
	// needs_website comes before failed: the web sections of a vendor
	// whose website could not be found are not failures of the pipeline
	// but wait for a person to give the website.
	for _, s := range []string{"running", "queued", StatusNeedsWebsite, "failed"} {
		if slices.Contains(statuses, s) {
			return s
		}
	}
	return "done"
}
