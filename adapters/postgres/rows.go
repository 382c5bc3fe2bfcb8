package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/account"
	"github.com/vetted-dev/vetted/core/document"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/core/run"
	"github.com/vetted-dev/vetted/core/subscriber"
	"github.com/vetted-dev/vetted/core/vendor"
	"github.com/vetted-dev/vetted/core/vendorlist"
)

// Persistence rows. They mirror the tables of the migrations one to one and
// are converted to and from core types right here; nothing outside this
// package sees them. Times are read back in UTC; PostgreSQL keeps them to the
// microsecond.

// mapRows converts rows with f; never nil, so empty answers are empty lists.
func mapRows[R, T any](rows []R, f func(R) T) []T {
	out := make([]T, 0, len(rows))
	for _, r := range rows {
		out = append(out, f(r))
	}
	return out
}

func utc(t time.Time) time.Time { return t.UTC() }

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

type userRow struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID            uuid.UUID `bun:"id,pk"`
	Subject       string    `bun:"subject"`
	Email         string    `bun:"email"`
	Name          string    `bun:"name"`
	EmailVerified bool      `bun:"email_verified"`
	CreatedAt     time.Time `bun:"created_at"`
}

func userToRow(u account.User) userRow {
	return userRow{ID: u.ID, Subject: u.Subject, Email: lower(u.Email), Name: u.Name, EmailVerified: u.EmailVerified, CreatedAt: u.CreatedAt}
}

func userFromRow(r userRow) account.User {
	return account.User{ID: r.ID, Subject: r.Subject, Email: r.Email, Name: r.Name, EmailVerified: r.EmailVerified, CreatedAt: utc(r.CreatedAt)}
}

type accountRow struct {
	bun.BaseModel `bun:"table:accounts,alias:a"`

	ID        uuid.UUID `bun:"id,pk"`
	Name      string    `bun:"name"`
	Active    bool      `bun:"active"`
	Personal  bool      `bun:"personal"`
	CreatedAt time.Time `bun:"created_at"`
}

func accountToRow(a account.Account) accountRow {
	return accountRow{ID: a.ID, Name: a.Name, Active: a.Active, Personal: a.Personal, CreatedAt: a.CreatedAt}
}

func accountFromRow(r accountRow) account.Account {
	return account.Account{ID: r.ID, Name: r.Name, Active: r.Active, Personal: r.Personal, CreatedAt: utc(r.CreatedAt)}
}

type memberRow struct {
	bun.BaseModel `bun:"table:members,alias:m"`

	AccountID uuid.UUID `bun:"account_id,pk"`
	UserID    uuid.UUID `bun:"user_id,pk"`
	Role      string    `bun:"role"`
	CreatedAt time.Time `bun:"created_at"`
}

func memberToRow(m account.Member) (memberRow, error) {
	if !m.Role.Valid() {
		return memberRow{}, fmt.Errorf("member %s: role %d is not a role", m.UserID, m.Role)
	}
	return memberRow{AccountID: m.AccountID, UserID: m.UserID, Role: m.Role.String(), CreatedAt: m.CreatedAt}, nil
}

// memberView is a membership joined with its user.
type memberView struct {
	AccountID uuid.UUID `bun:"account_id"`
	UserID    uuid.UUID `bun:"user_id"`
	Role      string    `bun:"role"`
	CreatedAt time.Time `bun:"created_at"`
	Email     string    `bun:"email"`
	Name      string    `bun:"name"`
	Verified  bool      `bun:"email_verified"`
}

func memberFromView(v memberView) (account.Member, error) {
	role, err := account.ParseRole(v.Role)
	if err != nil {
		return account.Member{}, fmt.Errorf("member %s of %s: stored role %q: %w", v.UserID, v.AccountID, v.Role, err)
	}
	return account.Member{AccountID: v.AccountID, UserID: v.UserID, Email: v.Email, Name: v.Name,
		Verified: v.Verified, Role: role, CreatedAt: utc(v.CreatedAt)}, nil
}

// membershipView is an account seen from one member.
type membershipView struct {
	accountRow `bun:",extend"`
	Role       string `bun:"role"`
}

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

