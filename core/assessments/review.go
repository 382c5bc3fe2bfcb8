package assessments

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
)

// Status is compliance_approval_status. Any status may follow any other.
type Status string

// The six statuses of the contract.
const (
	NotStarted          Status = "not-started"
	InProgress          Status = "in-progress"
	OnHold              Status = "on-hold"
	Approved            Status = "approved"
	ConditionalApproval Status = "conditional approval"
	Rejected            Status = "rejected"
)

// StatusValues lists the statuses.
func StatusValues() []string {
	return []string{"not-started", "in-progress", "on-hold", "approved", "conditional approval", "rejected"}
}

// ParseStatus validates a status; the empty string is not-started.
func ParseStatus(s string) (Status, error) {
	if s == "" {
		return NotStarted, nil
	}
	for _, v := range StatusValues() {
		if s == v {
			return Status(v), nil
		}
	}
	return "", core.Invalid("Input.Status", "%q is not one of: %s", s, strings.Join(StatusValues(), ", "))
}

// String returns the wire value.
func (s Status) String() string { return string(s) }

// Decided reports whether the status closes a review (approved, conditional
// approval or rejected): the moment a status becomes one of these is the
// assessment's last review.
func (s Status) Decided() bool { return s == Approved || s == ConditionalApproval || s == Rejected }

// Active reports whether a review is under way (in progress or on hold):
// begun and not yet decided.
func (s Status) Active() bool { return s == InProgress || s == OnHold }

// Fields are the editable fields of an assessment (spec 2.6). A nil pointer
// in an Input means "not given; keep the stored value".
type Fields struct {
	Status                       Status
	ConditionalApprovalCondition string
	SponsorBusinessDepartment    string
	SponsorContact               string
	UseCase                      string
	DataCollected                []string
	ComplianceComment            string
	// ComplianceContact, SubmissionDate and ApprovalDate are not in the
	// contract; the original web client sends them, so they are kept.
	// Dates are civil dates (2006-01-02), empty when unset.
	ComplianceContact string
	SubmissionDate    string
	ApprovalDate      string
	// Tier is how critical the vendor is to the organization; it sets the
	// review cadence. Unset ("") is "not tiered".
	Tier Tier
	// ConditionDueAt is when the condition of a conditional approval must be
	// met (UTC; zero when unset). It brings the next review forward.
	ConditionDueAt time.Time
}

// Input is a partial update of Fields.
type Input struct {
	Status                       *Status // parsed at the edge (ParseStatus)
	ConditionalApprovalCondition *string
	SponsorBusinessDepartment    *string
	SponsorContact               *string
	UseCase                      *string
	DataCollected                []string // nil: keep
	ComplianceComment            *string
	ComplianceContact            *string
	SubmissionDate               *string // a date, or an RFC 3339 date-time (its date is kept)
	ApprovalDate                 *string
	Tier                         *Tier   // parsed at the edge (ParseTier); Untiered clears it
	ConditionDueAt               *string // a date (midnight UTC) or an RFC 3339 date-time; "" clears it
}

// Assessment is an account's review record of one vendor on one list.
type Assessment struct {
	ID              uuid.UUID
	AccountID       uuid.UUID
	ListID          uuid.UUID
	VendorID        uuid.UUID
	VendorProfileID *uuid.UUID
	VendorName      string
	Fields
	// LastReviewedAt is when the status last became approved, conditional
	// approval or rejected (zero: never). The writer sets it, in
	// MarkReviewed, when a save changes the status to one of those.
	LastReviewedAt time.Time
	// Due is computed by the service from the policy in force when the
	// assessment is answered (Schedule); stores neither keep nor return it.
	Due       Due
	CreatedAt time.Time
	CreatedBy string
	UpdatedAt time.Time
	UpdatedBy string
}

// MaxText bounds free-text fields.
const MaxText = 10000

// MaxDataCollected bounds the entries of data_collected.
const MaxDataCollected = 200

