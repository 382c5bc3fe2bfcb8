package attestations

import (
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

// Kinds of attestation.
const (
	KindSOC2      = "soc2"
	KindISO27001  = "iso27001"
	KindPentest   = "pentest"
	KindInsurance = "insurance"
	KindOther     = "other"
)

// KindValues lists the kinds.
func KindValues() []string {
	return []string{KindSOC2, KindISO27001, KindPentest, KindInsurance, KindOther}
}

// Opinions of a SOC 2 auditor.
const (
	OpinionUnqualified = "unqualified"
	OpinionQualified   = "qualified"
	OpinionAdverse     = "adverse"
	OpinionDisclaimer  = "disclaimer"
)

// OpinionValues lists the opinions.
func OpinionValues() []string {
	return []string{OpinionUnqualified, OpinionQualified, OpinionAdverse, OpinionDisclaimer}
}

// Visibility of a record: the account's own, or the directory's, shared
// with every account. (ISO 27001 certificates have a "scope" of their own,
// so the record's sharing is named visibility.)
const (
	VisibilityAccount   = "account"
	VisibilityDirectory = "directory"
)

// VisibilityValues lists the visibilities.
func VisibilityValues() []string { return []string{VisibilityAccount, VisibilityDirectory} }

// Text bounds.
const (
	MaxTextLen  = 200
	MaxNotesLen = 4000
	MaxListLen  = 100
)

// Attestation is one evidence record on a vendor. AccountID is uuid.Nil
// for a directory record. Dates are civil (midnight UTC); the zero time is
// unset. Only the fields of its Kind are set.
type Attestation struct {
	ID        uuid.UUID
	AccountID uuid.UUID
	VendorID  uuid.UUID
	Kind      string
	CreatedAt time.Time
	CreatedBy string
	// ObjectKey is where its file goes in the evidence blob store;
	// ContentType is the type the upload must carry.
	ObjectKey   string
	ContentType string

	// soc2
	ReportType              int
	PeriodStart, PeriodEnd  time.Time
	Auditor                 string
	Opinion                 string
	Exceptions              string
	SubserviceOrganizations []string
	CUECs                   []string
	// iso27001
	CertificateNumber string
	Issuer            string
	Scope             string
	// iso27001, insurance, other
	ValidUntil time.Time
	// pentest
	PerformedOn  time.Time
	Firm         string
	OpenCritical int
	OpenHigh     int
}

// Visibility is VisibilityDirectory for a directory record.
func (a Attestation) Visibility() string {
	if a.AccountID == uuid.Nil {
		return VisibilityDirectory
	}
	return VisibilityAccount
}

// Input is a new record as the caller gives it: nil (or a nil list) is a
// field not given.
type Input struct {
	Kind                    string
	ReportType              *int
	PeriodStart, PeriodEnd  *string
	Auditor                 *string
	Opinion                 *string
	Exceptions              *string
	SubserviceOrganizations []string
	CUECs                   []string
	CertificateNumber       *string
	Issuer                  *string
	Scope                   *string
	ValidUntil              *string
	PerformedOn             *string
	Firm                    *string
	OpenCritical            *int
	OpenHigh                *int
	// ContentType is the type of the file to upload; empty is PDF.
	ContentType string
}

// field names of errors (Go-side paths, see apps/api/fields.go).
const (
	fKind         = "Attestation.Kind"
	fReportType   = "Attestation.ReportType"
	fPeriodStart  = "Attestation.PeriodStart"
	fPeriodEnd    = "Attestation.PeriodEnd"
	fAuditor      = "Attestation.Auditor"
	fOpinion      = "Attestation.Opinion"
	fExceptions   = "Attestation.Exceptions"
	fSubservice   = "Attestation.SubserviceOrganizations"
	fCUECs        = "Attestation.CUECs"
	fCertificate  = "Attestation.CertificateNumber"
	fIssuer       = "Attestation.Issuer"
	fScope        = "Attestation.Scope"
	fValidUntil   = "Attestation.ValidUntil"
	fPerformedOn  = "Attestation.PerformedOn"
	fFirm         = "Attestation.Firm"
	fOpenCritical = "Attestation.OpenCritical"
	fOpenHigh     = "Attestation.OpenHigh"
	fContentType  = "Attestation.ContentType"
)

// kindFields are the fields each kind takes; any other given is refused.
var kindFields = map[string][]string{
	KindSOC2:      {fReportType, fPeriodStart, fPeriodEnd, fAuditor, fOpinion, fExceptions, fSubservice, fCUECs},
	KindISO27001:  {fCertificate, fIssuer, fScope, fValidUntil},
	KindPentest:   {fPerformedOn, fFirm, fOpenCritical, fOpenHigh},
	KindInsurance: {fValidUntil},
	KindOther:     {fValidUntil},
}

// given names the fields of in that were given.
func (in Input) given() []string {
	var out []string
	add := func(name string, ok bool) {
		if ok {
			out = append(out, name)
		}
	}
	add(fReportType, in.ReportType != nil)
	add(fPeriodStart, in.PeriodStart != nil)
	add(fPeriodEnd, in.PeriodEnd != nil)
	add(fAuditor, in.Auditor != nil)
	add(fOpinion, in.Opinion != nil)
	add(fExceptions, in.Exceptions != nil)
	add(fSubservice, in.SubserviceOrganizations != nil)
	add(fCUECs, in.CUECs != nil)
	add(fCertificate, in.CertificateNumber != nil)
	add(fIssuer, in.Issuer != nil)
	add(fScope, in.Scope != nil)
	add(fValidUntil, in.ValidUntil != nil)
	add(fPerformedOn, in.PerformedOn != nil)
	add(fFirm, in.Firm != nil)
	add(fOpenCritical, in.OpenCritical != nil)
	add(fOpenHigh, in.OpenHigh != nil)
	return out
}

// New validates in and builds a record of the account (uuid.Nil: of the
// directory) on a vendor. Every problem is reported at once, each naming
// its field: an unknown kind, a field of another kind, a missing required
// field, a date that is not one, a value outside its enum or range.
func New(id, accountID, vendorID uuid.UUID, in Input, by string, now time.Time) (Attestation, error) {
	var errs core.Fields
	kind := strings.ToLower(strings.TrimSpace(in.Kind))
	allowed, ok := kindFields[kind]
	if !ok {
		if kind == "" {
			errs.Add(fKind, "is required (one of %s)", strings.Join(KindValues(), ", "))
		} else {
			errs.Add(fKind, "must be one of %s", strings.Join(KindValues(), ", "))
		}
		return Attestation{}, errs.Err()
	}
	for _, f := range in.given() {
		if !slices.Contains(allowed, f) {
			errs.Add(f, "is not a field of a %s attestation", kind)
		}
	}
	a := Attestation{ID: id, AccountID: accountID, VendorID: vendorID, Kind: kind, CreatedAt: now.UTC(), CreatedBy: by}
	switch kind {
	case KindSOC2:
		switch {
		case in.ReportType == nil:
			errs.Add(fReportType, "is required (1 or 2)")
		case *in.ReportType != 1 && *in.ReportType != 2:
			errs.Add(fReportType, "must be 1 or 2")
		default:
			a.ReportType = *in.ReportType
		}
		a.PeriodStart = requiredDate(&errs, fPeriodStart, in.PeriodStart)
		a.PeriodEnd = requiredDate(&errs, fPeriodEnd, in.PeriodEnd)
		if !a.PeriodStart.IsZero() && !a.PeriodEnd.IsZero() && a.PeriodEnd.Before(a.PeriodStart) {
			errs.Add(fPeriodEnd, "must not be before period_start")
		}
		a.Auditor = requiredText(&errs, fAuditor, in.Auditor, MaxTextLen)
		switch op := strings.ToLower(strings.TrimSpace(deref(in.Opinion))); {
		case op == "":
			errs.Add(fOpinion, "is required (one of %s)", strings.Join(OpinionValues(), ", "))
		case !slices.Contains(OpinionValues(), op):
			errs.Add(fOpinion, "must be one of %s", strings.Join(OpinionValues(), ", "))
		default:
			a.Opinion = op
		}
		a.Exceptions = optionalText(&errs, fExceptions, in.Exceptions, MaxNotesLen)
		a.SubserviceOrganizations = textList(&errs, fSubservice, in.SubserviceOrganizations)
		a.CUECs = textList(&errs, fCUECs, in.CUECs)
	case KindISO27001:
		a.CertificateNumber = requiredText(&errs, fCertificate, in.CertificateNumber, MaxTextLen)
		a.Issuer = requiredText(&errs, fIssuer, in.Issuer, MaxTextLen)
		a.Scope = optionalText(&errs, fScope, in.Scope, MaxNotesLen)
		a.ValidUntil = requiredDate(&errs, fValidUntil, in.ValidUntil)
	case KindPentest:
		a.PerformedOn = requiredDate(&errs, fPerformedOn, in.PerformedOn)
		a.Firm = requiredText(&errs, fFirm, in.Firm, MaxTextLen)
		a.OpenCritical = count(&errs, fOpenCritical, in.OpenCritical)
		a.OpenHigh = count(&errs, fOpenHigh, in.OpenHigh)
	case KindInsurance, KindOther:
		a.ValidUntil = requiredDate(&errs, fValidUntil, in.ValidUntil)
	}
	ct := strings.ToLower(strings.TrimSpace(in.ContentType))
	if ct == "" {
		ct = "application/pdf"
	}
	if !slices.Contains(FileTypes, ct) {
		errs.Add(fContentType, "%q is not allowed (allowed: %s)", in.ContentType, strings.Join(FileTypes, ", "))
	}
	a.ContentType = ct
	if err := errs.Err(); err != nil {
		return Attestation{}, err
	}
	a.ObjectKey = ObjectKey(a.AccountID, a.VendorID, a.ID)
	return a, nil
}

// FileTypes are the content types a report or certificate may have.
var FileTypes = []string{"application/pdf", "image/png", "image/jpeg", "text/plain", "application/zip"}

var extensions = map[string]string{"application/pdf": ".pdf", "image/png": ".png", "image/jpeg": ".jpg", "text/plain": ".txt", "application/zip": ".zip"}

// FileName is the name a record's file downloads as: its kind and id, with
// the extension of its content type ("soc2-<id>.pdf").
func (a Attestation) FileName() string {
	return a.Kind + "-" + a.ID.String() + extensions[a.ContentType]
}

// ObjectKey is where a record's file goes in the evidence blob store:
// beside the account's review evidence (accounts/<id>/...), so an account
// deleted takes it along, or under the directory's vendor.
func ObjectKey(accountID, vendorID, id uuid.UUID) string {
	if accountID == uuid.Nil {
		return "directory/vendors/" + vendorID.String() + "/attestations/" + id.String()
	}
	return "accounts/" + accountID.String() + "/attestations/" + id.String()
}

// AttestationFromStore rebuilds a record a store read: it is not checked
// again (a row written under older rules must still read); times are
// normalised to UTC and lists to non-nil.
func AttestationFromStore(a Attestation) Attestation {
	a.CreatedAt = a.CreatedAt.UTC()
	for _, d := range []*time.Time{&a.PeriodStart, &a.PeriodEnd, &a.ValidUntil, &a.PerformedOn} {
		if !d.IsZero() {
			*d = d.UTC()
		}
	}
	if a.Kind == KindSOC2 {
		a.SubserviceOrganizations = nonNil(a.SubserviceOrganizations)
		a.CUECs = nonNil(a.CUECs)
	}
	return a
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ParseCivilDate reads a civil date (2006-01-02) as midnight UTC.
func ParseCivilDate(field, raw string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, strings.TrimSpace(raw))
	if err != nil {
		return time.Time{}, core.Invalid(field, "must be a date (2006-01-02)")
	}
	return d, nil
}

func requiredDate(errs *core.Fields, field string, raw *string) time.Time {
	if raw == nil || strings.TrimSpace(*raw) == "" {
		errs.Add(field, "is required (a date, 2006-01-02)")
		return time.Time{}
	}
	d, err := ParseCivilDate(field, *raw)
	errs.AddErr(err)
	return d
}

func optionalText(errs *core.Fields, field string, raw *string, max int) string {
	s, _ := text(errs, field, raw, max)
	return s
}

func requiredText(errs *core.Fields, field string, raw *string, max int) string {
	s, ok := text(errs, field, raw, max)
	if ok && s == "" {
		errs.Add(field, "is required")
	}
	return s
}

// text reads an optional plain text; false when it was refused.
func text(errs *core.Fields, field string, raw *string, max int) (string, bool) {
	if raw == nil {
		return "", true
	}
	s, err := core.PlainText(field, *raw, max)
	if err != nil {
		errs.AddErr(err)
		return "", false
	}
	return s, true
}

func textList(errs *core.Fields, field string, raw []string) []string {
	out := []string{}
	if len(raw) > MaxListLen {
		errs.Add(field, "at most %d entries", MaxListLen)
		return out
	}
	for i, r := range raw {
		s, err := core.PlainText(field, r, MaxTextLen)
		if err != nil {
			errs.Add(field, "entry %d: %s", i, err)
			continue
		}
		if s == "" {
			errs.Add(field, "entry %d must not be empty", i)
			continue
		}
		out = append(out, s)
	}
	return out
}

func count(errs *core.Fields, field string, n *int) int {
	if n == nil {
		return 0
	}
	if *n < 0 {
		errs.Add(field, "must be 0 or more")
		return 0
	}
	return *n
}