func vendorToRow(v vendor.Vendor) vendorRow {
	return vendorRow{ID: v.ID, Name: v.Name.String(), WebsiteURL: v.WebsiteURL, Domain: v.Domain, Aliases: v.Aliases, CreatedAt: v.CreatedAt}
}

func vendorFromRow(r vendorRow) vendor.Vendor {
	aliases := r.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return vendor.Vendor{ID: r.ID, Name: vendor.Name(r.Name), WebsiteURL: r.WebsiteURL, Domain: r.Domain,
		Aliases: aliases, HasProfile: r.HasProfile, CreatedAt: utc(r.CreatedAt)}
}

type profileRow struct {
	bun.BaseModel `bun:"table:profiles,alias:p"`

	ID         uuid.UUID                               `bun:"id,pk"`
	VendorID   uuid.UUID                               `bun:"vendor_id"`
	Company    vendor.Company                          `bun:"company,type:jsonb"`
	Security   vendor.Security                         `bun:"security,type:jsonb"`
	Privacy    vendor.Privacy                          `bun:"privacy,type:jsonb"`
	Maturity   vendor.Maturity                         `bun:"maturity,type:jsonb"`
	Scores     vendor.Scores                           `bun:"scores,type:jsonb"`
	Enrichment map[vendor.Section]vendor.SectionStatus `bun:"enrichment,type:jsonb"`
	LatestGRC  *vendor.GRCAssessment                   `bun:"latest_grc,type:jsonb"`
	CreatedAt  time.Time                               `bun:"created_at"`
	UpdatedAt  time.Time                               `bun:"updated_at"`
}

func profileToRow(p vendor.Profile) profileRow {
	enr := p.Enrichment
	if enr == nil {
		enr = map[vendor.Section]vendor.SectionStatus{}
	}
	return profileRow{ID: p.ID, VendorID: p.VendorID, Company: p.Company, Security: p.Security, Privacy: p.Privacy,
		Maturity: p.Maturity, Scores: p.Scores, Enrichment: enr, LatestGRC: p.LatestGRC, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt}
}

func profileFromRow(r profileRow) vendor.Profile {
	enr := r.Enrichment
	if enr == nil {
		enr = map[vendor.Section]vendor.SectionStatus{}
	}
	return vendor.Profile{ID: r.ID, VendorID: r.VendorID, Company: r.Company, Security: r.Security, Privacy: r.Privacy,
		Maturity: r.Maturity, Scores: r.Scores, Enrichment: enr, LatestGRC: r.LatestGRC,
		CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt)}
}

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

func instanceToRow(vendorID uuid.UUID, i vendor.SecurityInstance) instanceRow {
	return instanceRow{ID: i.ID, VendorID: vendorID, Kind: i.Kind, Category: i.Category, Code: i.Code, Title: i.Title,
		Severity: i.Severity, Evidence: i.Evidence, Source: i.Source, ObservedAt: i.ObservedAt}
}

func instanceFromRow(r instanceRow) vendor.SecurityInstance {
	return vendor.SecurityInstance{ID: r.ID, VendorID: r.VendorID, Kind: r.Kind, Category: r.Category, Code: r.Code,
		Title: r.Title, Severity: r.Severity, Evidence: r.Evidence, Source: r.Source, ObservedAt: utc(r.ObservedAt)}
}

type listRow struct {
	bun.BaseModel `bun:"table:lists,alias:l"`

	ID        uuid.UUID `bun:"id,pk"`
	AccountID uuid.UUID `bun:"account_id"`
	Name      string    `bun:"name"`
	CreatedAt time.Time `bun:"created_at"`
	// VendorCount is computed by the queries that read lists.
	VendorCount int `bun:"vendor_count,scanonly"`
}

func listToRow(l vendorlist.List) listRow {
	return listRow{ID: l.ID, AccountID: l.AccountID, Name: l.Name, CreatedAt: l.CreatedAt}
}

func listFromRow(r listRow) vendorlist.List {
	return vendorlist.List{ID: r.ID, AccountID: r.AccountID, Name: r.Name, VendorCount: r.VendorCount, CreatedAt: utc(r.CreatedAt)}
}

