// The persistence rows both dialects share: bun models that mirror their
// tables one to one, and the converters between them and core types. SQLite,
// which keeps an extra column (its Go-computed name keys), extends a row
// here with bun's ",extend" (dialect_sqlite.go).
//
// Rows never leave the package. Times are read back in UTC, whatever
// location the driver hands them over in.

package sqlstore

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/internal/convert"
	"github.com/vetted-dev/vetted/internal/outboxjson"
)

// mapRows converts rows with f; never nil, so empty answers are empty lists.
func mapRows[R, T any](rows []R, f func(R) T) []T {
	out := make([]T, 0, len(rows))
	for _, r := range rows {
		out = append(out, f(r))
	}
	return out
}

// mapRowsErr converts rows with f, stopping at the first error.
func mapRowsErr[R, T any](rows []R, f func(R) (T, error)) ([]T, error) {
	out := make([]T, 0, len(rows))
	for _, r := range rows {
		t, err := f(r)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func utc(t time.Time) time.Time { return t.UTC() }

// utcZero is utc that keeps the zero time (a NULL column) zero.
func utcZero(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// userRow is a row of users. E-mails are stored lower-case (strings.ToLower,
// the memory store's rule), so stores compare them without SQL lower().
type userRow struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID            uuid.UUID `bun:"id,pk"`
	Subject       string    `bun:"subject"`
	Email         string    `bun:"email"`
	Name          string    `bun:"name"`
	EmailVerified bool      `bun:"email_verified"`
	CreatedAt     time.Time `bun:"created_at"`
}

// fromUser makes the row of u.
func fromUser(u accounts.User) userRow {
	return userRow{ID: u.ID, Subject: u.Subject, Email: strings.ToLower(u.Email), Name: u.Name, EmailVerified: u.EmailVerified, CreatedAt: u.CreatedAt}
}

// Core rebuilds the user.
func (r userRow) Core() accounts.User {
	return accounts.User{ID: r.ID, Subject: r.Subject, Email: r.Email, Name: r.Name, EmailVerified: r.EmailVerified, CreatedAt: utc(r.CreatedAt)}
}

// accountRow is a row of accounts.
type accountRow struct {
	bun.BaseModel `bun:"table:accounts,alias:a"`

	ID        uuid.UUID `bun:"id,pk"`
	Name      string    `bun:"name"`
	Active    bool      `bun:"active"`
	Personal  bool      `bun:"personal"`
	CreatedAt time.Time `bun:"created_at"`
}

// fromAccount makes the row of a.
func fromAccount(a accounts.Account) accountRow {
	return accountRow{ID: a.ID, Name: a.Name, Active: a.Active, Personal: a.Personal, CreatedAt: a.CreatedAt}
}

// Core rebuilds the account.
func (r accountRow) Core() accounts.Account {
	return accounts.AccountFromStore(r.ID, r.Name, r.Active, r.Personal, r.CreatedAt)
}

// memberRow is a row of members.
type memberRow struct {
	bun.BaseModel `bun:"table:members,alias:m"`

	AccountID uuid.UUID `bun:"account_id,pk"`
	UserID    uuid.UUID `bun:"user_id,pk"`
	Role      string    `bun:"role"`
	CreatedAt time.Time `bun:"created_at"`
}

// fromMember makes the row of m; a role outside accounts.Role is refused.
func fromMember(m accounts.Member) (memberRow, error) {
	if !m.Role.Valid() {
		return memberRow{}, fmt.Errorf("member %s: role %d is not a role", m.UserID, m.Role)
	}
	return memberRow{AccountID: m.AccountID, UserID: m.UserID, Role: m.Role.String(), CreatedAt: m.CreatedAt}, nil
}

// memberViewRow is a membership joined with its user.
type memberViewRow struct {
	AccountID uuid.UUID `bun:"account_id"`
	UserID    uuid.UUID `bun:"user_id"`
	Role      string    `bun:"role"`
	CreatedAt time.Time `bun:"created_at"`
	Email     string    `bun:"email"`
	Name      string    `bun:"name"`
	Verified  bool      `bun:"email_verified"`
}

// Core rebuilds the member; a stored role the core does not know is an error.
func (v memberViewRow) Core() (accounts.Member, error) {
	role, err := accounts.ParseRole(v.Role)
	if err != nil {
		return accounts.Member{}, fmt.Errorf("member %s of %s: stored role %q: %w", v.UserID, v.AccountID, v.Role, err)
	}
	return accounts.Member{AccountID: v.AccountID, UserID: v.UserID, Email: v.Email, Name: v.Name,
		Verified: v.Verified, Role: role, CreatedAt: utc(v.CreatedAt)}, nil
}

// membershipRow is an account seen from one member: the account's columns and
// the member's role.
type membershipRow struct {
	accountRow `bun:",extend"`
	Role       string `bun:"role"`
}

// Core rebuilds the membership; a stored role the core does not know is an error.
func (r membershipRow) Core() (accounts.Membership, error) {
	role, err := accounts.ParseRole(r.Role)
	if err != nil {
		return accounts.Membership{}, fmt.Errorf("account %s: stored role %q: %w", r.ID, r.Role, err)
	}
	return accounts.Membership{Account: r.accountRow.Core(), Role: role}, nil
}

// vendorRow is a row of vendors.
type vendorRow struct {
	bun.BaseModel `bun:"table:vendors,alias:v"`

	ID         uuid.UUID `bun:"id,pk"`
	Name       string    `bun:"name"`
	WebsiteURL string    `bun:"website_url"`
	Domain     string    `bun:"domain"`
	Aliases    []string  `bun:"aliases,type:jsonb"`
	CreatedAt  time.Time `bun:"created_at"`
	// HasProfile is computed by the queries that read vendors.
	HasProfile bool `bun:"has_profile,scanonly"`
}

// fromVendor makes the row of v; aliases are never stored as null.
func fromVendor(v vendors.Vendor) vendorRow {
	aliases := v.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return vendorRow{ID: v.ID, Name: v.Name.String(), WebsiteURL: v.WebsiteURL, Domain: v.Domain, Aliases: aliases, CreatedAt: v.CreatedAt}
}

// Core rebuilds the directory entry.
func (r vendorRow) Core() vendors.Vendor {
	return vendors.VendorFromStore(r.ID, r.Name, r.WebsiteURL, r.Domain, r.Aliases, r.HasProfile, r.CreatedAt)
}

// profileRow is a row of profiles; each content group is one JSON column, in
// the stored shapes of profilejson.go.
type profileRow struct {
	bun.BaseModel `bun:"table:profiles,alias:p"`

	ID         uuid.UUID                    `bun:"id,pk"`
	VendorID   uuid.UUID                    `bun:"vendor_id"`
	Company    companyJSON                  `bun:"company,type:jsonb"`
	Security   securityJSON                 `bun:"security,type:jsonb"`
	Privacy    privacyJSON                  `bun:"privacy,type:jsonb"`
	Maturity   maturityJSON                 `bun:"maturity,type:jsonb"`
	Scores     scoresJSON                   `bun:"scores,type:jsonb"`
	Enrichment map[string]sectionStatusJSON `bun:"enrichment,type:jsonb"`
	LatestGRC  *grcJSON                     `bun:"latest_grc,type:jsonb"`
	Website    *websiteJSON                 `bun:"website,type:jsonb"`
	CreatedAt  time.Time                    `bun:"created_at"`
	UpdatedAt  time.Time                    `bun:"updated_at"`
	// SectionStatuses and SecurityRating repeat, in plain columns, what a
	// list read shows of each vendor (the status of each enrichment
	// section, as a JSON array of strings, and the rating), so that reading
	// a list of 500 parses no JSON object per entry. Written with every
	// save of the profile; never read back into the profile.
	SectionStatuses string `bun:"section_statuses"`
	SecurityRating  *int   `bun:"security_rating"`
}

// fromProfile makes the row of p; its enrichment is never stored as null.
func fromProfile(p vendors.Profile) profileRow {
	return profileRow{ID: p.ID, VendorID: p.VendorID, Company: fromCompany(p.Company), Security: fromSecurity(p.Security),
		Privacy: privacyJSON(p.Privacy), Maturity: maturityJSON(p.Maturity), Scores: fromScores(p.Scores),
		Enrichment: fromEnrichment(p.Enrichment), LatestGRC: fromGRCPtr(p.LatestGRC), Website: fromWebsite(p),
		CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
		SectionStatuses: sectionStatuses(p.Enrichment), SecurityRating: p.Scores.SecurityRating}
}

// sectionStatuses is the JSON array of the status of each section of an
// enrichment, in section order (see Profile.SectionStatuses).
func sectionStatuses(m map[vendors.Section]vendors.SectionStatus) string {
	out := make([]string, 0, len(m))
	for _, sec := range slices.Sorted(maps.Keys(m)) {
		out = append(out, m[sec].Status)
	}
	b, _ := json.Marshal(out) // strings always encode
	return string(b)
}

// Core rebuilds the profile.
func (r profileRow) Core() vendors.Profile {
	p := vendors.Profile{ID: r.ID, VendorID: r.VendorID, Company: r.Company.core(), Security: r.Security.core(),
		Privacy: vendors.Privacy(r.Privacy), Maturity: vendors.Maturity(r.Maturity), Scores: r.Scores.core(),
		Enrichment: enrichmentCore(r.Enrichment), LatestGRC: r.LatestGRC.corePtr(),
		CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt)}
	r.Website.applyTo(&p)
	return p
}

// grcRow is one assessment of a vendor's GRC history, kept whole as JSON (as
// profiles.latest_grc is); assessed_at is copied out for ordering, and the
// identity column orders assessments of equal time.
type grcRow struct {
	bun.BaseModel `bun:"table:grc_assessments,alias:g"`

	ID         int64     `bun:"id,pk,autoincrement"`
	VendorID   uuid.UUID `bun:"vendor_id"`
	Assessment grcJSON   `bun:"assessment,type:jsonb"`
	AssessedAt time.Time `bun:"assessed_at"`
}

// fromGRCRow makes the row of a, an assessment of vendorID.
func fromGRCRow(vendorID uuid.UUID, a vendors.GRCAssessment) grcRow {
	return grcRow{VendorID: vendorID, Assessment: fromGRC(a), AssessedAt: a.AssessedAt}
}

// Core rebuilds the assessment.
func (r grcRow) Core() vendors.GRCAssessment { return r.Assessment.core() }

// instanceRow is a row of security_instances.
type instanceRow struct {
	bun.BaseModel `bun:"table:security_instances,alias:si"`

	ID         uuid.UUID `bun:"id,pk"`
	VendorID   uuid.UUID `bun:"vendor_id"`
	Kind       string    `bun:"kind"`
	Category   string    `bun:"category"`
	Code       string    `bun:"code"`
	Title      string    `bun:"title"`
	Severity   string    `bun:"severity"`
	Evidence   string    `bun:"evidence"`
	Source     string    `bun:"source"`
	ObservedAt time.Time `bun:"observed_at"`
}

// fromInstance makes the row of i, belonging to vendorID.
func fromInstance(vendorID uuid.UUID, i vendors.SecurityInstance) instanceRow {
	return instanceRow{ID: i.ID, VendorID: vendorID, Kind: i.Kind, Category: i.Category, Code: i.Code, Title: i.Title,
		Severity: i.Severity, Evidence: i.Evidence, Source: i.Source, ObservedAt: i.ObservedAt}
}

// Core rebuilds the security instance.
func (r instanceRow) Core() vendors.SecurityInstance {
	return vendors.SecurityInstanceFromStore(vendors.SecurityInstance{ID: r.ID, VendorID: r.VendorID, Kind: r.Kind, Category: r.Category,
		Code: r.Code, Title: r.Title, Severity: r.Severity, Evidence: r.Evidence, Source: r.Source, ObservedAt: r.ObservedAt})
}

// listRow is a row of lists.
type listRow struct {
	bun.BaseModel `bun:"table:lists,alias:l"`

	ID        uuid.UUID `bun:"id,pk"`
	AccountID uuid.UUID `bun:"account_id"`
	Name      string    `bun:"name"`
	CreatedAt time.Time `bun:"created_at"`
	// Version counts the changes to the list's entries (listRepo.Bump).
	Version int64 `bun:"version"`
	// VendorCount is computed by the queries that read lists.
	VendorCount int `bun:"vendor_count,scanonly"`
}

// fromList makes the row of l.
func fromList(l lists.List) listRow {
	return listRow{ID: l.ID, AccountID: l.AccountID, Name: l.Name, CreatedAt: l.CreatedAt}
}

// Core rebuilds the list with its vendor count.
func (r listRow) Core() lists.List {
	return lists.ListFromStore(r.ID, r.AccountID, r.Name, r.VendorCount, r.Version, r.CreatedAt)
}

// entryRow is a row of list_entries.
type entryRow struct {
	bun.BaseModel `bun:"table:list_entries,alias:e"`

	ListID        uuid.UUID `bun:"list_id,pk"`
	VendorID      uuid.UUID `bun:"vendor_id,pk"`
	AlertsEnabled bool      `bun:"alerts_enabled"`
	AddedAt       time.Time `bun:"added_at"`
}

// entryViewRow is an entry joined with its vendor and the vendor's profile.
type entryViewRow struct {
	ListID        uuid.UUID `bun:"list_id"`
	VendorID      uuid.UUID `bun:"vendor_id"`
	AlertsEnabled bool      `bun:"alerts_enabled"`
	AddedAt       time.Time `bun:"added_at"`
	VendorName    string    `bun:"vendor_name"`
	GivenName     string    `bun:"given_name"` // the name it was added under, "" for the directory's
	WebsiteURL    string    `bun:"website_url"`
	HasProfile    bool      `bun:"has_profile"`
	Statuses      []string  `bun:"statuses,type:jsonb"` // of its profile's sections; "" for a null (a section without one)
	Rating        *int      `bun:"rating"`              // its profile's security rating
}

// Core rebuilds the entry with its products.
func (v entryViewRow) Core(products []lists.Product) lists.Entry {
	if products == nil {
		products = []lists.Product{}
	}
	return lists.Entry{ListID: v.ListID, VendorID: v.VendorID, VendorName: v.VendorName, DisplayName: cmp.Or(v.GivenName, v.VendorName), WebsiteURL: v.WebsiteURL,
		IsCustom: !v.HasProfile, EnrichmentStatus: vendors.EnrichmentStatusOf(v.HasProfile, slices.DeleteFunc(v.Statuses, noStatus)),
		AlertsEnabled: v.AlertsEnabled, Rating: v.Rating, Products: products, AddedAt: utc(v.AddedAt)}
}

// productRow is a row of products.
type productRow struct {
	bun.BaseModel `bun:"table:products,alias:pr"`

	ID        uuid.UUID `bun:"id,pk"`
	ListID    uuid.UUID `bun:"list_id"`
	VendorID  uuid.UUID `bun:"vendor_id"`
	Name      string    `bun:"name"`
	CreatedAt time.Time `bun:"created_at"`
}

// fromProduct makes the row of p.
func fromProduct(p lists.Product) productRow {
	return productRow{ID: p.ID, ListID: p.ListID, VendorID: p.VendorID, Name: p.Name, CreatedAt: p.CreatedAt}
}

// Core rebuilds the product.
func (r productRow) Core() lists.Product {
	return lists.ProductFromStore(r.ID, r.ListID, r.VendorID, r.Name, r.CreatedAt)
}

// claimRow is a row of quota_claims.
type claimRow struct {
	bun.BaseModel `bun:"table:quota_claims,alias:q"`

	AccountID uuid.UUID `bun:"account_id,pk"`
	VendorID  uuid.UUID `bun:"vendor_id,pk"`
	ClaimedAt time.Time `bun:"claimed_at"`
}

// assessmentRow is a row of assessments.
type assessmentRow struct {
	bun.BaseModel `bun:"table:assessments,alias:s"`

	ID                           uuid.UUID  `bun:"id,pk"`
	AccountID                    uuid.UUID  `bun:"account_id"`
	ListID                       uuid.UUID  `bun:"list_id"`
	VendorID                     uuid.UUID  `bun:"vendor_id"`
	VendorProfileID              *uuid.UUID `bun:"vendor_profile_id"`
	VendorName                   string     `bun:"vendor_name"`
	Status                       string     `bun:"status"`
	ConditionalApprovalCondition string     `bun:"conditional_approval_condition"`
	SponsorBusinessDepartment    string     `bun:"sponsor_business_department"`
	SponsorContact               string     `bun:"sponsor_contact"`
	UseCase                      string     `bun:"use_case"`
	DataCollected                []string   `bun:"data_collected,type:jsonb"`
	ComplianceComment            string     `bun:"compliance_comment"`
	ComplianceContact            string     `bun:"compliance_contact"`
	SubmissionDate               string     `bun:"submission_date"`
	ApprovalDate                 string     `bun:"approval_date"`
	Tier                         string     `bun:"tier"`
	ConditionDueAt               time.Time  `bun:"condition_due_at,nullzero"`
	LastReviewedAt               time.Time  `bun:"last_reviewed_at,nullzero"`
	CreatedAt                    time.Time  `bun:"created_at"`
	CreatedBy                    string     `bun:"created_by"`
	UpdatedAt                    time.Time  `bun:"updated_at"`
	UpdatedBy                    string     `bun:"updated_by"`
}

// fromAssessment makes the row of a; an empty status is stored as not-started.
func fromAssessment(a assessments.Assessment) assessmentRow {
	status := a.Status
	if status == "" {
		status = assessments.NotStarted
	}
	return assessmentRow{ID: a.ID, AccountID: a.AccountID, ListID: a.ListID, VendorID: a.VendorID,
		VendorProfileID: a.VendorProfileID, VendorName: a.VendorName, Status: string(status),
		ConditionalApprovalCondition: a.ConditionalApprovalCondition, SponsorBusinessDepartment: a.SponsorBusinessDepartment,
		SponsorContact: a.SponsorContact, UseCase: a.UseCase, DataCollected: a.DataCollected,
		ComplianceComment: a.ComplianceComment, ComplianceContact: a.ComplianceContact, SubmissionDate: a.SubmissionDate,
		ApprovalDate: a.ApprovalDate, Tier: string(a.Tier), ConditionDueAt: a.ConditionDueAt, LastReviewedAt: a.LastReviewedAt,
		CreatedAt: a.CreatedAt, CreatedBy: a.CreatedBy,
		UpdatedAt: a.UpdatedAt, UpdatedBy: a.UpdatedBy}
}

// Core rebuilds the assessment; a stored status the core does not know is an error.
func (r assessmentRow) Core() (assessments.Assessment, error) {
	status, tier, err := statusTier(r.ID, r.Status, r.Tier)
	if err != nil {
		return assessments.Assessment{}, err
	}
	dc := r.DataCollected
	if dc == nil {
		dc = []string{}
	}
	return assessments.Assessment{ID: r.ID, AccountID: r.AccountID, ListID: r.ListID, VendorID: r.VendorID,
		VendorProfileID: r.VendorProfileID, VendorName: r.VendorName,
		Fields: assessments.Fields{Status: status, ConditionalApprovalCondition: r.ConditionalApprovalCondition,
			SponsorBusinessDepartment: r.SponsorBusinessDepartment, SponsorContact: r.SponsorContact,
			UseCase: r.UseCase, DataCollected: dc, ComplianceComment: r.ComplianceComment,
			ComplianceContact: r.ComplianceContact, SubmissionDate: r.SubmissionDate, ApprovalDate: r.ApprovalDate,
			Tier: tier, ConditionDueAt: utcZero(r.ConditionDueAt)},
		LastReviewedAt: utcZero(r.LastReviewedAt),
		CreatedAt:      utc(r.CreatedAt), CreatedBy: r.CreatedBy, UpdatedAt: utc(r.UpdatedAt), UpdatedBy: r.UpdatedBy}, nil
}

// assessmentTimingRow is the part of an assessment row its due date follows
// (assessments.Timing).
type assessmentTimingRow struct {
	bun.BaseModel `bun:"table:assessments,alias:s"`

	ID             uuid.UUID `bun:"id,pk"`
	Status         string    `bun:"status"`
	Tier           string    `bun:"tier"`
	ConditionDueAt time.Time `bun:"condition_due_at,nullzero"`
	LastReviewedAt time.Time `bun:"last_reviewed_at,nullzero"`
}

// Core rebuilds the timing; a stored status or tier the core does not know
// is an error, as in Assessment.Core.
func (r assessmentTimingRow) Core() (assessments.Timing, error) {
	status, tier, err := statusTier(r.ID, r.Status, r.Tier)
	if err != nil {
		return assessments.Timing{}, err
	}
	return assessments.Timing{Tier: tier, Status: status, ConditionDueAt: utcZero(r.ConditionDueAt), LastReviewedAt: utcZero(r.LastReviewedAt)}, nil
}

// statusTier parses an assessment's stored status and tier.
func statusTier(id uuid.UUID, storedStatus, storedTier string) (assessments.Status, assessments.Tier, error) {
	status, err := assessments.ParseStatus(storedStatus)
	if err != nil {
		return "", "", fmt.Errorf("assessment %s: stored status: %w", id, err)
	}
	tier, err := assessments.ParseTier(storedTier)
	if err != nil {
		return "", "", fmt.Errorf("assessment %s: stored tier: %w", id, err)
	}
	return status, tier, nil
}

// changeJSON is the stored form of one audit change.
type changeJSON struct {
	Field    string `json:"field"`
	OldValue string `json:"old_value"`
	NewValue string `json:"new_value"`
}

// eventRow is a row of audit_events; the changes are one JSON column.
type eventRow struct {
	bun.BaseModel `bun:"table:audit_events,alias:ev"`

	ID           uuid.UUID    `bun:"id,pk"`
	AssessmentID uuid.UUID    `bun:"assessment_id"`
	AccountID    uuid.UUID    `bun:"account_id"`
	CreatedAt    time.Time    `bun:"created_at"`
	SubmittedBy  string       `bun:"submitted_by"`
	Changes      []changeJSON `bun:"changes,type:jsonb"`
}

// fromEvent makes the row of e.
func fromEvent(e assessments.AuditEvent) eventRow {
	cs := make([]changeJSON, 0, len(e.Changes))
	for _, c := range e.Changes {
		cs = append(cs, changeJSON(c))
	}
	return eventRow{ID: e.ID, AssessmentID: e.AssessmentID, AccountID: e.AccountID, CreatedAt: e.CreatedAt,
		SubmittedBy: e.SubmittedBy, Changes: cs}
}

// Core rebuilds the audit event.
func (r eventRow) Core() assessments.AuditEvent {
	cs := make([]assessments.Change, 0, len(r.Changes))
	for _, c := range r.Changes {
		cs = append(cs, assessments.Change(c))
	}
	return assessments.AuditEvent{ID: r.ID, AssessmentID: r.AssessmentID, AccountID: r.AccountID, CreatedAt: utc(r.CreatedAt),
		SubmittedBy: r.SubmittedBy, Changes: cs}
}

// documentRow is a row of documents.
type documentRow struct {
	bun.BaseModel `bun:"table:documents,alias:d"`

	ID           uuid.UUID `bun:"id,pk"`
	AccountID    uuid.UUID `bun:"account_id"`
	AssessmentID uuid.UUID `bun:"assessment_id"`
	FileName     string    `bun:"file_name"`
	ContentType  string    `bun:"content_type"`
	SizeBytes    int64     `bun:"size_bytes"`
	SHA256       string    `bun:"sha256"`
	Status       string    `bun:"status"`
	ObjectKey    string    `bun:"object_key"`
	UploadedBy   string    `bun:"uploaded_by"`
	CreatedAt    time.Time `bun:"created_at"`
}

// fromDocument makes the row of d.
func fromDocument(d assessments.Document) documentRow {
	return documentRow{ID: d.ID, AccountID: d.AccountID, AssessmentID: d.AssessmentID, FileName: d.FileName,
		ContentType: d.ContentType, SizeBytes: d.SizeBytes, SHA256: d.SHA256, Status: d.Status, ObjectKey: d.ObjectKey,
		UploadedBy: d.UploadedBy, CreatedAt: d.CreatedAt}
}

// Core rebuilds the document record.
func (r documentRow) Core() assessments.Document {
	return assessments.DocumentFromStore(assessments.Document{ID: r.ID, AccountID: r.AccountID, AssessmentID: r.AssessmentID,
		FileName: r.FileName, ContentType: r.ContentType, SizeBytes: r.SizeBytes, SHA256: r.SHA256, Status: r.Status,
		ObjectKey: r.ObjectKey, UploadedBy: r.UploadedBy, CreatedAt: r.CreatedAt})
}

// subscriberRow is a row of subscribers.
type subscriberRow struct {
	bun.BaseModel `bun:"table:subscribers,alias:sub"`

	ID          uuid.UUID  `bun:"id,pk"`
	AccountID   uuid.UUID  `bun:"account_id"`
	ListID      uuid.UUID  `bun:"list_id"`
	Email       string     `bun:"email"`
	Status      string     `bun:"status"`
	CreatedAt   time.Time  `bun:"created_at"`
	ConfirmedAt *time.Time `bun:"confirmed_at"`
}

// fromSubscriber makes the row of s; the e-mail is stored lower-case.
func fromSubscriber(s alerts.Subscriber) subscriberRow {
	return subscriberRow{ID: s.ID, AccountID: s.AccountID, ListID: s.ListID, Email: strings.ToLower(s.Email), Status: s.Status,
		CreatedAt: s.CreatedAt, ConfirmedAt: s.ConfirmedAt}
}

// Core rebuilds the subscriber (IsMember is the service's to fill in).
func (r subscriberRow) Core() alerts.Subscriber {
	return alerts.Subscriber{ID: r.ID, AccountID: r.AccountID, ListID: r.ListID, Email: r.Email, Status: r.Status,
		CreatedAt: utc(r.CreatedAt), ConfirmedAt: utcPtr(r.ConfirmedAt)}
}

// recipientViewRow is a confirmed subscriber of a list that alerts on a vendor.
type recipientViewRow struct {
	SubscriberID uuid.UUID `bun:"subscriber_id"`
	AccountID    uuid.UUID `bun:"account_id"`
	ListID       uuid.UUID `bun:"list_id"`
	ListName     string    `bun:"list_name"`
	Email        string    `bun:"email"`
}

// Core rebuilds the recipient.
func (r recipientViewRow) Core() alerts.Recipient { return alerts.Recipient(r) }

// incidentRow is a row of incidents.
type incidentRow struct {
	bun.BaseModel `bun:"table:incidents,alias:i"`

	ID                      uuid.UUID `bun:"id,pk"`
	VendorID                uuid.UUID `bun:"vendor_id"`
	Title                   string    `bun:"title"`
	Summary                 string    `bun:"summary"`
	IncidentType            string    `bun:"incident_type"`
	AffectedService         string    `bun:"affected_service"`
	PotentiallyImpactedData []string  `bun:"potentially_impacted_data,type:jsonb"`
	Status                  string    `bun:"status"`
	Severity                string    `bun:"severity"`
	URL                     string    `bun:"url"`
	Source                  string    `bun:"source"`
	ExternalID              string    `bun:"external_id"`
	PublishedAt             time.Time `bun:"published_at"`
	Backfilled              bool      `bun:"backfilled"`
	CreatedAt               time.Time `bun:"created_at"`
	// Match is null for an incident without evidence; Sources is empty for
	// a row written before incidents had sources (IncidentFromStore fills
	// in its one item).
	Match   *incidentMatchJSON `bun:"match,type:jsonb"`
	Sources []incidentItemJSON `bun:"sources,type:jsonb"`
	// Keys are read from incident_keys (incidentRepo.Keys), in the order
	// they were given; they are written there, not here.
	Keys []string `bun:"keys,scanonly,type:jsonb"`
}

// fromIncident makes the row of in.
func fromIncident(in vendors.Incident) incidentRow {
	return incidentRow{ID: in.ID, VendorID: in.VendorID, Title: in.Title, Summary: in.Summary, IncidentType: in.IncidentType,
		AffectedService: in.AffectedService, PotentiallyImpactedData: in.PotentiallyImpactedData, Status: in.Status,
		Severity: in.Severity, URL: in.URL, Source: in.Source, ExternalID: in.ExternalID, PublishedAt: in.PublishedAt,
		Backfilled: in.Backfilled, CreatedAt: in.CreatedAt, Match: fromIncidentMatch(in.Match), Sources: fromIncidentItems(in.Sources),
		Keys: in.Keys}
}

// Core rebuilds the incident.
func (r incidentRow) Core() vendors.Incident {
	return vendors.IncidentFromStore(vendors.Incident{ID: r.ID, VendorID: r.VendorID, Title: r.Title, Summary: r.Summary,
		IncidentType: r.IncidentType, AffectedService: r.AffectedService, PotentiallyImpactedData: r.PotentiallyImpactedData,
		Status: r.Status, Severity: r.Severity, URL: r.URL, Source: r.Source, ExternalID: r.ExternalID,
		PublishedAt: r.PublishedAt, Backfilled: r.Backfilled, CreatedAt: r.CreatedAt, Match: r.Match.core(),
		Sources: incidentItemsCore(r.Sources), Keys: r.Keys})
}

// deliveryRow is a row of deliveries: a mail claimed by its delivery key, and
// when it was sent (NULL while the claim's send is under way, or was lost).
type deliveryRow struct {
	bun.BaseModel `bun:"table:deliveries,alias:dl"`

	Key       string     `bun:"key,pk"`
	ClaimedAt time.Time  `bun:"claimed_at"`
	SentAt    *time.Time `bun:"sent_at"`
}

// runRow is a row of runs; sections and jobs are JSON columns.
type runRow struct {
	bun.BaseModel `bun:"table:runs,alias:r"`

	ID        uuid.UUID `bun:"id,pk"`
	Kind      string    `bun:"kind"`
	Sections  []string  `bun:"sections,type:jsonb"`
	CreatedBy string    `bun:"created_by"`
	Jobs      []jobJSON `bun:"jobs,type:jsonb"`
	CreatedAt time.Time `bun:"created_at"`
	UpdatedAt time.Time `bun:"updated_at"`
}

// jobJSON is the stored shape of one job in runs.jobs; its keys are what
// the databases already hold (see TestStoredRunJSON).
type jobJSON struct {
	ID         uuid.UUID `json:"job_id"`
	VendorID   uuid.UUID `json:"vendor_id"`
	VendorName string    `json:"vendor_name"`
	Status     string    `json:"status"`
	Error      string    `json:"error,omitempty"`
	Created    int       `json:"created,omitempty"`
	Found      int       `json:"found,omitempty"`
}

// fromRun makes the row of r.
func fromRun(r vendors.Run) runRow {
	return runRow{ID: r.ID, Kind: r.Kind, Sections: r.Sections, CreatedBy: r.CreatedBy,
		Jobs:      convert.Slice(r.Jobs, func(j vendors.RunJob) jobJSON { return jobJSON(j) }),
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// Core rebuilds the run; absent sections and jobs read as empty lists.
func (r runRow) Core() vendors.Run {
	secs := r.Sections
	if secs == nil {
		secs = []string{}
	}
	return vendors.Run{ID: r.ID, Kind: r.Kind, Sections: secs, CreatedBy: r.CreatedBy,
		Jobs:      mapRows(r.Jobs, func(j jobJSON) vendors.RunJob { return vendors.RunJob(j) }),
		CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt)}
}

// outboxRow is a row of the outbox.
type outboxRow struct {
	bun.BaseModel `bun:"table:outbox,alias:o"`

	ID          uuid.UUID       `bun:"id,pk"`
	Kind        string          `bun:"kind"`
	Payload     json.RawMessage `bun:"payload,type:jsonb"`
	CreatedAt   time.Time       `bun:"created_at"`
	Attempts    int             `bun:"attempts"`
	LastError   string          `bun:"last_error"`
	AvailableAt time.Time       `bun:"available_at"`
	DeliveredAt *time.Time      `bun:"delivered_at"`
}

// fromMessage makes the row of m, due at once (or at m.DueAt), its payload in the JSON form
// of outboxjson (a kind without a payload of its own and a nil payload is
// stored as JSON null). A message without a creation time is stamped now.
// A payload of the wrong type for its kind is an error.
func fromMessage(m outbox.Message, now time.Time) (outboxRow, error) {
	payload, err := outboxjson.Encode(m.Kind, m.Payload)
	if err != nil {
		return outboxRow{}, fmt.Errorf("outbox message %s: %w", m.ID, err)
	}
	created := m.CreatedAt
	if created.IsZero() {
		created = now
	}
	// A message due later (outbox.Message.DueAt) waits in the store until
	// then: the relay claims by available_at.
	available := created
	if m.DueAt.After(created) {
		available = m.DueAt.UTC()
	}
	return outboxRow{ID: m.ID, Kind: string(m.Kind), Payload: payload, CreatedAt: created, Attempts: m.Attempts,
		LastError: m.LastError, AvailableAt: available}, nil
}

// Core rebuilds the message with its typed payload (see outboxjson.Decode
// for one it cannot read).
func (r outboxRow) Core() outbox.Message {
	return outbox.Message{ID: r.ID, Kind: outbox.Kind(r.Kind), Payload: outboxjson.Decode(outbox.Kind(r.Kind), r.Payload),
		CreatedAt: utc(r.CreatedAt), Attempts: r.Attempts, LastError: r.LastError}
}

// noStatus is an empty status among an entry's (a section without one).
func noStatus(s string) bool { return s == "" }

// dbTime scans a time column as either store hands it over: a time.Time
// (PostgreSQL) or the fixed-width UTC text SQLite keeps (RFC 3339 with
// nanoseconds), always in UTC; NULL is the zero time.
type dbTime struct{ time.Time }

// Scan implements sql.Scanner.
func (t *dbTime) Scan(src any) error {
	switch v := src.(type) {
	case time.Time:
		t.Time = v.UTC()
	case string:
		return t.parse(v)
	case []byte:
		return t.parse(string(v))
	case nil:
		t.Time = time.Time{}
	default:
		return fmt.Errorf("scan %T into a time", src)
	}
	return nil
}

func (t *dbTime) parse(s string) error {
	v, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return fmt.Errorf("scan time %q: %w", s, err)
	}
	t.Time = v.UTC()
	return nil
}

// dbStatuses scans the JSON array of the "status" values of a profile's
// sections (profiles.section_statuses): strings, or null for a section
// without one, which reads as "". It parses the array itself, reusing its
// own backing array from one row to the next, because list reads scan one
// per entry; NULL is an empty array.
type dbStatuses []string

// Scan implements sql.Scanner.
func (j *dbStatuses) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	case nil:
		*j = (*j)[:0]
		return nil
	default:
		return fmt.Errorf("scan %T into statuses", src)
	}
	out, err := parseStrings((*j)[:0], s)
	if err != nil {
		return fmt.Errorf("scan statuses %q: %w", s, err)
	}
	*j = out
	return nil
}

