package api

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/attestations"
)

// AttestationJSON is an attestation as every read shows it: flat, with the
// fields of its kind only, and what is derived on the day of the read.
type AttestationJSON struct {
	ID          string    `json:"id" format:"uuid"`
	VendorID    string    `json:"vendor_id" format:"uuid"`
	Kind        string    `json:"kind" enum:"soc2,iso27001,pentest,insurance,other"`
	Visibility  string    `json:"visibility" enum:"account,directory" doc:"account: the account's own; directory: the vendor's public trust documents, recorded by a platform admin and shown to every account (read-only to them)"`
	ValidUntil  string    `json:"valid_until" format:"date" doc:"Derived: SOC 2 12 months after period_end, pen test 12 months after performed_on (the same day a year later, or that month's last day); the record's own valid_until for the other kinds"`
	State       string    `json:"state" enum:"current,expiring,expired" doc:"Derived on the day of the read (UTC): expiring from 60 days before valid_until (that day included) through valid_until, expired after it"`
	HasFile     bool      `json:"has_file" doc:"The report or certificate has been uploaded"`
	ContentType string    `json:"content_type" doc:"The type its file is uploaded as"`
	CreatedAt   time.Time `json:"created_at"`
	CreatedBy   string    `json:"created_by"`

	ReportType              *int      `json:"report_type,omitempty" doc:"soc2: 1 or 2"`
	PeriodStart             *string   `json:"period_start,omitempty" format:"date" doc:"soc2"`
	PeriodEnd               *string   `json:"period_end,omitempty" format:"date" doc:"soc2"`
	Auditor                 *string   `json:"auditor,omitempty" doc:"soc2"`
	Opinion                 *string   `json:"opinion,omitempty" doc:"soc2: unqualified, qualified, adverse or disclaimer"`
	Exceptions              *string   `json:"exceptions,omitempty" doc:"soc2: the exceptions noted, as text"`
	SubserviceOrganizations *[]string `json:"subservice_organizations,omitempty" doc:"soc2: subservice organizations carved out"`
	CUECs                   *[]string `json:"cuecs,omitempty" doc:"soc2: complementary user entity controls"`
	CertificateNumber       *string   `json:"certificate_number,omitempty" doc:"iso27001"`
	Issuer                  *string   `json:"issuer,omitempty" doc:"iso27001: the certification body"`
	Scope                   *string   `json:"scope,omitempty" doc:"iso27001: the certificate's scope (the record's own sharing is visibility)"`
	PerformedOn             *string   `json:"performed_on,omitempty" format:"date" doc:"pentest"`
	Firm                    *string   `json:"firm,omitempty" doc:"pentest"`
	OpenCritical            *int      `json:"open_critical,omitempty" doc:"pentest: critical findings still open"`
	OpenHigh                *int      `json:"open_high,omitempty" doc:"pentest: high findings still open"`
}

func attestationDate(t time.Time) *string {
	s := t.Format(time.DateOnly)
	return &s
}

func attestationJSON(v attestations.View) AttestationJSON {
	a := v.Attestation
	out := AttestationJSON{ID: a.ID.String(), VendorID: a.VendorID.String(), Kind: a.Kind, Visibility: a.Visibility(),
		ValidUntil: v.ValidUntil.Format(time.DateOnly), State: v.State, HasFile: v.HasFile, ContentType: a.ContentType,
		CreatedAt: a.CreatedAt, CreatedBy: a.CreatedBy}
	switch a.Kind {
	case attestations.KindSOC2:
		out.ReportType, out.PeriodStart, out.PeriodEnd = &a.ReportType, attestationDate(a.PeriodStart), attestationDate(a.PeriodEnd)
		out.Auditor, out.Opinion, out.Exceptions = &a.Auditor, &a.Opinion, &a.Exceptions
		out.SubserviceOrganizations, out.CUECs = &a.SubserviceOrganizations, &a.CUECs
	case attestations.KindISO27001:
		out.CertificateNumber, out.Issuer, out.Scope = &a.CertificateNumber, &a.Issuer, &a.Scope
	case attestations.KindPentest:
		out.PerformedOn, out.Firm, out.OpenCritical, out.OpenHigh = attestationDate(a.PerformedOn), &a.Firm, &a.OpenCritical, &a.OpenHigh
	}
	return out
}

