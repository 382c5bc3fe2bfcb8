package api

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// ListJSON is a vendor list.
type ListJSON struct {
	ID          string    `json:"id" format:"uuid"`
	AccountID   string    `json:"account_id" format:"uuid"`
	Name        string    `json:"name"`
	VendorCount int       `json:"vendor_count"`
	CreatedAt   time.Time `json:"created_at"`
}

// ProductJSON is a product row.
type ProductJSON struct {
	ID          string    `json:"id" format:"uuid"`
	ProductName string    `json:"product_name"`
	VendorID    string    `json:"vendor_id,omitempty" format:"uuid"`
	ListID      string    `json:"vendor_list_id,omitempty" format:"uuid"`
	CreatedAt   time.Time `json:"created_at"`
}

// EntryJSON is a vendor on a list.
type EntryJSON struct {
	VendorID         string        `json:"vendor_id" format:"uuid"`
	VendorName       string        `json:"vendor_name" doc:"The directory's canonical name, which the vendor is matched and sorted on (Acme)"`
	DisplayName      string        `json:"display_name" doc:"The name the vendor was added to this list under (Acme Corp), or vendor_name when it was added under that or imported"`
	WebsiteURL       string        `json:"website_url"`
	IsCustom         bool          `json:"is_custom"`
	EnrichmentStatus string        `json:"enrichment_status" doc:"Empty while the vendor has no profile (its first enrichment is queued or running, which GET /vendor/enrich/{run_id} tells, or found nothing), then done, failed or needs_website (known by name only, no website found); never queued or running, which are states of a run's jobs"`
	AlertsEnabled    bool          `json:"alerts_enabled"`
	Products         []ProductJSON `json:"products"`
	AddedAt          time.Time     `json:"added_at"`
	*EntryReviewJSON
}

func listJSON(l lists.List) ListJSON {
	return ListJSON{ID: l.ID.String(), AccountID: l.AccountID.String(), Name: l.Name, VendorCount: l.VendorCount, CreatedAt: l.CreatedAt}
}

func productJSON(p lists.Product, full bool) ProductJSON {
	out := ProductJSON{ID: p.ID.String(), ProductName: p.Name, CreatedAt: p.CreatedAt}
	if full {
		out.VendorID, out.ListID = p.VendorID.String(), p.ListID.String()
	}
	return out
}

func entryJSON(e lists.Entry) EntryJSON {
	ps := make([]ProductJSON, 0, len(e.Products))
	for _, p := range e.Products {
		ps = append(ps, productJSON(p, false))
	}
	return EntryJSON{VendorID: e.VendorID.String(), VendorName: e.VendorName, DisplayName: cmp.Or(e.DisplayName, e.VendorName), WebsiteURL: e.WebsiteURL, IsCustom: e.IsCustom,
		EnrichmentStatus: e.EnrichmentStatus, AlertsEnabled: e.AlertsEnabled, Products: ps, AddedAt: e.AddedAt}
}

// VendorEntry is a vendor in a save-vendors body: a plain name string, or
// an object with vendor_name and website_url.
type VendorEntry struct {
	VendorName string `json:"vendor_name"`
	WebsiteURL string `json:"website_url,omitempty"`
}

// UnmarshalJSON accepts a string or an object.
func (v *VendorEntry) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*v = VendorEntry{VendorName: s}
		return nil
	}
	type plain VendorEntry
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*v = VendorEntry(p)
	return nil
}

// Schema documents the string-or-object form.
func (VendorEntry) Schema(r huma.Registry) *huma.Schema {
	// Only the shape is declared: the service checks names and websites,
	// so a bad one is reported at its own location with a clear message.
	return &huma.Schema{OneOf: []*huma.Schema{
		{Type: "string", Description: "Vendor name (1 to 200 characters)"},
		{Type: "object", AdditionalProperties: false, Required: []string{"vendor_name"}, Properties: map[string]*huma.Schema{
			"vendor_name": {Type: "string", Description: "Vendor name (1 to 200 characters)"},
			"website_url": {Type: "string", Description: "http(s) URL of the vendor's website (at most 2000 characters)"},
		}},
	}}
}

type listsGetIn struct {
	AccountParam
	ListParams
	ListShape
}

// listsGetBody is the answer of get-vendor-lists. It is an unnamed struct
// type, as listsGetOut's Body was before the whole-list read streamed, so
// that the document still names its schema ListsGetOutBody.
type listsGetBody = struct {
	Lists   *[]ListJSON  `json:"lists,omitempty" doc:"Without vendor-list: the account's lists"`
	List    *ListJSON    `json:"list,omitempty" doc:"With vendor-list: the list"`
	Vendors *[]EntryJSON `json:"vendors,omitempty" doc:"With vendor-list: its vendors"`
	// NextCursor is set by a shaped read with more rows to come.
	NextCursor string `json:"next_cursor,omitempty" doc:"With limit: the cursor of the next page; absent on the last"`
}

