package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/service"
	"github.com/vetted-dev/vetted/core/vendor"
	"github.com/vetted-dev/vetted/core/vendorlist"
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
	VendorName       string        `json:"vendor_name"`
	WebsiteURL       string        `json:"website_url"`
	IsCustom         bool          `json:"is_custom"`
	EnrichmentStatus string        `json:"enrichment_status"`
	AlertsEnabled    bool          `json:"alerts_enabled"`
	Products         []ProductJSON `json:"products"`
	AddedAt          time.Time     `json:"added_at"`
}

func listJSON(l vendorlist.List) ListJSON {
	return ListJSON{ID: l.ID.String(), AccountID: l.AccountID.String(), Name: l.Name, VendorCount: l.VendorCount, CreatedAt: l.CreatedAt}
}

func productJSON(p vendorlist.Product, full bool) ProductJSON {
	out := ProductJSON{ID: p.ID.String(), ProductName: p.Name, CreatedAt: p.CreatedAt}
	if full {
		out.VendorID, out.ListID = p.VendorID.String(), p.ListID.String()
	}
	return out
}

func entryJSON(e vendorlist.Entry) EntryJSON {
	ps := make([]ProductJSON, 0, len(e.Products))
	for _, p := range e.Products {
		ps = append(ps, productJSON(p, false))
	}
	return EntryJSON{VendorID: e.VendorID.String(), VendorName: e.VendorName, WebsiteURL: e.WebsiteURL, IsCustom: e.IsCustom,
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
	return &huma.Schema{OneOf: []*huma.Schema{
		{Type: "string", MinLength: ptr(1), MaxLength: ptr(200), Description: "Vendor name"},
		{Type: "object", AdditionalProperties: false, Required: []string{"vendor_name"}, Properties: map[string]*huma.Schema{
			"vendor_name": {Type: "string", MinLength: ptr(1), MaxLength: ptr(200)},
			"website_url": {Type: "string", MaxLength: ptr(2000), Description: "http(s) URL of the vendor's website"},
		}},
	}}
}

func ptr[T any](v T) *T { return &v }

type listsGetIn struct {
	AccountID  string `query:"account-id" required:"true" doc:"Organization UUID or individual"`
	VendorList string `query:"vendor-list" doc:"List id or name: answer that list with its vendors"`
	ListID     string `query:"vendor-list-id" doc:"List id: answer that list with its vendors"`
}

type listsGetOut struct {
	Body struct {
		Lists   *[]ListJSON  `json:"lists,omitempty" doc:"Without vendor-list: the account's lists"`
		List    *ListJSON    `json:"list,omitempty" doc:"With vendor-list: the list"`
		Vendors *[]EntryJSON `json:"vendors,omitempty" doc:"With vendor-list: its vendors"`
	}
}

type listsPostIn struct {
	AccountID  string `query:"account-id" required:"true" doc:"Organization UUID or individual"`
	Operation  string `query:"operation" enum:"save-vendors,import-csv" doc:"Without it, creates the list named by vendor-list"`
	VendorList string `query:"vendor-list" doc:"Name of the list to create; or the target list (id or name) of an operation"`
	ListID     string `query:"vendor-list-id" doc:"Target list id of an operation (default master-list)"`
	Body       *struct {
		Vendors   []VendorEntry `json:"vendors,omitempty" maxItems:"5000" doc:"save-vendors: the whole new membership of the list"`
		CSV       *string       `json:"csv,omitempty" doc:"import-csv: CSV text with a header row"`
		DryRun    bool          `json:"dry_run,omitempty" doc:"import-csv: validate and report only"`
		RowOffset int           `json:"row_offset,omitempty" minimum:"0" doc:"import-csv: first data row of the batch (0-based)"`
		RowLimit  int           `json:"row_limit,omitempty" minimum:"0" maximum:"500" doc:"import-csv: rows in the batch (default 100)"`
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
}

// EnrichmentErrorJSON is a vendor saved but not queued.
type EnrichmentErrorJSON struct {
	VendorName string `json:"vendor_name"`
	Code       string `json:"code"`
	Message    string `json:"message"`
}

func orgEnrichment(q vendorlist.QuotaReport) OrgEnrichmentJSON {
	out := OrgEnrichmentJSON{Queued: q.Queued, AlreadyKnown: q.AlreadyKnown, Errors: []EnrichmentErrorJSON{}}
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

func vendorRefs(vs []vendor.Vendor) []VendorRefJSON {
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

// listsPostOut is the answer of every POST /vendor-lists form; which fields
// are present depends on the operation.
type listsPostOut struct {
	Status int
	Body   map[string]any
}

func (s *Server) registerLists() {
	tags := []string{"Vendor lists"}
	huma.Register(s.api, huma.Operation{OperationID: "get-vendor-lists", Method: http.MethodGet, Path: "/vendor-lists", Tags: tags,
		Summary: "List the account's vendor lists, or one list with its vendors", Security: secured},
		func(ctx context.Context, in *listsGetIn) (*listsGetOut, error) {
			out := &listsGetOut{}
			a := actor(ctx)
			if in.VendorList == "" && in.ListID == "" {
				ls, err := s.svc.Lists(ctx, a, in.AccountID)
				if err != nil {
					return nil, problem(err)
				}
				lists := make([]ListJSON, 0, len(ls))
				for _, l := range ls {
					lists = append(lists, listJSON(l))
				}
				out.Body.Lists = &lists
				return out, nil
			}
			l, es, err := s.svc.ListWithVendors(ctx, a, in.AccountID, service.ListRef{ID: in.ListID, Ref: in.VendorList})
			if err != nil {
				return nil, problem(err)
			}
			lj := listJSON(l)
			out.Body.List = &lj
			vendors := make([]EntryJSON, 0, len(es))
			for _, e := range es {
				vendors = append(vendors, entryJSON(e))
			}
			out.Body.Vendors = &vendors
			return out, nil
		})
	huma.Register(s.api, huma.Operation{OperationID: "post-vendor-lists", Method: http.MethodPost, Path: "/vendor-lists", Tags: tags,
		Summary:      "Create a list (vendor-list=<name>), replace its vendors (operation=save-vendors) or merge a CSV (operation=import-csv)",
		Security:     secured,
		MaxBodyBytes: 4 << 20, // a 1 MB CSV grows when JSON-escaped; the CSV limit itself is checked on the text
		Responses: map[string]*huma.Response{
			"200": {Description: "save-vendors or import-csv result"},
			"201": {Description: "the created list"},
		}},
		func(ctx context.Context, in *listsPostIn) (*listsPostOut, error) {
			a := actor(ctx)
			ref := service.ListRef{ID: in.ListID, Ref: in.VendorList}
			switch in.Operation {
			case "save-vendors":
				if in.Body == nil || in.Body.Vendors == nil {
					return nil, problem(core.Invalid("vendors", "is required for save-vendors (an empty array empties the list)"))
				}
				vs := make([]service.VendorInput, 0, len(in.Body.Vendors))
				for _, v := range in.Body.Vendors {
					vs = append(vs, service.VendorInput{Name: v.VendorName, WebsiteURL: v.WebsiteURL})
				}
				res, err := s.svc.SaveVendors(ctx, a, in.AccountID, ref, vs)
				if err != nil {
					return nil, problem(err)
				}
				return &listsPostOut{Status: http.StatusOK, Body: map[string]any{
					"list": listJSON(res.List), "added": vendorRefs(res.Added), "removed": vendorRefs(res.Removed),
					"unchanged": res.Unchanged, "org_enrichment": orgEnrichment(res.Quota),
				}}, nil
			case "import-csv":
				if in.Body == nil || in.Body.CSV == nil {
					return nil, problem(core.Invalid("csv", "is required for import-csv"))
				}
				res, err := s.svc.ImportCSV(ctx, a, in.AccountID, ref, service.ImportInput{CSV: *in.Body.CSV, DryRun: in.Body.DryRun,
					RowOffset: in.Body.RowOffset, RowLimit: in.Body.RowLimit})
				if err != nil {
					return nil, problem(err)
				}
				errs := make([]RowErrorJSON, 0, len(res.Errors))
				for _, e := range res.Errors {
					errs = append(errs, RowErrorJSON{Row: e.Row, Column: e.Column, Message: e.Message})
				}
				return &listsPostOut{Status: http.StatusOK, Body: map[string]any{
					"dry_run": res.DryRun, "rows_total": res.RowsTotal, "row_offset": res.RowOffset, "rows_processed": res.RowsProcessed,
					"next_row_offset": res.NextRowOffset, "has_more": res.HasMore, "vendors_added": res.VendorsAdded,
					"products_added": res.ProductsAdded, "assessments_upserted": res.AssessmentsUpserted,
					"custom_vendors": res.CustomVendors, "errors": errs, "org_enrichment": orgEnrichment(res.Quota),
				}}, nil
			}
			if strings.TrimSpace(in.VendorList) == "" {
				return nil, problem(core.Invalid("vendor-list", "name the list to create with vendor-list, or choose an operation"))
			}
			l, err := s.svc.CreateList(ctx, a, in.AccountID, in.VendorList)
			if err != nil {
				return nil, problem(err)
			}
			return &listsPostOut{Status: http.StatusCreated, Body: map[string]any{
				"id": l.ID.String(), "account_id": l.AccountID.String(), "name": l.Name, "vendor_count": l.VendorCount, "created_at": l.CreatedAt,
			}}, nil
		})

	type alertsIn struct {
		AccountID  string `query:"account-id" required:"true" doc:"Organization UUID or individual"`
		Operation  string `query:"operation" required:"true" enum:"alerts-enabled"`
		VendorList string `query:"vendor-list" doc:"List id or name"`
		ListID     string `query:"vendor-list-id" doc:"List id"`
		Body       struct {
			VendorID      string `json:"vendor-id" format:"uuid"`
			AlertsEnabled *bool  `json:"alerts_enabled" required:"true"`
		}
	}
	type entryOut struct{ Body EntryJSON }
	huma.Register(s.api, huma.Operation{OperationID: "patch-vendor-lists", Method: http.MethodPatch, Path: "/vendor-lists", Tags: tags,
		Summary: "Turn incident alerts for one vendor of a list on or off (operation=alerts-enabled)", Security: secured},
		func(ctx context.Context, in *alertsIn) (*entryOut, error) {
			e, err := s.svc.SetAlerts(ctx, actor(ctx), in.AccountID, service.ListRef{ID: in.ListID, Ref: in.VendorList}, in.Body.VendorID, *in.Body.AlertsEnabled)
			if err != nil {
				return nil, problem(err)
			}
			return &entryOut{Body: entryJSON(e)}, nil
		})

	type deleteIn struct {
		AccountID  string `query:"account-id" required:"true" doc:"Organization UUID or individual"`
		VendorList string `query:"vendor-list" doc:"List id or name"`
		ListID     string `query:"vendor-list-id" doc:"List id"`
	}
	type deleteOut struct {
		Body struct {
			Deleted ListJSON `json:"deleted"`
		}
	}
	huma.Register(s.api, huma.Operation{OperationID: "delete-vendor-list", Method: http.MethodDelete, Path: "/vendor-lists", Tags: tags,
		Summary: "Delete a list (by vendor-list-id or vendor-list) with its entries, assessments and subscribers", Security: secured},
		func(ctx context.Context, in *deleteIn) (*deleteOut, error) {
			l, err := s.svc.DeleteList(ctx, actor(ctx), in.AccountID, service.ListRef{ID: in.ListID, Ref: in.VendorList})
			if err != nil {
				return nil, problem(err)
			}
			out := &deleteOut{}
			out.Body.Deleted = listJSON(l)
			return out, nil
		})

	type productIn struct {
		ListID    string `path:"vendor_list_id" format:"uuid"`
		VendorID  string `path:"vendor_id" format:"uuid"`
		AccountID string `query:"account-id" required:"true" doc:"Organization UUID or individual"`
		Body      struct {
			ProductName string `json:"product_name" minLength:"1" maxLength:"200"`
		}
	}
	type productOut struct{ Body ProductJSON }
	huma.Register(s.api, huma.Operation{OperationID: "add-product", Method: http.MethodPost, Path: "/vendor-lists/{vendor_list_id}/vendors/{vendor_id}/products",
		Tags: tags, Summary: "Add a product row to a vendor on a list (409 when it exists)", DefaultStatus: http.StatusCreated, Security: secured},
		func(ctx context.Context, in *productIn) (*productOut, error) {
			p, err := s.svc.AddProduct(ctx, actor(ctx), in.AccountID, in.ListID, in.VendorID, in.Body.ProductName)
			if err != nil {
				return nil, problem(err)
			}
			return &productOut{Body: productJSON(p, true)}, nil
		})
}