// AttestationCreatedJSON is a new attestation with the write-once upload
// of its file.
type AttestationCreatedJSON struct {
	AttestationJSON
	UploadURL string            `json:"upload_url" doc:"Where the report or certificate goes, once: the evidence store accepts one upload, of content_type, up to 25 MiB"`
	Method    string            `json:"method" doc:"PUT, or POST for a form upload with fields"`
	Headers   map[string]string `json:"headers" doc:"Headers the upload must carry"`
	Fields    map[string]string `json:"fields,omitempty" doc:"Form fields to send before the file part named file (POST uploads only)"`
	ExpiresAt time.Time         `json:"expires_at" doc:"The upload URL works until then (15 minutes)"`
}

// AttestationBody is a new attestation: kind and the fields of that kind;
// a field of another kind is 422.
type AttestationBody struct {
	Kind                    string   `json:"kind" doc:"soc2, iso27001, pentest, insurance or other"`
	ContentType             string   `json:"content_type,omitempty" doc:"The type of the file to upload: application/pdf (default), image/png, image/jpeg, text/plain or application/zip"`
	ReportType              *int     `json:"report_type,omitempty" doc:"soc2, required: 1 or 2"`
	PeriodStart             *string  `json:"period_start,omitempty" doc:"soc2, required (2006-01-02)"`
	PeriodEnd               *string  `json:"period_end,omitempty" doc:"soc2, required (2006-01-02), not before period_start"`
	Auditor                 *string  `json:"auditor,omitempty" doc:"soc2, required"`
	Opinion                 *string  `json:"opinion,omitempty" doc:"soc2, required: unqualified, qualified, adverse or disclaimer"`
	Exceptions              *string  `json:"exceptions,omitempty" doc:"soc2"`
	SubserviceOrganizations []string `json:"subservice_organizations,omitempty" limit:"attestation-list" doc:"soc2"`
	CUECs                   []string `json:"cuecs,omitempty" limit:"attestation-list" doc:"soc2"`
	CertificateNumber       *string  `json:"certificate_number,omitempty" doc:"iso27001, required"`
	Issuer                  *string  `json:"issuer,omitempty" doc:"iso27001, required"`
	Scope                   *string  `json:"scope,omitempty" doc:"iso27001"`
	ValidUntil              *string  `json:"valid_until,omitempty" doc:"iso27001, insurance, other: required (2006-01-02); derived for soc2 and pentest"`
	PerformedOn             *string  `json:"performed_on,omitempty" doc:"pentest, required (2006-01-02)"`
	Firm                    *string  `json:"firm,omitempty" doc:"pentest, required"`
	OpenCritical            *int     `json:"open_critical,omitempty" doc:"pentest: 0 or more (default 0)"`
	OpenHigh                *int     `json:"open_high,omitempty" doc:"pentest: 0 or more (default 0)"`
}

func (b AttestationBody) input() attestations.Input {
	return attestations.Input{Kind: b.Kind, ContentType: b.ContentType, ReportType: b.ReportType, PeriodStart: b.PeriodStart, PeriodEnd: b.PeriodEnd,
		Auditor: b.Auditor, Opinion: b.Opinion, Exceptions: b.Exceptions, SubserviceOrganizations: b.SubserviceOrganizations, CUECs: b.CUECs,
		CertificateNumber: b.CertificateNumber, Issuer: b.Issuer, Scope: b.Scope, ValidUntil: b.ValidUntil, PerformedOn: b.PerformedOn,
		Firm: b.Firm, OpenCritical: b.OpenCritical, OpenHigh: b.OpenHigh}
}

// AttestationVendorParam names the vendor of an attestation by id.
type AttestationVendorParam struct {
	VendorID string `query:"vendor-id" required:"true" doc:"The vendor's id" format:"uuid"`
}

func (p AttestationVendorParam) vendorID() (uuid.UUID, error) {
	return accounts.ParseID("vendor-id", p.VendorID)
}

// AttestationParam names an attestation.
type AttestationParam struct {
	AttestationID string `query:"attestation-id" required:"true" doc:"The attestation's id" format:"uuid"`
}

func (p AttestationParam) attestationID() (uuid.UUID, error) {
	return attestations.ParseID(p.AttestationID)
}

type attestationsListIn struct {
	AccountParam
	AttestationVendorParam
}

type attestationsListOut struct {
	Body struct {
		Attestations []AttestationJSON `json:"attestations" doc:"The account's own on the vendor and the directory's, oldest first"`
	}
}

type attestationsCreateIn struct {
	AccountParam
	AttestationVendorParam
	Body AttestationBody
}

