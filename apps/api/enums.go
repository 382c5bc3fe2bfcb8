package api

import (
	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/vendors"
)

// The enumerations of the API. Each is a named string type whose schema is
// one shared component built from the core's own value list, so the rule
// and the document cannot drift apart, and generated clients get one enum
// type per concept.

// Role is an organization role.
type Role string

// Schema is the Role component.
func (Role) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "Role", "Organization role, lowest to highest: viewer, member, admin, owner", accounts.RoleValues())
}

// ApprovalStatus is an assessment's compliance_approval_status.
type ApprovalStatus string

// Schema is the ApprovalStatus component.
func (ApprovalStatus) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "ApprovalStatus", "Compliance approval status of an assessment", assessments.StatusValues())
}

// DocumentStatus is the state of an evidence document.
type DocumentStatus string

// Schema is the DocumentStatus component.
func (DocumentStatus) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "DocumentStatus", "pending until the file has been uploaded", assessments.DocumentStatusValues())
}

// SubscriberStatus is the per-list verification state of a subscriber.
type SubscriberStatus string

// Schema is the SubscriberStatus component.
func (SubscriberStatus) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "SubscriberStatus", "pending until the address confirms (members with a verified e-mail are confirmed at once)", alerts.SubscriberStatusValues())
}

// JobStatus is the state of one job of a run, or of one profile section.
type JobStatus string

// Schema is the JobStatus component.
func (JobStatus) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "JobStatus", "State of one job of a run, or of one enrichment section", vendors.RunJobStatusValues())
}

// RunStatus is the state of a run as a whole.
type RunStatus string

// Schema is the RunStatus component.
func (RunStatus) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "RunStatus", "State of a run as a whole", vendors.RunStatusValues())
}

// RunKind is what a run does.
type RunKind string

// Schema is the RunKind component.
func (RunKind) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "RunKind", "What a run does", vendors.RunKindValues())
}

// Section is an enrichment section.
type Section string

// Schema is the Section component.
func (Section) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "Section", "A part of the enrichment pipeline", vendors.SectionValues())
}

// Severity is the severity of a security instance.
type Severity string

// Schema is the Severity component.
func (Severity) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "Severity", "Severity of a security instance, most severe first; positive marks a good practice", vendors.SeverityValues())
}

// IncidentSeverity is the severity of an incident.
type IncidentSeverity string

// Schema is the IncidentSeverity component.
func (IncidentSeverity) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "IncidentSeverity", "Severity of an incident, most severe first", vendors.IncidentSeverityValues())
}

// InstanceKind is the kind of a security instance.
type InstanceKind string

// Schema is the InstanceKind component.
func (InstanceKind) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "InstanceKind", "finding: something to fix; signal: an observation", vendors.InstanceKindValues())
}

// The operations of POST /vendor-lists (without one, it creates a list).
const (
	opSaveVendors   = "save-vendors"
	opImportCSV     = "import-csv"
	opAddVendors    = "add-vendors"
	opRemoveVendors = "remove-vendors"
	opAlerts        = "alerts-enabled"
)

// ListOperation names what POST /vendor-lists does.
type ListOperation string

// Schema is the ListOperation component.
func (ListOperation) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "ListOperation", "save-vendors replaces a list's vendors; add-vendors adds vendors and remove-vendors takes vendors off, leaving the others; import-csv merges a CSV batch",
		[]string{opSaveVendors, opAddVendors, opRemoveVendors, opImportCSV})
}

// AlertsOperation names what PATCH /vendor-lists does.
type AlertsOperation string

// Schema is the AlertsOperation component.
func (AlertsOperation) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "AlertsOperation", "alerts-enabled turns a vendor's incident alerts on or off", []string{opAlerts})
}

// enum registers a string enumeration as a named component once and
// returns a reference to it.
func enum(r huma.Registry, name, doc string, values []string) *huma.Schema {
	if _, ok := r.Map()[name]; !ok {
		vs := make([]any, len(values))
		for i, v := range values {
			vs[i] = v
		}
		s := &huma.Schema{Type: huma.TypeString, Description: doc, Enum: vs}
		s.PrecomputeMessages() // huma's validation messages ("expected value to be one of ...")
		r.Map()[name] = s
	}
	return &huma.Schema{Ref: "#/components/schemas/" + name}
}

// SectionState is the state of one profile section: a job's states, and
// needs_website for the web sections of a vendor whose website discovery
// found no site.
type SectionState string

// Schema is the SectionState component.
func (SectionState) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "SectionState", "State of one enrichment section: a job's states, or needs_website when no website is known or found",
		vendors.SectionStatusValues())
}

// WebsiteSource is where a vendor's website came from.
type WebsiteSource string

// Schema is the WebsiteSource component.
func (WebsiteSource) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "WebsiteSource", "given: a user or admin gave it (never replaced); discovered: website discovery chose it from the name",
		vendors.WebsiteSourceValues())
}

// RatingChangeKind is a change of a vendor's rating that matters.
type RatingChangeKind string

// Schema is the RatingChangeKind component.
func (RatingChangeKind) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "RatingChangeKind", "grade_drop: a letter or more; new_finding: a critical or high finding; certificate_expiring: within 14 days",
		vendors.RatingChangeKindValues())
}
