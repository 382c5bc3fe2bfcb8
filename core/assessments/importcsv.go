package assessments

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// ImportInput is an import-csv request.
type ImportInput struct {
	CSV       string
	DryRun    bool
	RowOffset int
	RowLimit  int
}

// ImportResult is the answer of import-csv for one batch.
type ImportResult struct {
	DryRun              bool
	RowsTotal           int
	RowOffset           int
	RowsProcessed       int
	NextRowOffset       int
	HasMore             bool
	VendorsAdded        int
	ProductsAdded       int
	AssessmentsUpserted int
	CustomVendors       []string
	Errors              []lists.RowError
	Quota               lists.QuotaReport
}

var errDryRun = errors.New("dry run: roll back")

// ImportCSV merges one batch of a CSV into a list: vendors are added (never
// removed), every product_name becomes a product row, and assessment columns
// upsert the vendor's assessment. A batch is all-or-nothing: a bad cell
// refuses the whole batch with every bad cell named. Re-running a batch
// changes nothing. A dry run does the same work in a unit of work that is
// rolled back, so it reports exactly what the real run would do and writes
// nothing; its bad cells are reported in Errors instead of refusing.
func (s *Service) ImportCSV(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, in ImportInput) (ImportResult, error) {
	rows, err := lists.ParseCSV(in.CSV)
	if err != nil {
		return ImportResult{}, err
	}
	batch, next, more, err := lists.Batch(rows, in.RowOffset, in.RowLimit)
	if err != nil {
		return ImportResult{}, err
	}
	parsed, rowErrs := parseImportRows(batch)
	if len(rowErrs) > 0 && !in.DryRun {
		return ImportResult{}, lists.RefuseBatch(rowErrs)
	}
	res := ImportResult{DryRun: in.DryRun, RowsTotal: len(rows), RowOffset: in.RowOffset, RowsProcessed: len(batch),
		NextRowOffset: next, HasMore: more, Errors: rowErrs, CustomVendors: []string{}}
	if res.Errors == nil {
		res.Errors = []lists.RowError{}
	}
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, l, err := lists.AccountList(ctx, tx, a, ref, accounts.WriteRole, lr, true)
		if err != nil {
			return err
		}
		if err := s.importBatch(ctx, tx, a, acc.Account.ID, l, parsed, &res); err != nil {
			return err
		}
		if in.DryRun {
			return errDryRun
		}
		return nil
	})
	if errors.Is(err, errDryRun) {
		err = nil
	}
	if err != nil {
		return ImportResult{}, err
	}
	return res, nil
}

type importRow struct {
	row        int
	ref        vendors.VendorRef
	product    string
	assessment *Input
}

func parseImportRows(batch []lists.CSVRow) ([]importRow, []lists.RowError) {
	var errs []lists.RowError
	out := make([]importRow, 0, len(batch))
	for _, r := range batch {
		before := len(errs)
		bad := func(col string, err error) {
			errs = append(errs, lists.CellErrors(r.Row, col, err)...)
		}
		ir := importRow{row: r.Row}
		n, err := vendors.ParseName(r.Get("vendor_name"))
		if err != nil {
			bad("vendor_name", err)
			continue
		}
		ir.ref.Name = n
		if w := r.Get("website_url"); w != "" {
			if ir.ref.WebsiteURL, ir.ref.Domain, err = vendors.NormalizeWebsite(w); err != nil {
				bad("website_url", err)
			}
		}
		if p := r.Get("product_name"); p != "" {
			if ir.product, err = lists.ParseName("Product.Name", p); err != nil {
				bad("product_name", err)
			}
		}
		if r.HasAssessment() {
			in := Input{}
			opt := func(col string) *string {
				v := r.Get(col)
				if v == "" {
					return nil
				}
				return &v
			}
			cellErr := func(err error) {
				for _, f := range core.Failures(err) {
					errs = append(errs, lists.AssessmentCell(r.Row, f))
				}
			}
			if v := opt("compliance_approval_status"); v != nil {
				st, err := ParseStatus(*v) // typed once, here
				if err != nil {
					cellErr(err)
				}
				in.Status = &st
			}
			in.ConditionalApprovalCondition = opt("conditional_approval_condition")
			in.SponsorBusinessDepartment = opt("sponsor_business_department")
			in.SponsorContact = opt("sponsor_contact")
			if in.SponsorContact == nil {
				in.SponsorContact = opt("sponsor")
			}
			in.UseCase = opt("use_case")
			in.ComplianceComment = opt("compliance_comment")
			if v := opt("tier"); v != nil {
				t, err := ParseTier(*v)
				if err != nil {
					cellErr(err)
				}
				in.Tier = &t
			}
			if dc := r.Get("data_collected"); dc != "" {
				in.DataCollected = strings.Split(dc, ";")
			}
			if _, err := Apply(Fields{}, Input{SponsorContact: in.SponsorContact, DataCollected: in.DataCollected}); err != nil {
				// A condition may come on a later row of the same vendor:
				// that rule is checked when the rows are merged.
				for _, f := range core.Failures(err) {
					if cell := lists.AssessmentCell(r.Row, f); cell.Column != "conditional_approval_condition" {
						errs = append(errs, cell)
					}
				}
			}
			ir.assessment = &in
		}
		if len(errs) == before { // a dry run reports bad rows and processes the rest
			out = append(out, ir)
		}
	}
	return out, errs
}