type directoryAttestationCreateIn struct {
	AttestationVendorParam
	Body AttestationBody
}

type attestationsCreateOut struct {
	Body AttestationCreatedJSON
}

type attestationsDeleteIn struct {
	AccountParam
	AttestationParam
}

type attestationDownloadOut struct {
	Body struct {
		AttestationID string    `json:"attestation_id" format:"uuid"`
		DownloadURL   string    `json:"download_url"`
		Method        string    `json:"method"`
		ExpiresAt     time.Time `json:"expires_at"`
	}
}

type directoryAttestationDeleteIn struct {
	AttestationParam
}

// attestationsHandler answers the Attestations operations with the
// attestations area of the core.
type attestationsHandler struct{ *Server }

func attestationCreated(c attestations.Created) *attestationsCreateOut {
	out := &attestationsCreateOut{Body: AttestationCreatedJSON{AttestationJSON: attestationJSON(c.View), UploadURL: c.Upload.URL,
		Method: c.Upload.Method, Headers: c.Upload.Headers, ExpiresAt: c.Upload.ExpiresAt}}
	if out.Body.Headers == nil {
		out.Body.Headers = map[string]string{}
	}
	if len(c.Upload.Fields) > 0 {
		out.Body.Fields = c.Upload.Fields
	}
	return out
}

// listAttestations answers list-attestations.
func (h attestationsHandler) listAttestations(ctx context.Context, in *attestationsListIn) (*attestationsListOut, error) {
	acc, vid, err := accountAnd(in.AccountParam, in.vendorID)
	if err != nil {
		return nil, err
	}
	vs, err := h.attestations.List(ctx, actor(ctx), acc, vid)
	if err != nil {
		return nil, err
	}
	out := &attestationsListOut{}
	out.Body.Attestations = make([]AttestationJSON, 0, len(vs))
	for _, v := range vs {
		out.Body.Attestations = append(out.Body.Attestations, attestationJSON(v))
	}
	return out, nil
}

// createAttestation answers create-attestation.
func (h attestationsHandler) createAttestation(ctx context.Context, in *attestationsCreateIn) (*attestationsCreateOut, error) {
	acc, vid, err := accountAnd(in.AccountParam, in.vendorID)
	if err != nil {
		return nil, err
	}
	c, err := h.attestations.Create(ctx, actor(ctx), acc, vid, in.Body.input())
	if err != nil {
		return nil, err
	}
	return attestationCreated(c), nil
}

// deleteAttestation answers delete-attestation.
func (h attestationsHandler) deleteAttestation(ctx context.Context, in *attestationsDeleteIn) (*struct{}, error) {
	acc, id, err := accountAnd(in.AccountParam, in.attestationID)
	if err != nil {
		return nil, err
	}
	return nil, h.attestations.Delete(ctx, actor(ctx), acc, id)
}

// createDirectoryAttestation answers create-directory-attestation.
func (h attestationsHandler) createDirectoryAttestation(ctx context.Context, in *directoryAttestationCreateIn) (*attestationsCreateOut, error) {
	vid, err := in.vendorID()
	if err != nil {
		return nil, err
	}
	c, err := h.attestations.CreateDirectory(ctx, actor(ctx), vid, in.Body.input())
	if err != nil {
		return nil, err
	}
	return attestationCreated(c), nil
}

// deleteDirectoryAttestation answers delete-directory-attestation.
func (h attestationsHandler) deleteDirectoryAttestation(ctx context.Context, in *directoryAttestationDeleteIn) (*struct{}, error) {
	id, err := in.attestationID()
	if err != nil {
		return nil, err
	}
	return nil, h.attestations.DeleteDirectory(ctx, actor(ctx), id)
}

// attestationDownload answers get-attestation-download-url.
func (h attestationsHandler) attestationDownload(ctx context.Context, in *attestationsDeleteIn) (*attestationDownloadOut, error) {
	acc, id, err := accountAnd(in.AccountParam, in.attestationID)
	if err != nil {
		return nil, err
	}
	req, err := h.attestations.DownloadURL(ctx, actor(ctx), acc, id)
	if err != nil {
		return nil, err
	}
	out := &attestationDownloadOut{}
	out.Body.AttestationID, out.Body.DownloadURL, out.Body.Method, out.Body.ExpiresAt = id.String(), req.URL, req.Method, req.ExpiresAt
	return out, nil
}
