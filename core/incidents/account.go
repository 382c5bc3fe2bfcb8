package incidents

import (
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// MaxAccountPage is the most incidents one read of an account's incidents
// returns.
const MaxAccountPage = 200

// AccountFilter narrows an account's incidents: the sources of the items
// merged into them, their severities, one list (nil: every list of the
// account), the position after which to read (nil: the newest) and the
// page size (0: MaxAccountPage).
type AccountFilter struct {
	Sources    []Source
	Severities []string
	List       *lists.ListRef
	After      *vendors.IncidentCursor
	Limit      int
}

// AccountIncident is an incident of a vendor the account follows, with the
// vendor's name and the account's lists that carry the vendor.
type AccountIncident struct {
	vendors.Incident
	VendorName string
	Lists      []ListName
}

// ListName is a list by id and name.
type ListName struct {
	ID   uuid.UUID
	Name string
}

// AccountIncidents returns the incidents of the vendors on the account's
// lists (or on one list), newest first, filtered by f (viewer or above).
// more reports a further page after the last one returned.
func (s *Service) AccountIncidents(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, f AccountFilter) (out []AccountIncident, more bool, err error) {
	for _, src := range f.Sources {
		if !src.Valid() {
			return nil, false, core.Invalid("Source", "must be one of news, kev, breach, filing")
		}
	}
	for _, sev := range f.Severities {
		if !slices.Contains(vendors.IncidentSeverityValues(), sev) {
			return nil, false, core.Invalid("Severity", "must be one of critical, high, medium, low, info")
		}
	}
	if f.Limit <= 0 || f.Limit > MaxAccountPage {
		f.Limit = MaxAccountPage
	}
	err = s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		ls, err := tx.Lists().ListByAccount(ctx, acc.Account.ID)
		if err != nil {
			return err
		}
		if f.List != nil {
			l, err := lists.Resolve(ctx, tx, acc.Account.ID, *f.List, false)
			if err != nil {
				return err
			}
			ls = []lists.List{l}
		}
		onLists := map[uuid.UUID][]ListName{}
		var ids []uuid.UUID
		for _, l := range ls {
			vids, err := tx.Lists().VendorIDs(ctx, l.ID)
			if err != nil {
				return err
			}
			for _, id := range vids {
				if _, ok := onLists[id]; !ok {
					ids = append(ids, id)
				}
				onLists[id] = append(onLists[id], ListName{ID: l.ID, Name: l.Name})
			}
		}
		q := vendors.IncidentQuery{VendorIDs: ids, Severities: f.Severities, After: f.After, Limit: f.Limit + 1}
		for _, src := range f.Sources {
			q.Sources = append(q.Sources, string(src))
		}
		ins, err := tx.Incidents().Search(ctx, q)
		if err != nil {
			return err
		}
		if more = len(ins) > f.Limit; more {
			ins = ins[:f.Limit]
		}
		names, err := vendorNames(ctx, tx, ins)
		if err != nil {
			return err
		}
		out = make([]AccountIncident, len(ins))
		for i, in := range ins {
			out[i] = AccountIncident{Incident: in, VendorName: names[in.VendorID], Lists: onLists[in.VendorID]}
		}
		return nil
	})
	return out, more, err
}

// vendorNames reads the names of the incidents' vendors.
func vendorNames(ctx context.Context, tx Tx, ins []vendors.Incident) (map[uuid.UUID]string, error) {
	ids := make([]uuid.UUID, 0, len(ins))
	for _, in := range ins {
		ids = append(ids, in.VendorID)
	}
	vs, err := tx.Vendors().ListByIDs(ctx, ids)
	names := make(map[uuid.UUID]string, len(vs))
	for _, v := range vs {
		names[v.ID] = v.Name.String()
	}
	return names, err
}
