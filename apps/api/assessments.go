package api

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
)

// AssessmentJSON is an organization's review record of a vendor on a list.
type AssessmentJSON struct {
	ID                           string         `json:"id" format:"uuid"`
	AccountID                    string         `json:"account_id" format:"uuid"`
	VendorListID                 string         `json:"vendor_list_id" format:"uuid"`
	VendorID                     string         `json:"vendor_id" format:"uuid"`
	VendorProfileID              *string        `json:"vendor_profile_id" format:"uuid" doc:"null for a custom vendor"`
	VendorName                   string         `json:"vendor_name"`
	ComplianceApprovalStatus     ApprovalStatus `json:"compliance_approval_status"`
	ConditionalApprovalCondition string         `json:"conditional_approval_condition"`
	SponsorBusinessDepartment    string         `json:"sponsor_business_department"`
	SponsorContact               string         `json:"sponsor_contact"`
	UseCase                      string         `json:"use_case"`
	DataCollected                []string       `json:"data_collected"`
	ComplianceComment            string         `json:"compliance_comment"`
	ComplianceContact            string         `json:"compliance_contact" doc:"Who handles the review at compliance (kept for the original web client)"`
	SubmissionDate               *string        `json:"submission_date" format:"date" doc:"When the review was submitted; null when unset"`
	ApprovalDate                 *string        `json:"approval_date" format:"date" doc:"When it was approved; null when unset"`
	Tier                         Tier           `json:"tier"`
	ConditionDueAt               *time.Time     `json:"condition_due_at" doc:"When the condition of a conditional approval must be met; null when unset"`
	LastReviewedAt               *time.Time     `json:"last_reviewed_at" doc:"When the status last became approved, conditional approval or rejected; null: never"`
	NextReviewAt                 *time.Time     `json:"next_review_at" doc:"last_reviewed_at plus the tier's cadence (for a conditional approval, condition_due_at if earlier); null: never reviewed"`
	ReviewState                  ReviewState    `json:"review_state"`
	CreatedAt                    time.Time      `json:"created_at"`
	CreatedBy                    string         `json:"created_by"`
	UpdatedAt                    time.Time      `json:"updated_at"`
	UpdatedBy                    string         `json:"updated_by"`
}

// AuditChangeJSON is one field changed by a save.
type AuditChangeJSON struct {
	Field    string `json:"field"`
	OldValue string `json:"old_value"`
	NewValue string `json:"new_value"`
}

// AuditEventJSON is one save that changed fields.
type AuditEventJSON struct {
	EventID     string            `json:"event_id" format:"uuid"`
	CreatedAt   time.Time         `json:"created_at"`
	SubmittedBy string            `json:"submitted_by"`
	Changes     []AuditChangeJSON `json:"changes"`
}

// AuditLogJSON is one field change with its event, the flattened form kept
// for compatibility.
type AuditLogJSON struct {
	EventID     string    `json:"event_id" format:"uuid"`
	CreatedAt   time.Time `json:"created_at"`
	SubmittedBy string    `json:"submitted_by"`
	Field       string    `json:"field"`
	OldValue    string    `json:"old_value"`
	NewValue    string    `json:"new_value"`
}

func assessmentJSON(a assessments.Assessment) AssessmentJSON {
	var profileID *string
	if a.VendorProfileID != nil {
		id := a.VendorProfileID.String()
		profileID = &id
	}
	return AssessmentJSON{ID: a.ID.String(), AccountID: a.AccountID.String(), VendorListID: a.ListID.String(),
		VendorID: a.VendorID.String(), VendorProfileID: profileID, VendorName: a.VendorName,
		ComplianceApprovalStatus: ApprovalStatus(a.Status.String()), ConditionalApprovalCondition: a.ConditionalApprovalCondition,
		SponsorBusinessDepartment: a.SponsorBusinessDepartment, SponsorContact: a.SponsorContact, UseCase: a.UseCase,
		DataCollected: nonNil(a.DataCollected), ComplianceComment: a.ComplianceComment, ComplianceContact: a.ComplianceContact,
		SubmissionDate: optional(a.SubmissionDate), ApprovalDate: optional(a.ApprovalDate),
		Tier: Tier(a.Tier), ConditionDueAt: optionalTime(a.ConditionDueAt), LastReviewedAt: optionalTime(a.LastReviewedAt),
		NextReviewAt: optionalTime(a.Due.NextReviewAt), ReviewState: ReviewState(a.Due.State),
		CreatedAt: a.CreatedAt, CreatedBy: a.CreatedBy, UpdatedAt: a.UpdatedAt, UpdatedBy: a.UpdatedBy}
}

