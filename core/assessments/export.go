package assessments

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// ExportPage is how many entries the register export reads at a time: the
// export holds one page, never the whole list.
const ExportPage = 200

// ExportRow is one row of the register: a vendor of the list and one of
// its products (ProductName empty for a vendor without products), with the
// vendor's assessment on the list (Status empty when it has none).
type ExportRow struct {
	VendorName, WebsiteURL, ProductName string
	Tier                                Tier
	Status                              Status
	Condition                           string
	Due                                 Due
	Rating                              *int
	Grade                               string
	Sponsor                             string
	AlertsEnabled                       bool
}

// Export is an open export of one list: access was checked and the list
// resolved when it was opened; Each reads it.
type Export struct {
	s      *Service
	list   lists.List
	policy Policy
}

// List is the exported list.
func (e *Export) List() lists.List { return e.list }

// OpenExport checks that the caller may read the list (viewer or above)
// and resolves it, so that a refusal is answered before anything is written.
func (s *Service) OpenExport(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef) (*Export, error) {
	e := &Export{s: s}
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, l, err := lists.AccountList(ctx, tx, a, ref, accounts.ReadRole, lr, false)
		if err != nil {
			return err
		}
		e.list = l
		e.policy, _, err = policyOf(ctx, tx, acc.Account.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Each calls emit with every row of the list, by vendor name, reading
// ExportPage entries at a time, each page in a read of its own (keyset:
// an entry present throughout is exported once even while others write).
func (e *Export) Each(ctx context.Context, emit func(ExportRow) error) error {
	now := e.s.d.Now()
	after := lists.EntryKey{}
	for {
		var (
			entries  []lists.Entry
			byVendor = map[uuid.UUID]Assessment{}
			scores   = map[uuid.UUID]vendors.Scores{}
		)
		err := e.s.d.View(ctx, func(ctx context.Context, tx Tx) error {
			var err error
			if entries, err = tx.Lists().EntriesAfter(ctx, e.list.ID, after, ExportPage); err != nil || len(entries) == 0 {
				return err
			}
			ids := make([]uuid.UUID, len(entries))
			for i, en := range entries {
				ids[i] = en.VendorID
			}
			as, err := tx.Assessments().ListByVendors(ctx, e.list.ID, ids)
			if err != nil {
				return err
			}
			for _, a := range as {
				byVendor[a.VendorID] = a
			}
			ps, err := tx.Profiles().ListByVendors(ctx, ids)
			for _, p := range ps {
				scores[p.VendorID] = p.Scores
			}
			return err
		})
		if err != nil {
			return err
		}
		for _, en := range entries {
			if err := emitEntry(en, byVendor, scores, e.policy, now, emit); err != nil {
				return err
			}
		}
		if len(entries) < ExportPage {
			return nil
		}
		last := entries[len(entries)-1]
		after = lists.EntryKey{VendorName: last.VendorName, VendorID: last.VendorID}
	}
}

func emitEntry(en lists.Entry, byVendor map[uuid.UUID]Assessment, scores map[uuid.UUID]vendors.Scores,
	p Policy, now time.Time, emit func(ExportRow) error) error {
	row := ExportRow{VendorName: en.VendorName, WebsiteURL: en.WebsiteURL, AlertsEnabled: en.AlertsEnabled}
	if a, ok := byVendor[en.VendorID]; ok {
		row.Tier, row.Status, row.Condition, row.Sponsor = a.Tier, a.Status, a.ConditionalApprovalCondition, a.SponsorContact
		row.Due = Schedule(a.Fields, a.LastReviewedAt, p, now)
	}
	if sc, ok := scores[en.VendorID]; ok {
		row.Rating, row.Grade = sc.SecurityRating, sc.Grade
	}
	if len(en.Products) == 0 {
		return emit(row)
	}
	for _, pr := range en.Products {
		row.ProductName = pr.Name
		if err := emit(row); err != nil {
			return err
		}
	}
	return nil
}
