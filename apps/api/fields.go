package api

import (
	"maps"
	"regexp"
	"strings"

	"github.com/vetted-dev/vetted/core/lists"
)

// wireNames is the one table from the Go-side paths the core names its
// error fields by (core.Error.Field, see core/errors.go) to the names the
// request spells them by. "[]" stands for any index: "Users[].Email" maps
// "Users[2].Email" to "users[2].email", the indices kept in order. Where
// the name sits in the request (query, path, header or body) is read from
// the operation (location), so a name serves every operation that has it.
var wireNames = withAssessmentColumns(map[string]string{
	// References parsed at the edge (core/accounts, core/lists, core/assessments, core/vendors).
	"AccountRef":                "account-id",
	"ListRef":                   "vendor-list-id",
	"ListRef.ID":                "vendor-list-id",
	"ListRef.Name":              "vendor-list",
	"AssessmentID":              "assessment-id",
	"DocumentID":                "document-id",
	"VendorRef":                 "id_or_name",
	"VendorSel":                 "vendor_id",
	"VendorSel.VendorID":        "vendor_id",
	"VendorSel.VendorProfileID": "vendor_profile_id",

	// Accounts and members (core/accounts).
	"Account.Name":  "account",
	"Identity.Name": "name",
	"AccountIDs":    "account_id",
	"Users":         "users",
	"Users[]":       "users[]",
	"Users[].Email": "users[].email",
	"Users[].Role":  "users[].role",
	"Email":         "email",
	"Role":          "role",
	"Reason":        "reason",

	// Lists, save-vendors and CSV import (core/lists, core/assessments).
	"List.Name":                  "vendor-list",
	"Product.Name":               "product_name",
	"Vendors":                    "vendors",
	"Vendors[]":                  "vendors[]",
	"Vendors[].VendorName":       "vendors[].vendor_name",
	"Vendors[].WebsiteURL":       "vendors[].website_url",
	"VendorName":                 "vendor_name",
	"WebsiteURL":                 "website_url",
	"CSV":                        "csv",
	"RowOffset":                  "row_offset",
	"RowLimit":                   "row_limit",
	"ListQuery.Sort":             "sort",
	"ListQuery.ReviewStates":     "review-state",
	"ListQuery.EnrichmentStates": "enrichment-state",
	"ListQuery.Alerts":           "alerts",
	"ListQuery.Limit":            "limit",
	"ListQuery.Cursor":           "cursor",
	"RatingQuery.Limit":          "limit",
	"DeliveryQuery.Offset":       "offset",
	"CreateInput.URL":            "url",
	"CreateInput.Events":         "events",
	"CreateInput.Description":    "description",
	"DeliveryQuery.Limit":        "limit",
	"RatingQuery.Cursor":         "cursor",

	// Vendor records (core/records): the record's own fields come from
	// its merge patch ("Patch." ...); a note's text is the note's.
	"Note.Text": "text",

	// Contracts (core/contracts).
	"Contract":                  "body",
	"Contract.VendorID":         "vendor_id",
	"Contract.Reference":        "reference",
	"Contract.StartDate":        "start_date",
	"Contract.EndDate":          "end_date",
	"Contract.NoticePeriodDays": "notice_period_days",
	"Contract.AnnualValue":      "annual_value",
	"Contract.Currency":         "currency",
	"Contract.GoverningLaw":     "governing_law",
	"Contract.Services":         "services",
	"Contract.Services[].Name":  "services[].name",
	"Contract.Services[].Type":  "services[].type",
	"Contract.LEI":              "lei",

	// Subscribers (core/alerts).
	"Emails":   "subscriber-email",
	"Emails[]": "subscriber-email[]",

	// Assessments, the review policy, documents (core/assessments). The
	// fields of an assessment that a CSV import also reads are added by
	// withAssessmentColumns; these are the others.
	"Input.ComplianceContact":     "compliance_contact",
	"Input.SubmissionDate":        "submission_date",
	"Input.ApprovalDate":          "approval_date",
	"Input.ConditionDueAt":        "condition_due_at",
	"PolicyInput.Critical":        "cadence_months.critical",
	"PolicyInput.High":            "cadence_months.high",
	"PolicyInput.Medium":          "cadence_months.medium",
	"PolicyInput.Low":             "cadence_months.low",
	"PolicyInput.NotTiered":       "cadence_months.not_tiered",
	"PolicyInput.ReminderOffsets": "reminder_offsets_days",
	"ReviewStates":                "review-state",
	"Sort":                        "sort",
	"Page":                        "page",
	"Limit":                       "limit",
	"FileName":                    "file-name",
	"ContentType":                 "content-type",
	"Size":                        "file",

	// The directory (core/vendors).
	"Sections":          "enrichmentSections",
	"Incident.Title":    "title",
	"Incident.Severity": "severity",
	"Code":              "code",
	"Evidence":          "evidence",

	// Attestations (core/attestations).
	"AttestationID":                       "attestation-id",
	"VendorID":                            "vendor-id",
	"Attestation.Kind":                    "kind",
	"Attestation.ContentType":             "content_type",
	"Attestation.ReportType":              "report_type",
	"Attestation.PeriodStart":             "period_start",
	"Attestation.PeriodEnd":               "period_end",
	"Attestation.Auditor":                 "auditor",
	"Attestation.Opinion":                 "opinion",
	"Attestation.Exceptions":              "exceptions",
	"Attestation.SubserviceOrganizations": "subservice_organizations",
	"Attestation.CUECs":                   "cuecs",
	"Attestation.CertificateNumber":       "certificate_number",
	"Attestation.Issuer":                  "issuer",
	"Attestation.Scope":                   "scope",
	"Attestation.ValidUntil":              "valid_until",
	"Attestation.PerformedOn":             "performed_on",
	"Attestation.Firm":                    "firm",
	"Attestation.OpenCritical":            "open_critical",
	"Attestation.OpenHigh":                "open_high",

	// Incidents of platform-wide sources (core/incidents).
	"Source":   "source",
	"Severity": "severity",
	"Status":   "status",
})

// withAssessmentColumns adds to names the fields of an assessment's input
// that a CSV import reads, under their column's name: the contract spells
// each of these fields one way in the JSON body and in the CSV file (the
// register export writes the same names), so the spelling is declared once,
// by the CSV format (vendorlist).
func withAssessmentColumns(names map[string]string) map[string]string {
	maps.Copy(names, lists.AssessmentInputColumns())
	return names
}

// patchPrefix heads the fields of a PATCH /vendor merge patch: the patch is
// a document the core reads, so the rest of the path is the client's own.
const patchPrefix = "Patch."

var index = regexp.MustCompile(`\[[0-9]+\]`)

// wireName returns the request's name for a field of a core error. A field
// that is not a Go-side path (it starts in lower case: the API's own
// errors and the adapters' name the request or their input directly) is
// returned as it is; so is a Go-side path missing from the table, which
// TestWireNamesCoverTheCore makes a test failure rather than a surprise.
func wireName(field string) string {
	if rest, ok := strings.CutPrefix(field, patchPrefix); ok {
		return rest
	}
	if field == "" || field[0] < 'A' || field[0] > 'Z' {
		return field
	}
	idx := index.FindAllString(field, -1)
	wire, ok := wireNames[index.ReplaceAllString(field, "[]")]
	if !ok {
		return field
	}
	for _, i := range idx {
		wire = strings.Replace(wire, "[]", i, 1)
	}
	return wire
}