// optional answers an empty value as null.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// firstNonEmpty returns the first argument that is not blank.
func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

type assessmentsGetIn struct {
	AccountParam
	ListParams
	VendorID        string `query:"vendor-id" doc:"Only this vendor"`
	VendorProfileID string `query:"vendor-profile-id" doc:"Only the vendor with this profile"`
	AssessmentID    string `query:"assessment-id" doc:"Only this assessment"`
	ReviewState     string `query:"review-state" doc:"Only assessments in this review state: never_reviewed, current, due_soon or overdue (several: comma-separated)"`
	Sort            string `query:"sort" enum:"-updated_at,next_review_at,-next_review_at" doc:"Order: newest update first (default), or by next_review_at (never reviewed last)"`
}

type assessmentsOut struct {
	Body struct {
		Assessments []AssessmentJSON `json:"assessments"`
	}
}

// assessmentBody is the spec 2.6 body. Every field is optional: an omitted
// field keeps its stored value.
type assessmentBody struct {
	VendorID                     string          `json:"vendor_id,omitempty" doc:"One of vendor_id, vendor_profile_id, vendor_name names the vendor (here or in the query)"`
	VendorProfileID              string          `json:"vendor_profile_id,omitempty"`
	VendorName                   string          `json:"vendor_name,omitempty" maxLength:"200"`
	ComplianceApprovalStatus     *ApprovalStatus `json:"compliance_approval_status,omitempty" doc:"Default not-started"`
	ConditionalApprovalCondition *string         `json:"conditional_approval_condition,omitempty" doc:"Required with conditional approval"`
	SponsorBusinessDepartment    *string         `json:"sponsor_business_department,omitempty"`
	SponsorContact               *string         `json:"sponsor_contact,omitempty" doc:"E-mail address"`
	UseCase                      *string         `json:"use_case,omitempty"`
	DataCollected                []string        `json:"data_collected,omitempty" limit:"data-collected" doc:"Replaces the stored list; omitted keeps it"`
	ComplianceComment            *string         `json:"compliance_comment,omitempty"`
	ComplianceContact            *string         `json:"compliance_contact,omitempty" doc:"Who handles the review at compliance"`
	SubmissionDate               *string         `json:"submission_date,omitempty" doc:"A date (2006-01-02) or an RFC 3339 date-time; empty clears it"`
	ApprovalDate                 *string         `json:"approval_date,omitempty" doc:"A date (2006-01-02) or an RFC 3339 date-time; empty clears it"`
	Tier                         *Tier           `json:"tier,omitempty" doc:"How critical the vendor is; sets the review cadence. Empty: not tiered"`
	ConditionDueAt               *string         `json:"condition_due_at,omitempty" doc:"When the condition of a conditional approval must be met: a date (midnight UTC) or an RFC 3339 date-time; empty clears it"`
	AssessmentReadOnly
}

// AssessmentReadOnly are the fields of AssessmentJSON the service sets: an
// upsert takes them, so that an assessment as a read answered it goes back
// as it is, and ignores them (TestPutAcceptsItsGet). The vendor is named by
// vendor_id, vendor_profile_id or vendor_name, the list by the query.
type AssessmentReadOnly struct {
	ID             string     `json:"id,omitempty" format:"uuid" readOnly:"true" doc:"Ignored: the vendor and the list name the assessment"`
	AccountID      string     `json:"account_id,omitempty" format:"uuid" readOnly:"true" doc:"Ignored: the account is account-id"`
	VendorListID   string     `json:"vendor_list_id,omitempty" format:"uuid" readOnly:"true" doc:"Ignored: the list is vendor-list-id or vendor-list"`
	LastReviewedAt *time.Time `json:"last_reviewed_at,omitempty" readOnly:"true" doc:"Ignored"`
	NextReviewAt   *time.Time `json:"next_review_at,omitempty" readOnly:"true" doc:"Ignored"`
	ReviewState    string     `json:"review_state,omitempty" readOnly:"true" doc:"Ignored"`
	CreatedAt      *time.Time `json:"created_at,omitempty" readOnly:"true" doc:"Ignored"`
	CreatedBy      string     `json:"created_by,omitempty" readOnly:"true" doc:"Ignored"`
	UpdatedAt      *time.Time `json:"updated_at,omitempty" readOnly:"true" doc:"Ignored"`
	UpdatedBy      string     `json:"updated_by,omitempty" readOnly:"true" doc:"Ignored"`
}

