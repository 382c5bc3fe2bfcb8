package incidents

import (
	"time"

	"github.com/google/uuid"
)

// Source names where an item came from.
type Source string

// The sources an item comes from.
const (
	SourceNews   Source = "news"
	SourceKEV    Source = "kev"
	SourceBreach Source = "breach"
	SourceFiling Source = "filing"
)

// NewsItem is one entry of a news feed (RSS, Atom or JSON Feed).
type NewsItem struct {
	Title     string    `json:"title"`
	Summary   string    `json:"summary"`
	URL       string    `json:"url"`
	Published time.Time `json:"published"`
}

// KEVEntry is one entry of CISA's Known Exploited Vulnerabilities catalog,
// with the catalog's field names.
type KEVEntry struct {
	CVEID                      string `json:"cveID"`
	VendorProject              string `json:"vendorProject"`
	Product                    string `json:"product"`
	VulnerabilityName          string `json:"vulnerabilityName"`
	DateAdded                  string `json:"dateAdded"`
	ShortDescription           string `json:"shortDescription"`
	KnownRansomwareCampaignUse string `json:"knownRansomwareCampaignUse"`
}

// Breach is one entry of a breach list in the shape of Have I Been Pwned's
// public breaches API.
type Breach struct {
	Name        string   `json:"Name"`
	Title       string   `json:"Title"`
	Domain      string   `json:"Domain"`
	BreachDate  string   `json:"BreachDate"`
	AddedDate   string   `json:"AddedDate"`
	PwnCount    int64    `json:"PwnCount"`
	DataClasses []string `json:"DataClasses"`
	Description string   `json:"Description"`
	IsVerified  bool     `json:"IsVerified"`
}

// Filing is one current 8-K filing: the filer and the items it reports
// ("1.05" is a material cybersecurity incident).
type Filing struct {
	FilerName string    `json:"filer_name"`
	Items     []string  `json:"items"`
	URL       string    `json:"url"`
	Filed     time.Time `json:"filed"`
}

// Candidate is a directory vendor as the matcher sees it.
type Candidate struct {
	ID            uuid.UUID
	CanonicalName string
	Aliases       []string
	LegalName     string
	// Domain is the registrable domain of the vendor's website
	// ("okta.com"), empty when unknown.
	Domain   string
	Products []string
}
