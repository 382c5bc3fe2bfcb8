package service

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/account"
	"github.com/vetted-dev/vetted/core/directory"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/core/vendorlist"
	"github.com/vetted-dev/vetted/ports"
)

// ImportInput is an import-csv request.
type ImportInput struct {
	CSV       string
	DryRun    bool
	RowOffset int
	RowLimit  int
}

// RowError reports a bad cell; Row is the 1-based data row.
type RowError struct {
	Row     int
	Column  string
	Message string
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
	Errors              []RowError
	Quota               vendorlist.QuotaReport
}

var errDryRun = errors.New("dry run: roll back")

// ImportCSV merges one batch of a CSV into a list: vendors are added (never
// removed), every product_name becomes a product row, and assessment columns
// upsert the vendor's assessment. A batch is all-or-nothing: a bad cell
// refuses the whole batch with every bad cell named. Re-running a batch
// changes nothing. A dry run does the same work in a unit of work that is
// rolled back, so it reports exactly what the real run would do and writes
// nothing; its bad cells are reported in Errors instead of refusing.
func (s *Service) ImportCSV(ctx context.Context, a Actor, ref string, lr ListRef, in ImportInput) (ImportResult, error) {
	rows, err := vendorlist.ParseCSV(in.CSV)
	if err != nil {
		return ImportResult{}, err
	}
	batch, next, more, err := vendorlist.Batch(rows, in.RowOffset, in.RowLimit)
	if err != nil {
		return ImportResult{}, err
	}
	parsed, rowErrs := parseImportRows(batch)
	if len(rowErrs) > 0 && !in.DryRun {
		return ImportResult{}, rowErrorsToValidation(rowErrs)
	}
	res := ImportResult{DryRun: in.DryRun, RowsTotal: len(rows), RowOffset: in.RowOffset, RowsProcessed: len(batch),
		NextRowOffset: next, HasMore: more, Errors: rowErrs, CustomVendors: []string{}}
	if res.Errors == nil {
		res.Errors = []RowError{}
	}
	err = s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, l, err := s.listAccess(ctx, tx, a, ref, account.WriteRole, lr, true)
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
	ref        vendorlist.VendorRef
	product    string
	assessment *review.Input
}