// listsGetOut writes the answer itself: a list with all its vendors is
// streamed a page at a time (streamList), the other reads write a
// listsGetBody as huma would (writeJSON). The operation declares
// listsGetBody as its 200 answer.
type listsGetOut struct {
	ETag string `header:"ETag" doc:"With vendor-list: the list's revision (strong), for If-Match on save-vendors, add-vendors and remove-vendors"`
	Body func(huma.Context)
}

type listsPostIn struct {
	AccountParam
	Operation  ListOperation `query:"operation" doc:"Without it, creates the list named by vendor-list"`
	VendorList string        `query:"vendor-list" doc:"Name of the list to create; or the target list (id or name) of an operation"`
	ListID     string        `query:"vendor-list-id" doc:"Target list id of an operation (default master-list)"`
	IfMatch    string        `header:"If-Match" doc:"save-vendors, add-vendors, remove-vendors: the ETag of the list read the change was made on; 412 (and nothing changed) when the list changed since"`
	Body       *struct {
		Vendors   []VendorEntry `json:"vendors,omitempty" maxItems:"5000" doc:"save-vendors: the whole new membership of the list; add-vendors: vendors to add; remove-vendors: vendors to take off (by name)"`
		CSV       *string       `json:"csv,omitempty" doc:"import-csv: CSV text with a header row"`
		DryRun    bool          `json:"dry_run,omitempty" doc:"import-csv: validate and report only"`
		RowOffset int           `json:"row_offset,omitempty" minimum:"0" doc:"import-csv: first data row of the batch (0-based)"`
		RowLimit  int           `json:"row_limit,omitempty" minimum:"0" limit:"csv-rows" doc:"import-csv: rows in the batch (default 100)"`
	} `required:"false"`
}

// OrgEnrichmentJSON summarises enrichment queuing and quota.
type OrgEnrichmentJSON struct {
	Queued       int `json:"queued"`
	AlreadyKnown int `json:"already_known"`
	Quota        struct {
		Limit     int `json:"limit"`
		Used      int `json:"used"`
		Remaining int `json:"remaining"`
	} `json:"quota"`
	Errors []EnrichmentErrorJSON `json:"errors"`

	QueuedVendors []string `json:"queued_vendors" doc:"The names of the vendors queued (in a dry run: that would be), in order"`
}

// EnrichmentErrorJSON is a vendor saved but not queued.
type EnrichmentErrorJSON struct {
	VendorName string `json:"vendor_name"`
	Code       string `json:"code"`
	Message    string `json:"message"`
}

func orgEnrichment(q lists.QuotaReport) OrgEnrichmentJSON {
	out := OrgEnrichmentJSON{Queued: q.Queued, AlreadyKnown: q.AlreadyKnown, Errors: []EnrichmentErrorJSON{}, QueuedVendors: nonNil(q.QueuedVendors)}
	out.Quota.Limit, out.Quota.Used, out.Quota.Remaining = q.Limit, q.Used, q.Remaining()
	for _, e := range q.Errors {
		out.Errors = append(out.Errors, EnrichmentErrorJSON{VendorName: e.VendorName, Code: e.Code, Message: e.Message})
	}
	return out
}

// VendorRefJSON names a vendor in a write answer.
type VendorRefJSON struct {
	VendorID   string `json:"vendor_id" format:"uuid"`
	VendorName string `json:"vendor_name"`
	IsCustom   bool   `json:"is_custom"`
}

func vendorRefs(vs []vendors.Vendor) []VendorRefJSON {
	out := make([]VendorRefJSON, 0, len(vs))
	for _, v := range vs {
		out = append(out, VendorRefJSON{VendorID: v.ID.String(), VendorName: v.Name.String(), IsCustom: v.IsCustom()})
	}
	return out
}

// RowErrorJSON is a bad CSV cell.
type RowErrorJSON struct {
	Row     int    `json:"row"`
	Column  string `json:"column"`
	Message string `json:"message"`
}

