package sqlstore

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/attestations"
)

// attestationRow is a row of attestations; account_id is NULL for the
// directory's.
type attestationRow struct {
	bun.BaseModel `bun:"table:attestations,alias:at"`

	ID          uuid.UUID          `bun:"id,pk"`
	AccountID   *uuid.UUID         `bun:"account_id"`
	VendorID    uuid.UUID          `bun:"vendor_id"`
	Kind        string             `bun:"kind"`
	Details     attestationDetails `bun:"details,type:jsonb"`
	ObjectKey   string             `bun:"object_key"`
	ContentType string             `bun:"content_type"`
	CreatedAt   time.Time          `bun:"created_at"`
	CreatedBy   string             `bun:"created_by"`
}

// attestationDetails is the stored form of the fields of a record's kind:
// these keys are fixed (a rename needs a migration), dates are civil
// (2006-01-02) and a field of another kind is left out.
type attestationDetails struct {
	ReportType              int      `json:"report_type,omitempty"`
	PeriodStart             string   `json:"period_start,omitempty"`
	PeriodEnd               string   `json:"period_end,omitempty"`
	Auditor                 string   `json:"auditor,omitempty"`
	Opinion                 string   `json:"opinion,omitempty"`
	Exceptions              string   `json:"exceptions,omitempty"`
	SubserviceOrganizations []string `json:"subservice_organizations,omitempty"`
	CUECs                   []string `json:"cuecs,omitempty"`
	CertificateNumber       string   `json:"certificate_number,omitempty"`
	Issuer                  string   `json:"issuer,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
	ValidUntil              string   `json:"valid_until,omitempty"`
	PerformedOn             string   `json:"performed_on,omitempty"`
	Firm                    string   `json:"firm,omitempty"`
	OpenCritical            int      `json:"open_critical,omitempty"`
	OpenHigh                int      `json:"open_high,omitempty"`
}

func attestationDate(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.DateOnly)
}

func attestationDay(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// fromAttestation makes the row of a.
func fromAttestation(a attestations.Attestation) attestationRow {
	var acc *uuid.UUID
	if a.AccountID != uuid.Nil {
		id := a.AccountID
		acc = &id
	}
	return attestationRow{ID: a.ID, AccountID: acc, VendorID: a.VendorID, Kind: a.Kind, ObjectKey: a.ObjectKey, ContentType: a.ContentType,
		CreatedAt: a.CreatedAt.UTC(), CreatedBy: a.CreatedBy, Details: attestationDetails{
			ReportType: a.ReportType, PeriodStart: attestationDate(a.PeriodStart), PeriodEnd: attestationDate(a.PeriodEnd), Auditor: a.Auditor,
			Opinion: a.Opinion, Exceptions: a.Exceptions, SubserviceOrganizations: a.SubserviceOrganizations, CUECs: a.CUECs,
			CertificateNumber: a.CertificateNumber, Issuer: a.Issuer, Scope: a.Scope, ValidUntil: attestationDate(a.ValidUntil),
			PerformedOn: attestationDate(a.PerformedOn), Firm: a.Firm, OpenCritical: a.OpenCritical, OpenHigh: a.OpenHigh}}
}

// Core rebuilds the record.
func (r attestationRow) Core() attestations.Attestation {
	var acc uuid.UUID
	if r.AccountID != nil {
		acc = *r.AccountID
	}
	d := r.Details
	return attestations.AttestationFromStore(attestations.Attestation{ID: r.ID, AccountID: acc, VendorID: r.VendorID, Kind: r.Kind,
		ObjectKey: r.ObjectKey, ContentType: r.ContentType, CreatedAt: r.CreatedAt, CreatedBy: r.CreatedBy,
		ReportType: d.ReportType, PeriodStart: attestationDay(d.PeriodStart), PeriodEnd: attestationDay(d.PeriodEnd), Auditor: d.Auditor,
		Opinion: d.Opinion, Exceptions: d.Exceptions, SubserviceOrganizations: d.SubserviceOrganizations, CUECs: d.CUECs,
		CertificateNumber: d.CertificateNumber, Issuer: d.Issuer, Scope: d.Scope, ValidUntil: attestationDay(d.ValidUntil),
		PerformedOn: attestationDay(d.PerformedOn), Firm: d.Firm, OpenCritical: d.OpenCritical, OpenHigh: d.OpenHigh})
}