type entryRow struct {
	bun.BaseModel `bun:"table:list_entries,alias:e"`

	ListID        uuid.UUID `bun:"list_id,pk"`
	VendorID      uuid.UUID `bun:"vendor_id,pk"`
	AlertsEnabled bool      `bun:"alerts_enabled"`
	AddedAt       time.Time `bun:"added_at"`
}

// entryView is an entry joined with its vendor and the vendor's profile.
type entryView struct {
	ListID        uuid.UUID                               `bun:"list_id"`
	VendorID      uuid.UUID                               `bun:"vendor_id"`
	AlertsEnabled bool                                    `bun:"alerts_enabled"`
	AddedAt       time.Time                               `bun:"added_at"`
	VendorName    string                                  `bun:"vendor_name"`
	WebsiteURL    string                                  `bun:"website_url"`
	HasProfile    bool                                    `bun:"has_profile"`
	Enrichment    map[vendor.Section]vendor.SectionStatus `bun:"enrichment,type:jsonb"`
}

func entryFromView(v entryView, products []vendorlist.Product) vendorlist.Entry {
	if products == nil {
		products = []vendorlist.Product{}
	}
	return vendorlist.Entry{ListID: v.ListID, VendorID: v.VendorID, VendorName: v.VendorName, WebsiteURL: v.WebsiteURL,
		IsCustom: !v.HasProfile, EnrichmentStatus: vendor.EnrichmentStatus(v.HasProfile, v.Enrichment),
		AlertsEnabled: v.AlertsEnabled, Products: products, AddedAt: utc(v.AddedAt)}
}

type productRow struct {
	bun.BaseModel `bun:"table:products,alias:pr"`

	ID        uuid.UUID `bun:"id,pk"`
	ListID    uuid.UUID `bun:"list_id"`
	VendorID  uuid.UUID `bun:"vendor_id"`
	Name      string    `bun:"name"`
	CreatedAt time.Time `bun:"created_at"`
}

func productToRow(p vendorlist.Product) productRow {
	return productRow{ID: p.ID, ListID: p.ListID, VendorID: p.VendorID, Name: p.Name, CreatedAt: p.CreatedAt}
}

func productFromRow(r productRow) vendorlist.Product {
	return vendorlist.Product{ID: r.ID, ListID: r.ListID, VendorID: r.VendorID, Name: r.Name, CreatedAt: utc(r.CreatedAt)}
}

type claimRow struct {
	bun.BaseModel `bun:"table:quota_claims,alias:q"`

	AccountID uuid.UUID `bun:"account_id,pk"`
	VendorID  uuid.UUID `bun:"vendor_id,pk"`
	ClaimedAt time.Time `bun:"claimed_at"`
}

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
	CreatedAt                    time.Time  `bun:"created_at"`
	CreatedBy                    string     `bun:"created_by"`
	UpdatedAt                    time.Time  `bun:"updated_at"`
	UpdatedBy                    string     `bun:"updated_by"`
}

func assessmentToRow(a review.Assessment) assessmentRow {
	status := a.Status
	if status == "" {
		status = review.NotStarted
	}
	return assessmentRow{ID: a.ID, AccountID: a.AccountID, ListID: a.ListID, VendorID: a.VendorID,
		VendorProfileID: a.VendorProfileID, VendorName: a.VendorName, Status: string(status),
		ConditionalApprovalCondition: a.ConditionalApprovalCondition, SponsorBusinessDepartment: a.SponsorBusinessDepartment,
		SponsorContact: a.SponsorContact, UseCase: a.UseCase, DataCollected: a.DataCollected,
		ComplianceComment: a.ComplianceComment, ComplianceContact: a.ComplianceContact, SubmissionDate: a.SubmissionDate,
		ApprovalDate: a.ApprovalDate, CreatedAt: a.CreatedAt, CreatedBy: a.CreatedBy,
		UpdatedAt: a.UpdatedAt, UpdatedBy: a.UpdatedBy}
}