// SaveVendorsJSON is the answer of operation=save-vendors, add-vendors and
// remove-vendors.
type SaveVendorsJSON struct {
	List          ListJSON          `json:"list"`
	Added         []VendorRefJSON   `json:"added"`
	Removed       []VendorRefJSON   `json:"removed"`
	Unchanged     int               `json:"unchanged" doc:"Vendors that were on the list and stay"`
	AlreadyOnList []VendorRefJSON   `json:"already_on_list,omitempty" doc:"add-vendors: the vendors named that were on the list already (left as they were)"`
	NotOnList     []string          `json:"not_on_list,omitempty" doc:"remove-vendors: the names given of vendors that are not on the list"`
	OrgEnrichment OrgEnrichmentJSON `json:"org_enrichment"`
}

// ImportCSVJSON is the answer of operation=import-csv for one batch.
type ImportCSVJSON struct {
	DryRun              bool              `json:"dry_run"`
	RowsTotal           int               `json:"rows_total" doc:"Data rows in the whole CSV"`
	RowOffset           int               `json:"row_offset"`
	RowsProcessed       int               `json:"rows_processed"`
	NextRowOffset       int               `json:"next_row_offset" doc:"Send the next batch with this row_offset while has_more is true"`
	HasMore             bool              `json:"has_more"`
	VendorsAdded        int               `json:"vendors_added"`
	ProductsAdded       int               `json:"products_added"`
	AssessmentsUpserted int               `json:"assessments_upserted"`
	CustomVendors       []string          `json:"custom_vendors" doc:"Names with no profile in the directory"`
	Errors              []RowErrorJSON    `json:"errors" doc:"Dry run: the bad cells (the rest of the batch is processed)"`
	OrgEnrichment       OrgEnrichmentJSON `json:"org_enrichment"`
}

// listsPostOut is the answer of POST /vendor-lists: the created list (201),
// or the result of the operation (200).
type listsPostOut struct {
	Status int
	ETag   string `header:"ETag" doc:"The list's revision after the write (save-vendors, add-vendors, remove-vendors, and a created list)"`
	Body   ListOperationResult
}

// ListOperationResult is the answer of save-vendors or of import-csv:
// exactly one of them, as the operation parameter says.
type ListOperationResult struct {
	created *ListJSON
	saved   *SaveVendorsJSON
	batch   *ImportCSVJSON
}

// MarshalJSON writes the one result that is set.
func (r ListOperationResult) MarshalJSON() ([]byte, error) {
	switch {
	case r.saved != nil:
		return json.Marshal(r.saved)
	case r.batch != nil:
		return json.Marshal(r.batch)
	}
	return json.Marshal(r.created)
}

// Schema declares the 200 answer as one of the two operation results (the
// 201 answer, the created list, is declared on its own).
func (ListOperationResult) Schema(r huma.Registry) *huma.Schema {
	return &huma.Schema{
		Description: "save-vendors answers SaveVendorsJSON; import-csv answers ImportCSVJSON",
		OneOf: []*huma.Schema{
			r.Schema(reflect.TypeOf(SaveVendorsJSON{}), true, ""),
			r.Schema(reflect.TypeOf(ImportCSVJSON{}), true, ""),
		},
	}
}

// etag is the ETag of a list: its revision, quoted (a strong validator).
func etag(l lists.List) string { return `"` + l.Revision() + `"` }

// ifMatch reads an If-Match header (RFC 9110 13.1.1): "*" or a list of
// entity tags. A weak tag never matches (If-Match compares strongly), so
// it is kept with its W/ prefix, which no revision has.
func ifMatch(h string) lists.Precondition {
	var p lists.Precondition
	for _, t := range strings.Split(h, ",") {
		t = strings.TrimSpace(t)
		switch {
		case t == "":
		case t == "*":
			p.Any = true
		case strings.HasPrefix(t, "W/"):
			p.Revisions = append(p.Revisions, t)
		default:
			p.Revisions = append(p.Revisions, strings.Trim(t, `"`))
		}
	}
	return p
}

// The inputs and outputs of patch-vendor-lists, delete-vendor-list and
// add-product. Their names (once local to the registering function) name
// the document's schemas of their bodies (AlertsInBody, DeleteOutBody,
// ProductInBody), so they keep them.

type alertsIn struct {
	AccountParam
	Operation AlertsOperation `query:"operation" required:"true"`
	ListParams
	Body struct {
		VendorID      string `json:"vendor-id" format:"uuid"`
		AlertsEnabled *bool  `json:"alerts_enabled" required:"true"`
	}
}

type entryOut struct{ Body EntryJSON }

type deleteIn struct {
	AccountParam
	ListParams
}

type deleteOut struct {
	Body struct {
		Deleted ListJSON `json:"deleted"`
	}
}

type productIn struct {
	ListID   string `path:"vendor_list_id" format:"uuid"`
	VendorID string `path:"vendor_id" format:"uuid"`
	AccountParam
	Body struct {
		ProductName string `json:"product_name" minLength:"1" maxLength:"200"`
	}
}