func parseImportRows(batch []vendorlist.CSVRow) ([]importRow, []RowError) {
	var errs []RowError
	out := make([]importRow, 0, len(batch))
	for _, r := range batch {
		before := len(errs)
		bad := func(col string, err error) {
			errs = append(errs, cellErrors(r.Row, col, err)...)
		}
		ir := importRow{row: r.Row}
		n, err := directory.ParseName(r.Get("vendor_name"))
		if err != nil {
			bad("vendor_name", err)
			continue
		}
		ir.ref.Name = n
		if w := r.Get("website_url"); w != "" {
			if ir.ref.WebsiteURL, _, err = directory.NormalizeWebsite(w); err != nil {
				bad("website_url", err)
			}
		}
		if p := r.Get("product_name"); p != "" {
			if ir.product, err = vendorlist.ParseName("product_name", p); err != nil {
				bad("product_name", err)
			}
		}
		if r.HasAssessment() {
			in := review.Input{}
			opt := func(col string) *string {
				v := r.Get(col)
				if v == "" {
					return nil
				}
				return &v
			}
			in.Status = opt("compliance_approval_status")
			in.ConditionalApprovalCondition = opt("conditional_approval_condition")
			in.SponsorBusinessDepartment = opt("sponsor_business_department")
			in.SponsorContact = opt("sponsor_contact")
			if in.SponsorContact == nil {
				in.SponsorContact = opt("sponsor")
			}
			in.UseCase = opt("use_case")
			in.ComplianceComment = opt("compliance_comment")
			in.Tier = opt("tier")
			if dc := r.Get("data_collected"); dc != "" {
				in.DataCollected = strings.Split(dc, ";")
			}
			if _, err := review.Apply(review.Fields{}, review.Input{Status: in.Status, SponsorContact: in.SponsorContact, DataCollected: in.DataCollected, Tier: in.Tier}); err != nil {
				// A condition may come on a later row of the same vendor:
				// that rule is checked when the rows are merged.
				for _, f := range core.Failures(err) {
					if f.Field != "conditional_approval_condition" {
						errs = append(errs, RowError{Row: r.Row, Column: f.Field, Message: f.Detail})
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

// cellErrors returns the failures of err as bad cells of one row and column.
func cellErrors(row int, column string, err error) []RowError {
	fs := core.Failures(err)
	if len(fs) == 0 {
		return []RowError{{Row: row, Column: column, Message: err.Error()}}
	}
	out := make([]RowError, 0, len(fs))
	for _, f := range fs {
		out = append(out, RowError{Row: row, Column: column, Message: f.Detail})
	}
	return out
}

// csvField is the request field that carries the CSV text.
const csvField = "csv"

// rowErrorsToValidation refuses a batch, naming every bad cell.
func rowErrorsToValidation(errs []RowError) error {
	out := &core.Error{Kind: core.ErrInvalid, Field: csvField,
		Detail: "the batch was not imported; fix the cells listed in errors and send it again"}
	for _, e := range errs {
		out.Errs = append(out.Errs, &core.Error{Kind: core.ErrInvalid, Field: csvField, Row: e.Row, Column: e.Column, Detail: e.Message})
	}
	return out
}

func (s *Service) importBatch(ctx context.Context, tx ports.Tx, a Actor, accountID uuid.UUID, l vendorlist.List, rows []importRow, res *ImportResult) error {
	refs := make([]vendorlist.VendorRef, 0, len(rows))
	idx := map[string]int{}
	for _, r := range rows {
		k := r.ref.Name.Key()
		if i, ok := idx[k]; ok {
			if refs[i].WebsiteURL == "" {
				refs[i].WebsiteURL = r.ref.WebsiteURL
			}
			continue
		}
		idx[k] = len(refs)
		refs = append(refs, r.ref)
	}
	stored, err := s.ensureVendors(ctx, tx, refs)
	if err != nil {
		return err
	}
	vendorOf := func(n directory.Name) directory.Vendor { return stored[idx[n.Key()]] }
	current, err := tx.Lists().VendorIDs(ctx, l.ID)
	if err != nil {
		return err
	}
	on := make(map[uuid.UUID]bool, len(current))
	for _, id := range current {
		on[id] = true
	}
	var added []uuid.UUID
	var addedVs []directory.Vendor
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
	if err := tx.Lists().AddEntries(ctx, l.ID, added, s.now()); err != nil {
		return err
	}
	res.VendorsAdded = len(added)
	var products []vendorlist.Product
	var changes []assessmentChange
	for _, r := range rows {
		v := vendorOf(r.ref.Name)
		if r.product != "" {
			p, err := vendorlist.NewProduct(s.d.IDs.New(), l.ID, v.ID, r.product, s.now())
			if err != nil {
				return err
			}
			products = append(products, p)
		}
		if r.assessment != nil {
			changes = append(changes, assessmentChange{row: r.row, vendor: v, input: *r.assessment})
		}
	}
	if res.ProductsAdded, err = tx.Lists().MergeProducts(ctx, products); err != nil {
		return err
	}
	saved, err := s.upsertAssessments(ctx, tx, a, accountID, l, changes)
	if err != nil {
		if !res.DryRun || !errors.Is(err, core.ErrInvalid) {
			return err
		}
		for _, f := range core.Failures(err) {
			res.Errors = append(res.Errors, RowError{Row: f.Row, Column: f.Column, Message: f.Detail})
		}
		saved = nil
	}
	res.AssessmentsUpserted = len(saved)
	res.Quota, err = s.queueEnrichment(ctx, tx, a, accountID, addedVs)
	return err
}

// assessmentChange is one requested change of the assessment of a vendor on
// a list; row is the CSV row it came from (0 for API calls).
type assessmentChange struct {
	row    int
	vendor directory.Vendor
	input  review.Input
}

// upsertAssessments applies changes in order (several for one vendor merge,
// later ones winning), creating assessments that do not exist, and saves
// only those that actually changed, each with one audit event. It returns
// the saved assessments. A validation failure names the field, or for
// changes from CSV rows the cell (row and column) of the csv field.
func (s *Service) upsertAssessments(ctx context.Context, tx ports.Tx, a Actor, accountID uuid.UUID, l vendorlist.List, changes []assessmentChange) ([]review.Assessment, error) {
	if len(changes) == 0 {
		return nil, nil
	}
	var ids []uuid.UUID
	seen := map[uuid.UUID]bool{}
	for _, c := range changes {
		if !seen[c.vendor.ID] {
			seen[c.vendor.ID] = true
			ids = append(ids, c.vendor.ID)
		}
	}
	// Concurrent upserts of one assessment take turns from here on, so each
	// reads, and audits against, what the one before it saved.
	if err := tx.Lists().LockEntries(ctx, l.ID, ids); err != nil {
		return nil, err
	}
	existing, err := tx.Assessments().ListByVendors(ctx, l.ID, ids)
	if err != nil {
		return nil, err
	}
	type state struct {
		orig  review.Assessment
		cur   review.Assessment
		isNew bool
	}
	states := map[uuid.UUID]*state{}
	for _, e := range existing {
		states[e.VendorID] = &state{orig: e, cur: e}
	}
	now := s.now()
	var errs core.Fields
	var cells []RowError
	for _, c := range changes {
		st, ok := states[c.vendor.ID]
		if !ok {
			asm := review.Assessment{ID: s.d.IDs.New(), AccountID: accountID, ListID: l.ID, VendorID: c.vendor.ID,
				VendorName: c.vendor.Name.String(), CreatedAt: now, CreatedBy: a.Email}
			asm.Status = review.NotStarted
			asm.DataCollected = []string{}
			if c.vendor.HasProfile { // custom vendors have none: no lookup
				if p, err := tx.Profiles().Get(ctx, c.vendor.ID); err == nil {
					pid := p.ID
					asm.VendorProfileID = &pid
				} else if !errors.Is(err, core.ErrNotFound) {
					return nil, err
				}
			}
			st = &state{orig: asm, cur: asm, isNew: true}
			st.orig.Fields = review.Fields{}
			states[c.vendor.ID] = st
		}
		next, err := review.Apply(st.cur.Fields, c.input)
		switch {
		case err == nil:
			prev := st.cur.Status
			st.cur.Fields = next
			review.MarkReviewed(&st.cur, prev, now)
		case c.row > 0 && errors.Is(err, core.ErrInvalid):
			for _, f := range core.Failures(err) {
				cells = append(cells, RowError{Row: c.row, Column: f.Field, Message: f.Detail})
			}
		case !errs.AddErr(err):
			return nil, err
		}
	}
	if len(cells) > 0 {
		return nil, rowErrorsToValidation(cells)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var save []review.Assessment
	var events []review.AuditEvent
	for _, id := range ids {
		st := states[id]
		changes := review.Diff(st.orig.Fields, st.cur.Fields)
		if len(changes) == 0 && !st.isNew {
			continue
		}
		st.cur.UpdatedAt, st.cur.UpdatedBy = now, a.Email
		save = append(save, st.cur)
		if len(changes) > 0 {
			events = append(events, review.AuditEvent{ID: s.d.IDs.New(), AssessmentID: st.cur.ID, AccountID: accountID,
				CreatedAt: now, SubmittedBy: a.Email, Changes: changes})
		}
	}
	if err := tx.Assessments().Save(ctx, save); err != nil {
		return nil, err
	}
	if err := tx.Assessments().AppendEvents(ctx, events); err != nil {
		return nil, err
	}
	return save, nil
}