type assessmentUpsertIn struct {
	AccountParam
	ListParams
	VendorID        string `query:"vendor_id" doc:"The vendor's id (or give vendor_id, vendor_profile_id or vendor_name in the body)"`
	VendorProfileID string `query:"vendor_profile_id" doc:"The vendor's profile id"`
	VendorName      string `query:"vendor_name" doc:"The vendor's name"`
	LegacyVendorQuery
	Body *assessmentBody `required:"false"`
}

type assessmentUpsertOut struct {
	Status int
	Body   AssessmentJSON
}

type assessmentDeleteIn struct {
	AccountParam
	AssessmentID    string `query:"assessment-id" doc:"The assessment (preferred)"`
	VendorID        string `query:"vendor-id" doc:"Or the vendor's assessment"`
	VendorProfileID string `query:"vendor-profile-id" doc:"Or the assessment of the vendor with this profile"`
	ListParams
}

type assessmentDeleteOut struct {
	Body struct {
		Deleted AssessmentJSON `json:"deleted"`
	}
}

type auditLogIn struct {
	AccountParam
	AssessmentParam
	Page  int `query:"page" default:"1" minimum:"1" doc:"Page number from 1"`
	Limit int `query:"limit" default:"20" minimum:"1" limit:"audit-page" doc:"Events per page"`
}

type auditLogOut struct {
	Body struct {
		AssessmentID string           `json:"assessment_id" format:"uuid"`
		Page         int              `json:"page"`
		Limit        int              `json:"limit"`
		TotalEvents  int              `json:"total_events"`
		Events       []AuditEventJSON `json:"events"`
		Logs         []AuditLogJSON   `json:"logs"`
	}
}

// assessmentsHandler answers the operations of the assessments area of
// the core: assessments and their audit log (here), review policy
// (reviews.go), the review calendar (calendar.go), the register export
// (export.go), evidence documents (documents.go) and the dashboard
// (dashboard.go).
type assessmentsHandler struct{ *Server }