func assessmentFromRow(r assessmentRow) (review.Assessment, error) {
	status, err := review.ParseStatus(r.Status)
	if err != nil {
		return review.Assessment{}, fmt.Errorf("assessment %s: stored status: %w", r.ID, err)
	}
	dc := r.DataCollected
	if dc == nil {
		dc = []string{}
	}
	return review.Assessment{ID: r.ID, AccountID: r.AccountID, ListID: r.ListID, VendorID: r.VendorID,
		VendorProfileID: r.VendorProfileID, VendorName: r.VendorName,
		Fields: review.Fields{Status: status, ConditionalApprovalCondition: r.ConditionalApprovalCondition,
			SponsorBusinessDepartment: r.SponsorBusinessDepartment, SponsorContact: r.SponsorContact,
			UseCase: r.UseCase, DataCollected: dc, ComplianceComment: r.ComplianceComment,
			ComplianceContact: r.ComplianceContact, SubmissionDate: r.SubmissionDate, ApprovalDate: r.ApprovalDate},
		CreatedAt: utc(r.CreatedAt), CreatedBy: r.CreatedBy, UpdatedAt: utc(r.UpdatedAt), UpdatedBy: r.UpdatedBy}, nil
}

func assessmentsFromRows(rs []assessmentRow) ([]review.Assessment, error) {
	out := make([]review.Assessment, 0, len(rs))
	for _, r := range rs {
		a, err := assessmentFromRow(r)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// changeJSON is the stored form of one audit change.
type changeJSON struct {
	Field    string `json:"field"`
	OldValue string `json:"old_value"`
	NewValue string `json:"new_value"`
}

type eventRow struct {
	bun.BaseModel `bun:"table:audit_events,alias:ev"`

	ID           uuid.UUID    `bun:"id,pk"`
	AssessmentID uuid.UUID    `bun:"assessment_id"`
	AccountID    uuid.UUID    `bun:"account_id"`
	CreatedAt    time.Time    `bun:"created_at"`
	SubmittedBy  string       `bun:"submitted_by"`
	Changes      []changeJSON `bun:"changes,type:jsonb"`
}

func eventToRow(e review.AuditEvent) eventRow {
	cs := make([]changeJSON, 0, len(e.Changes))
	for _, c := range e.Changes {
		cs = append(cs, changeJSON(c))
	}
	return eventRow{ID: e.ID, AssessmentID: e.AssessmentID, AccountID: e.AccountID, CreatedAt: e.CreatedAt,
		SubmittedBy: e.SubmittedBy, Changes: cs}
}

func eventFromRow(r eventRow) review.AuditEvent {
	cs := make([]review.Change, 0, len(r.Changes))
	for _, c := range r.Changes {
		cs = append(cs, review.Change(c))
	}
	return review.AuditEvent{ID: r.ID, AssessmentID: r.AssessmentID, AccountID: r.AccountID, CreatedAt: utc(r.CreatedAt),
		SubmittedBy: r.SubmittedBy, Changes: cs}
}

type documentRow struct {
	bun.BaseModel `bun:"table:documents,alias:d"`

	ID           uuid.UUID `bun:"id,pk"`
	AccountID    uuid.UUID `bun:"account_id"`
	AssessmentID uuid.UUID `bun:"assessment_id"`
	FileName     string    `bun:"file_name"`
	ContentType  string    `bun:"content_type"`
	SizeBytes    int64     `bun:"size_bytes"`
	Status       string    `bun:"status"`
	ObjectKey    string    `bun:"object_key"`
	UploadedBy   string    `bun:"uploaded_by"`
	CreatedAt    time.Time `bun:"created_at"`
}

func documentToRow(d document.Document) documentRow {
	return documentRow{ID: d.ID, AccountID: d.AccountID, AssessmentID: d.AssessmentID, FileName: d.FileName,
		ContentType: d.ContentType, SizeBytes: d.SizeBytes, Status: d.Status, ObjectKey: d.ObjectKey,
		UploadedBy: d.UploadedBy, CreatedAt: d.CreatedAt}
}

func documentFromRow(r documentRow) document.Document {
	return document.Document{ID: r.ID, AccountID: r.AccountID, AssessmentID: r.AssessmentID, FileName: r.FileName,
		ContentType: r.ContentType, SizeBytes: r.SizeBytes, Status: r.Status, ObjectKey: r.ObjectKey,
		UploadedBy: r.UploadedBy, CreatedAt: utc(r.CreatedAt)}
}

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

func subscriberToRow(s subscriber.Subscriber) subscriberRow {
	return subscriberRow{ID: s.ID, AccountID: s.AccountID, ListID: s.ListID, Email: s.Email, Status: s.Status,
		CreatedAt: s.CreatedAt, ConfirmedAt: s.ConfirmedAt}
}

func subscriberFromRow(r subscriberRow) subscriber.Subscriber {
	return subscriber.Subscriber{ID: r.ID, AccountID: r.AccountID, ListID: r.ListID, Email: r.Email, Status: r.Status,
		CreatedAt: utc(r.CreatedAt), ConfirmedAt: utcPtr(r.ConfirmedAt)}
}

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
}

func incidentToRow(in vendor.Incident) incidentRow {
	return incidentRow{ID: in.ID, VendorID: in.VendorID, Title: in.Title, Summary: in.Summary, IncidentType: in.IncidentType,
		AffectedService: in.AffectedService, PotentiallyImpactedData: in.PotentiallyImpactedData, Status: in.Status,
		Severity: in.Severity, URL: in.URL, Source: in.Source, ExternalID: in.ExternalID, PublishedAt: in.PublishedAt,
		Backfilled: in.Backfilled, CreatedAt: in.CreatedAt}
}

func incidentFromRow(r incidentRow) vendor.Incident {
	pid := r.PotentiallyImpactedData
	if pid == nil {
		pid = []string{}
	}
	return vendor.Incident{ID: r.ID, VendorID: r.VendorID, Title: r.Title, Summary: r.Summary, IncidentType: r.IncidentType,
		AffectedService: r.AffectedService, PotentiallyImpactedData: pid, Status: r.Status, Severity: r.Severity,
		URL: r.URL, Source: r.Source, ExternalID: r.ExternalID, PublishedAt: utc(r.PublishedAt),
		Backfilled: r.Backfilled, CreatedAt: utc(r.CreatedAt)}
}

type deliveryRow struct {
	bun.BaseModel `bun:"table:deliveries,alias:dl"`

	Key       string    `bun:"key,pk"`
	ClaimedAt time.Time `bun:"claimed_at"`
}

type runRow struct {
	bun.BaseModel `bun:"table:runs,alias:r"`

	ID        uuid.UUID `bun:"id,pk"`
	Kind      string    `bun:"kind"`
	Sections  []string  `bun:"sections,type:jsonb"`
	CreatedBy string    `bun:"created_by"`
	Jobs      []run.Job `bun:"jobs,type:jsonb"`
	CreatedAt time.Time `bun:"created_at"`
	UpdatedAt time.Time `bun:"updated_at"`
}

func runToRow(r run.Run) runRow {
	return runRow{ID: r.ID, Kind: r.Kind, Sections: r.Sections, CreatedBy: r.CreatedBy, Jobs: r.Jobs,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

func runFromRow(r runRow) run.Run {
	secs := r.Sections
	if secs == nil {
		secs = []string{}
	}
	jobs := r.Jobs
	if jobs == nil {
		jobs = []run.Job{}
	}
	return run.Run{ID: r.ID, Kind: r.Kind, Sections: secs, CreatedBy: r.CreatedBy, Jobs: jobs,
		CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt)}
}

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

func outboxToRow(m outbox.Message, now time.Time) outboxRow {
	payload := m.Payload
	if len(payload) == 0 {
		payload = json.RawMessage("null")
	}
	created := m.CreatedAt
	if created.IsZero() {
		created = now
	}
	return outboxRow{ID: m.ID, Kind: string(m.Kind), Payload: payload, CreatedAt: created, Attempts: m.Attempts,
		LastError: m.LastError, AvailableAt: created}
}

func outboxFromRow(r outboxRow) outbox.Message {
	return outbox.Message{ID: r.ID, Kind: outbox.Kind(r.Kind), Payload: r.Payload, CreatedAt: utc(r.CreatedAt),
		Attempts: r.Attempts, LastError: r.LastError}
}