type productOut struct{ Body ProductJSON }

// listsHandler answers the Vendor lists operations (but the export, an
// assessments read) with the lists area of the core.
type listsHandler struct{ *Server }

// getLists answers get-vendor-lists.
func (h listsHandler) getLists(ctx context.Context, in *listsGetIn) (*listsGetOut, error) {
	a := actor(ctx)
	if in.VendorList == "" && in.ListID == "" {
		acc, err := in.accountRef()
		if err != nil {
			return nil, err
		}
		ls, err := h.lists.Lists(ctx, a, acc)
		if err != nil {
			return nil, err
		}
		lists := make([]ListJSON, 0, len(ls))
		for _, l := range ls {
			lists = append(lists, listJSON(l))
		}
		return &listsGetOut{Body: h.writeJSON(listsGetBody{Lists: &lists})}, nil
	}
	if in.ListShape.given() {
		body, l, err := h.shapedList(ctx, in)
		if err != nil {
			return nil, err
		}
		return &listsGetOut{ETag: etag(l), Body: h.writeJSON(body)}, nil
	}
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	// Refusals, an unknown list and an outage are answered here,
	// before anything is written; the body then streams.
	w, err := h.lists.OpenList(ctx, a, acc, lr)
	if err != nil {
		return nil, err
	}
	return &listsGetOut{ETag: etag(w.List()), Body: func(hctx huma.Context) { h.streamList(hctx, w) }}, nil
}

// post answers POST /vendor-lists. The contract puts five operations on
// that one method and path, told apart by the operation query parameter:
// no operation creates the list named by vendor-list; save-vendors,
// add-vendors, remove-vendors and import-csv change an existing list. huma
// (as the router under it) registers one operation per method and path, and
// OpenAPI 3.1 has one operation per method of a path too, so splitting them
// into separate huma operations would change the wire contract (new paths,
// or operation values no longer answered where they are today). The route
// stays one operation, post-vendor-lists, and post only dispatches: each
// operation value has its own named method below.
func (h listsHandler) post(ctx context.Context, in *listsPostIn) (*listsPostOut, error) {
	switch in.Operation {
	case opSaveVendors:
		return h.saveVendors(ctx, in)
	case opAddVendors:
		return h.addVendors(ctx, in)
	case opRemoveVendors:
		return h.removeVendors(ctx, in)
	case opImportCSV:
		return h.importCSV(ctx, in)
	}
	return h.createList(ctx, in)
}

// createList answers POST /vendor-lists without operation: a new list
// named vendor-list (201).
func (h listsHandler) createList(ctx context.Context, in *listsPostIn) (*listsPostOut, error) {
	if strings.TrimSpace(in.VendorList) == "" {
		return nil, core.Invalid("vendor-list", "name the list to create with vendor-list, or choose an operation")
	}
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	l, err := h.lists.CreateList(ctx, actor(ctx), acc, in.VendorList)
	if err != nil {
		return nil, err
	}
	created := listJSON(l)
	return &listsPostOut{Status: http.StatusCreated, ETag: etag(l), Body: ListOperationResult{created: &created}}, nil
}

// saveVendors answers operation=save-vendors: the list's vendors become
// those of the body.
func (h listsHandler) saveVendors(ctx context.Context, in *listsPostIn) (*listsPostOut, error) {
	return h.changeVendors(ctx, in, lists.Replace)
}

// addVendors answers operation=add-vendors: the body's vendors join the
// list, the others stay.
func (h listsHandler) addVendors(ctx context.Context, in *listsPostIn) (*listsPostOut, error) {
	return h.changeVendors(ctx, in, lists.Add)
}

// removeVendors answers operation=remove-vendors: the body's vendors leave
// the list, the others stay.
func (h listsHandler) removeVendors(ctx context.Context, in *listsPostIn) (*listsPostOut, error) {
	return h.changeVendors(ctx, in, lists.Remove)
}