func (s *Service) importBatch(ctx context.Context, tx Tx, a accounts.Actor, accountID uuid.UUID, l lists.List, rows []importRow, res *ImportResult) error {
	refs := make([]vendors.VendorRef, 0, len(rows))
	idx := map[string]int{}
	for _, r := range rows {
		k := r.ref.Name.Key()
		if i, ok := idx[k]; ok {
			if refs[i].WebsiteURL == "" {
				refs[i].WebsiteURL, refs[i].Domain = r.ref.WebsiteURL, r.ref.Domain
			}
			continue
		}
		idx[k] = len(refs)
		refs = append(refs, r.ref)
	}
	stored, err := s.d.Lists.EnsureVendors(ctx, tx, refs)
	if err != nil {
		return err
	}
	vendorOf := func(n vendors.Name) vendors.Vendor { return stored[idx[n.Key()]] }
	current, err := tx.Lists().VendorIDs(ctx, l.ID)
	if err != nil {
		return err
	}
	on := make(map[uuid.UUID]bool, len(current))
	for _, id := range current {
		on[id] = true
	}
	var added []uuid.UUID
	var addedVs []vendors.Vendor
	for _, v := range stored {
		if v.IsCustom() {
			res.CustomVendors = append(res.CustomVendors, v.Name.String())
		}
		if !on[v.ID] {
			on[v.ID] = true
			added = append(added, v.ID)
			addedVs = append(addedVs, v)
		}
	}
	if err := tx.Lists().AddEntries(ctx, l.ID, added, s.d.Now()); err != nil {
		return err
	}
	if err := s.d.Lists.VendorsChanged(ctx, tx, l, added, nil); err != nil {
		return err
	}
	res.VendorsAdded = len(added)
	var products []lists.Product
	var changes []Request
	for _, r := range rows {
		v := vendorOf(r.ref.Name)
		if r.product != "" {
			p, err := lists.NewProduct(s.d.IDs.New(), l.ID, v.ID, r.product, s.d.Now())
			if err != nil {
				return err
			}
			products = append(products, p)
		}
		if r.assessment != nil {
			changes = append(changes, Request{Row: r.row, Vendor: v, Input: *r.assessment})
		}
	}
	if res.ProductsAdded, err = tx.Lists().MergeProducts(ctx, products); err != nil {
		return err
	}
	saved, err := s.Upsert(ctx, tx, a, accountID, l, changes)
	if err != nil {
		if !res.DryRun || !errors.Is(err, core.ErrInvalid) {
			return err
		}
		for _, f := range core.Failures(err) {
			res.Errors = append(res.Errors, lists.RowError{Row: f.Row, Column: f.Column, Message: f.Detail})
		}
		saved = nil
	}
	res.AssessmentsUpserted = len(saved)
	res.Quota, err = s.d.Lists.QueueEnrichment(ctx, tx, a, accountID, addedVs)
	return err
}