// Apply validates in against the current fields and returns the merged fields.
func Apply(cur Fields, in Input) (Fields, error) {
	var errs core.Fields
	next := cur
	if next.Status == "" {
		next.Status = NotStarted
	}
	if in.Status != nil {
		next.Status = *in.Status
	}
	text := func(field string, p *string, dst *string) {
		if p == nil {
			return
		}
		v := strings.TrimSpace(*p)
		if utf8.RuneCountInString(v) > MaxText {
			errs.Add(field, "must be at most %d characters", MaxText)
			return
		}
		*dst = v
	}
	text("Input.ConditionalApprovalCondition", in.ConditionalApprovalCondition, &next.ConditionalApprovalCondition)
	text("Input.SponsorBusinessDepartment", in.SponsorBusinessDepartment, &next.SponsorBusinessDepartment)
	text("Input.UseCase", in.UseCase, &next.UseCase)
	text("Input.ComplianceComment", in.ComplianceComment, &next.ComplianceComment)
	text("Input.ComplianceContact", in.ComplianceContact, &next.ComplianceContact)
	date := func(field string, p *string, dst *string) {
		if p == nil {
			return
		}
		d, err := ParseDate(field, *p)
		if !errs.AddErr(err) {
			*dst = d
		}
	}
	date("Input.SubmissionDate", in.SubmissionDate, &next.SubmissionDate)
	date("Input.ApprovalDate", in.ApprovalDate, &next.ApprovalDate)
	if in.Tier != nil {
		next.Tier = *in.Tier
	}
	if in.ConditionDueAt != nil {
		t, err := ParseInstant("Input.ConditionDueAt", *in.ConditionDueAt)
		if !errs.AddErr(err) {
			next.ConditionDueAt = t
		}
	}
	if in.SponsorContact != nil {
		v := strings.TrimSpace(*in.SponsorContact)
		if v != "" {
			e, err := accounts.NormalizeEmail(v)
			errs.AddErr(core.WithField(err, "Input.SponsorContact"))
			v = e
		}
		next.SponsorContact = v
	}
	if in.DataCollected != nil {
		dc := make([]string, 0, len(in.DataCollected))
		for _, d := range in.DataCollected {
			if d = strings.TrimSpace(d); d != "" {
				dc = append(dc, d)
			}
		}
		if len(dc) > MaxDataCollected {
			errs.Add("Input.DataCollected", "must have at most %d entries", MaxDataCollected)
		}
		next.DataCollected = dc
	}
	if next.DataCollected == nil {
		next.DataCollected = []string{}
	}
	if next.Status == ConditionalApproval && next.ConditionalApprovalCondition == "" {
		errs.Add("Input.ConditionalApprovalCondition", "is required when compliance_approval_status is %q", ConditionalApproval)
	}
	return next, errs.Err()
}

// Change is one field's change in an audit event.
type Change struct {
	Field    string
	OldValue string
	NewValue string
}

// AuditEvent groups the field changes of one save.
type AuditEvent struct {
	ID           uuid.UUID
	AssessmentID uuid.UUID
	AccountID    uuid.UUID
	CreatedAt    time.Time
	SubmittedBy  string
	Changes      []Change
}

// Diff lists the fields that differ between two versions; a new assessment
// diffs against the zero Fields so every filled field is recorded.
func Diff(old, next Fields) []Change {
	var out []Change
	add := func(f, a, b string) {
		if a != b {
			out = append(out, Change{Field: f, OldValue: a, NewValue: b})
		}
	}
	add("compliance_approval_status", string(old.Status), string(next.Status))
	add("conditional_approval_condition", old.ConditionalApprovalCondition, next.ConditionalApprovalCondition)
	add("sponsor_business_department", old.SponsorBusinessDepartment, next.SponsorBusinessDepartment)
	add("sponsor_contact", old.SponsorContact, next.SponsorContact)
	add("use_case", old.UseCase, next.UseCase)
	add("data_collected", strings.Join(old.DataCollected, "; "), strings.Join(next.DataCollected, "; "))
	add("compliance_comment", old.ComplianceComment, next.ComplianceComment)
	add("compliance_contact", old.ComplianceContact, next.ComplianceContact)
	add("submission_date", old.SubmissionDate, next.SubmissionDate)
	add("approval_date", old.ApprovalDate, next.ApprovalDate)
	add("tier", string(old.Tier), string(next.Tier))
	add("condition_due_at", formatInstant(old.ConditionDueAt), formatInstant(next.ConditionDueAt))
	return out
}

// ParseDate reads a civil date (2006-01-02), or the date of an RFC 3339
// date-time in UTC; empty means unset.
func ParseDate(field, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", nil
	}
	if d, err := time.Parse(time.DateOnly, raw); err == nil {
		return d.Format(time.DateOnly), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, raw); err == nil {
		return t.UTC().Format(time.DateOnly), nil
	}
	return "", core.Invalid(field, "must be a date (2006-01-02) or an RFC 3339 date-time")
}

// ParseInstant reads an RFC 3339 date-time (kept in UTC, to the second) or a
// civil date (midnight UTC); empty means unset (the zero time).
func ParseInstant(field, raw string) (time.Time, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return time.Time{}, nil
	}
	if d, err := time.Parse(time.DateOnly, raw); err == nil {
		return d.UTC(), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, raw); err == nil {
		return t.UTC().Truncate(time.Second), nil
	}
	return time.Time{}, core.Invalid(field, "must be a date (2006-01-02) or an RFC 3339 date-time")
}

func formatInstant(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// MarkReviewed stamps next as reviewed at now when a save moves its status
// from prev to a decided status (approved, conditional approval or
// rejected); any other save keeps the stamp it had.
func MarkReviewed(a *Assessment, prev Status, now time.Time) {
	if a.Status != prev && a.Status.Decided() {
		a.LastReviewedAt = now.UTC().Truncate(time.Second)
	}
}