// changeVendors makes one change to a list's vendors: the one use case
// behind save-vendors, add-vendors and remove-vendors,
// lists.Service.ChangeVendors, told which change to make.
func (h listsHandler) changeVendors(ctx context.Context, in *listsPostIn, change lists.Change) (*listsPostOut, error) {
	if in.Body == nil || in.Body.Vendors == nil {
		if change == lists.Replace {
			return nil, core.Invalid("vendors", "is required for save-vendors (an empty array empties the list)")
		}
		return nil, core.Invalid("vendors", "is required for %s", in.Operation)
	}
	acc, ref, err := refs(in.AccountParam, ListParams{ListID: in.ListID, VendorList: in.VendorList})
	if err != nil {
		return nil, err
	}
	names := make([]string, len(in.Body.Vendors))
	sites := make([]string, len(in.Body.Vendors))
	for i, v := range in.Body.Vendors {
		names[i], sites[i] = v.VendorName, v.WebsiteURL
	}
	named, err := vendors.ParseRefs(names, sites) // typed once, here
	if err != nil {
		return nil, err
	}
	ch := lists.VendorsChange{Change: change, IfMatch: ifMatch(in.IfMatch), Vendors: named}
	res, err := h.lists.ChangeVendors(ctx, actor(ctx), acc, ref, ch)
	if err != nil {
		return nil, err
	}
	out := &SaveVendorsJSON{List: listJSON(res.List), Added: vendorRefs(res.Added), Removed: vendorRefs(res.Removed),
		Unchanged: res.Unchanged, OrgEnrichment: orgEnrichment(res.Quota)}
	if len(res.AlreadyOn) > 0 {
		out.AlreadyOnList = vendorRefs(res.AlreadyOn)
	}
	if len(res.NotOn) > 0 {
		out.NotOnList = res.NotOn
	}
	return &listsPostOut{Status: http.StatusOK, ETag: etag(res.List), Body: ListOperationResult{saved: out}}, nil
}

// importCSV answers operation=import-csv: one batch of a CSV merged into
// the list (or only checked, in a dry run).
func (h listsHandler) importCSV(ctx context.Context, in *listsPostIn) (*listsPostOut, error) {
	if in.Body == nil || in.Body.CSV == nil {
		return nil, core.Invalid("csv", "is required for import-csv")
	}
	acc, ref, err := refs(in.AccountParam, ListParams{ListID: in.ListID, VendorList: in.VendorList})
	if err != nil {
		return nil, err
	}
	res, err := h.assessments.ImportCSV(ctx, actor(ctx), acc, ref, assessments.ImportInput{CSV: *in.Body.CSV, DryRun: in.Body.DryRun,
		RowOffset: in.Body.RowOffset, RowLimit: in.Body.RowLimit})
	if err != nil {
		return nil, err
	}
	errs := make([]RowErrorJSON, 0, len(res.Errors))
	for _, e := range res.Errors {
		errs = append(errs, RowErrorJSON{Row: e.Row, Column: e.Column, Message: e.Message})
	}
	return &listsPostOut{Status: http.StatusOK, Body: ListOperationResult{batch: &ImportCSVJSON{
		DryRun: res.DryRun, RowsTotal: res.RowsTotal, RowOffset: res.RowOffset, RowsProcessed: res.RowsProcessed,
		NextRowOffset: res.NextRowOffset, HasMore: res.HasMore, VendorsAdded: res.VendorsAdded,
		ProductsAdded: res.ProductsAdded, AssessmentsUpserted: res.AssessmentsUpserted,
		CustomVendors: res.CustomVendors, Errors: errs, OrgEnrichment: orgEnrichment(res.Quota),
	}}}, nil
}

// setAlerts answers patch-vendor-lists.
func (h listsHandler) setAlerts(ctx context.Context, in *alertsIn) (*entryOut, error) {
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	vid, err := accounts.ParseID("vendor-id", in.Body.VendorID)
	if err != nil {
		return nil, err
	}
	e, err := h.lists.SetAlerts(ctx, actor(ctx), acc, lr, vid, *in.Body.AlertsEnabled)
	if err != nil {
		return nil, err
	}
	return &entryOut{Body: entryJSON(e)}, nil
}

// deleteList answers delete-vendor-list.
func (h listsHandler) deleteList(ctx context.Context, in *deleteIn) (*deleteOut, error) {
	acc, lr, err := refs(in.AccountParam, in.ListParams)
	if err != nil {
		return nil, err
	}
	l, err := h.lists.DeleteList(ctx, actor(ctx), acc, lr)
	if err != nil {
		return nil, err
	}
	out := &deleteOut{}
	out.Body.Deleted = listJSON(l)
	return out, nil
}

// addProduct answers add-product.
func (h listsHandler) addProduct(ctx context.Context, in *productIn) (*productOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	lr, err := lists.ParseListRef(in.ListID, "")
	if err != nil {
		return nil, err
	}
	vid, err := accounts.ParseID("vendor_id", in.VendorID)
	if err != nil {
		return nil, err
	}
	p, err := h.lists.AddProduct(ctx, actor(ctx), acc, lr.ID, vid, in.Body.ProductName)
	if err != nil {
		return nil, err
	}
	return &productOut{Body: productJSON(p, true)}, nil
}