// upsertAssessment answers post-assessment and put-assessment: 201 when
// the assessment is created, 200 when it is updated.
func (h assessmentsHandler) upsertAssessment(ctx context.Context, in *assessmentUpsertIn) (*assessmentUpsertOut, error) {
	b := in.Body
	if b == nil {
		b = &assessmentBody{}
	}
	input := assessments.Input{ConditionalApprovalCondition: b.ConditionalApprovalCondition,
		SponsorBusinessDepartment: b.SponsorBusinessDepartment, SponsorContact: b.SponsorContact, UseCase: b.UseCase,
		DataCollected: b.DataCollected, ComplianceComment: b.ComplianceComment, ComplianceContact: b.ComplianceContact,
		SubmissionDate: b.SubmissionDate, ApprovalDate: b.ApprovalDate, ConditionDueAt: b.ConditionDueAt}
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	sel, err := assessments.ParseVendorSel(firstNonEmpty(in.VendorID, in.vendorID, b.VendorID),
		firstNonEmpty(in.VendorProfileID, in.vendorProfileID, b.VendorProfileID), firstNonEmpty(in.VendorName, in.vendorName, b.VendorName))
	if err != nil {
		return nil, err
	}
	// The status and the tier are typed here, once; the core never parses them again.
	var typed core.Fields
	if b.ComplianceApprovalStatus != nil {
		st, err := assessments.ParseStatus(string(*b.ComplianceApprovalStatus))
		typed.AddErr(err)
		input.Status = &st
	}
	if b.Tier != nil {
		t, err := assessments.ParseTier(string(*b.Tier))
		typed.AddErr(err)
		input.Tier = &t
	}
	if err := typed.Err(); err != nil {
		return nil, err
	}
	a, created, err := h.assessments.UpsertAssessment(ctx, actor(ctx), acc, lr, sel, input)
	if err != nil {
		return nil, err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return &assessmentUpsertOut{Status: status, Body: assessmentJSON(a)}, nil
}

// listAssessments answers list-assessments.
func (h assessmentsHandler) listAssessments(ctx context.Context, in *assessmentsGetIn) (*assessmentsOut, error) {
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	q := assessments.AssessmentQuery{ReviewStates: []string{in.ReviewState}, Sort: in.Sort}
	for _, id := range []struct {
		field, raw string
		dst        **uuid.UUID
	}{{"vendor-id", in.VendorID, &q.VendorID}, {"vendor-profile-id", in.VendorProfileID, &q.VendorProfileID}, {"assessment-id", in.AssessmentID, &q.AssessmentID}} {
		if *id.dst, err = optionalID(id.field, id.raw); err != nil {
			return nil, err
		}
	}
	as, err := h.assessments.Assessments(ctx, actor(ctx), acc, lr, q)
	if err != nil {
		return nil, err
	}
	out := &assessmentsOut{}
	out.Body.Assessments = make([]AssessmentJSON, 0, len(as))
	for _, a := range as {
		out.Body.Assessments = append(out.Body.Assessments, assessmentJSON(a))
	}
	return out, nil
}

// deleteAssessment answers delete-assessment.
func (h assessmentsHandler) deleteAssessment(ctx context.Context, in *assessmentDeleteIn) (*assessmentDeleteOut, error) {
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	// assessment-id wins; only without it is the vendor read.
	var (
		id  uuid.UUID
		sel assessments.VendorSel
	)
	if strings.TrimSpace(in.AssessmentID) != "" {
		id, err = assessments.ParseAssessmentID(in.AssessmentID)
	} else {
		sel, err = assessments.ParseVendorSel(in.VendorID, in.VendorProfileID, "")
	}
	if err != nil {
		return nil, err
	}
	a, err := h.assessments.DeleteAssessment(ctx, actor(ctx), acc, lr, id, sel)
	if err != nil {
		return nil, err
	}
	out := &assessmentDeleteOut{}
	out.Body.Deleted = assessmentJSON(a)
	return out, nil
}

// auditLog answers get-assessment-audit-log.
func (h assessmentsHandler) auditLog(ctx context.Context, in *auditLogIn) (*auditLogOut, error) {
	acc, aid, err := accountAnd(in.AccountParam, in.assessmentID)
	if err != nil {
		return nil, err
	}
	p, err := h.assessments.AuditLog(ctx, actor(ctx), acc, aid, in.Page, in.Limit)
	if err != nil {
		return nil, err
	}
	out := &auditLogOut{}
	out.Body.AssessmentID = strings.TrimSpace(in.AssessmentID)
	if id, perr := uuid.Parse(out.Body.AssessmentID); perr == nil {
		out.Body.AssessmentID = id.String() // canonical form
	}
	out.Body.Page, out.Body.Limit, out.Body.TotalEvents = p.Page, p.Limit, p.Total
	out.Body.Events = make([]AuditEventJSON, 0, len(p.Events))
	out.Body.Logs = []AuditLogJSON{}
	for _, e := range p.Events {
		ev := AuditEventJSON{EventID: e.ID.String(), CreatedAt: e.CreatedAt, SubmittedBy: e.SubmittedBy, Changes: make([]AuditChangeJSON, 0, len(e.Changes))}
		for _, c := range e.Changes {
			ev.Changes = append(ev.Changes, AuditChangeJSON{Field: c.Field, OldValue: c.OldValue, NewValue: c.NewValue})
			out.Body.Logs = append(out.Body.Logs, AuditLogJSON{EventID: ev.EventID, CreatedAt: e.CreatedAt, SubmittedBy: e.SubmittedBy,
				Field: c.Field, OldValue: c.OldValue, NewValue: c.NewValue})
		}
		out.Body.Events = append(out.Body.Events, ev)
	}
	return out, nil
}