// parseStrings appends to dst the elements of s, a JSON array of strings
// and nulls (null is ""); a string with escapes is decoded by encoding/json.
func parseStrings(dst []string, s string) ([]string, error) {
	i := skipSpace(s, 0)
	if i >= len(s) || s[i] != '[' {
		return nil, errors.New("not a JSON array")
	}
	i = skipSpace(s, i+1)
	if i < len(s) && s[i] == ']' {
		return dst, nil
	}
	for {
		switch {
		case strings.HasPrefix(s[i:], "null"):
			dst = append(dst, "")
			i += len("null")
		case i < len(s) && s[i] == '"':
			end, escaped := i+1, false
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					escaped = true
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, errors.New("unterminated string")
			}
			if escaped {
				var v string
				if err := json.Unmarshal([]byte(s[i:end+1]), &v); err != nil {
					return nil, err
				}
				dst = append(dst, v)
			} else {
				dst = append(dst, s[i+1:end])
			}
			i = end + 1
		default:
			return nil, errors.New("not a string or null")
		}
		i = skipSpace(s, i)
		if i >= len(s) {
			return nil, errors.New("unterminated array")
		}
		if s[i] == ']' {
			return dst, nil
		}
		if s[i] != ',' {
			return nil, errors.New("missing comma")
		}
		i = skipSpace(s, i+1)
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}
