package api

import (
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// Parameters shared by many operations, declared once and embedded in each
// operation's input (huma reads the parameters of embedded structs).

// AccountParam is the account every account-scoped route acts in.
type AccountParam struct {
	AccountID string `query:"account-id" required:"true" doc:"Organization UUID, or individual for the caller's personal space"`
}

// ListParams name a list: by id in vendor-list-id, or by id or name in
// vendor-list. Where a route needs a list, one of them is required.
type ListParams struct {
	ListID     string `query:"vendor-list-id" doc:"List id"`
	VendorList string `query:"vendor-list" doc:"List id or name"`
}

// AssessmentParam names an assessment.
type AssessmentParam struct {
	AssessmentID string `query:"assessment-id" required:"true" doc:"The assessment"`
}

// DocumentParam names an evidence document.
type DocumentParam struct {
	DocumentID string `query:"document-id" required:"true" doc:"The document"`
}

// VendorPath names a vendor of the directory in the path.
type VendorPath struct {
	IDOrName string `path:"id_or_name" doc:"Vendor UUID or canonical name (case-insensitive)"`
}

// RunPath names an enrichment or backfill run in the path.
type RunPath struct {
	RunID string `path:"run_id" format:"uuid"`
}

// LegacyVendorQuery reads the hyphenated vendor selectors that the original
// web client sends with assessment upserts (vendor-id, vendor-profile-id,
// vendor-name). They are accepted but not documented: the contract's names
// are vendor_id, vendor_profile_id and vendor_name, and declaring both
// spellings makes generated clients declare the same name twice.
type LegacyVendorQuery struct {
	vendorID, vendorProfileID, vendorName string
}

// Resolve reads the undocumented spellings from the query.
func (q *LegacyVendorQuery) Resolve(ctx huma.Context) []error {
	u := ctx.URL()
	v := u.Query()
	q.vendorID, q.vendorProfileID, q.vendorName = v.Get("vendor-id"), v.Get("vendor-profile-id"), v.Get("vendor-name")
	return nil
}

// The references a request names are parsed here, once, at the edge: the
// use cases take typed values that cannot be malformed.

// accountRef parses account-id.
func (p AccountParam) accountRef() (accounts.AccountRef, error) {
	return accounts.ParseAccountRef(p.AccountID)
}

// listRef parses vendor-list-id and vendor-list.
func (p ListParams) listRef() (lists.ListRef, error) {
	return lists.ParseListRef(p.ListID, p.VendorList)
}

// refs parses the account and the list a request names, in that order.
func refs(a AccountParam, l ListParams) (accounts.AccountRef, lists.ListRef, error) {
	acc, err := a.accountRef()
	if err != nil {
		return acc, lists.ListRef{}, err
	}
	lr, err := l.listRef()
	return acc, lr, err
}

// accountAnd parses the account a request names and then what it acts on
// in it (in.assessmentID, in.documentID, ScopeParam.listRef), in that order.
func accountAnd[T any](a AccountParam, parse func() (T, error)) (accounts.AccountRef, T, error) {
	acc, err := a.accountRef()
	if err != nil {
		var zero T
		return acc, zero, err
	}
	parsed, err := parse()
	return acc, parsed, err
}

// assessmentID parses assessment-id.
func (p AssessmentParam) assessmentID() (uuid.UUID, error) {
	return assessments.ParseAssessmentID(p.AssessmentID)
}

// documentID parses document-id.
func (p DocumentParam) documentID() (uuid.UUID, error) {
	return assessments.ParseDocumentID(p.DocumentID)
}

// vendorRef parses the vendor of the path.
func (p VendorPath) vendorRef() (vendors.Ref, error) { return vendors.ParseRef(p.IDOrName) }

// runID parses the run of the path.
func (p RunPath) runID() (uuid.UUID, error) { return accounts.ParseID("run_id", p.RunID) }

// optionalID parses an id given in field, nil when it is blank.
func optionalID(field, raw string) (*uuid.UUID, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, nil
	}
	id, err := accounts.ParseID(field, raw)
	return &id, err
}
