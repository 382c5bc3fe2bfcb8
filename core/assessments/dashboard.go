package assessments

import (
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// The dashboard reads serve the home page of the original web client: a few
// counts, the latest incidents of the vendors an account follows, and the
// vendors of a list with their latest incident. They are reads like any
// other, so the viewer role or above may make them (the original service
// asked for member; a viewer's home page was four refusals).

// Metrics are the counts of the dashboard over the lists in scope.
type Metrics struct {
	// TotalVendors counts the distinct vendors on the lists.
	TotalVendors int
	// FollowedVendors counts those with incident alerts on, on at least one list.
	FollowedVendors int
	// ActiveAssessments counts the assessments under way (Status.Active).
	ActiveAssessments int
	// DueSoon and Overdue count the assessments in those review states.
	DueSoon, Overdue int
}

// IncidentView is an incident with what a dashboard shows beside it.
type IncidentView struct {
	Incident   vendors.Incident
	VendorName string
	// Products are the product rows of the vendor on the lists in scope.
	Products []string
}

// VendorOverview is a vendor of a list with its logo and latest incident.
type VendorOverview struct {
	Entry  lists.Entry
	Logo   string
	Latest *vendors.Incident
}

// Recent-incident limits of the dashboard.
const (
	DefaultIncidentLimit = 5
	MaxIncidentLimit     = 50
)

// scope is the part of an account a dashboard read covers.
type scope struct {
	entries []lists.Entry // every entry of every list in scope
	lists   []lists.List
}

// vendorIDs returns the distinct vendors in scope, optionally only those with alerts on.
func (sc scope) vendorIDs(followedOnly bool) []uuid.UUID {
	seen := map[uuid.UUID]bool{}
	var out []uuid.UUID
	for _, e := range sc.entries {
		if !seen[e.VendorID] && (!followedOnly || e.AlertsEnabled) {
			seen[e.VendorID] = true
			out = append(out, e.VendorID)
		}
	}
	return out
}

// dashboardScope resolves the account for a viewer or above, and the lists
// in scope: the one named by lr, or all of them when lr names none.
func (s *Service) dashboardScope(ctx context.Context, tx Tx, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef) (accounts.Access, scope, error) {
	acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
	if err != nil {
		return accounts.Access{}, scope{}, err
	}
	var sc scope
	if lr.Empty() {
		if sc.lists, err = tx.Lists().ListByAccount(ctx, acc.Account.ID); err != nil {
			return accounts.Access{}, scope{}, err
		}
	} else {
		l, err := lists.Resolve(ctx, tx, acc.Account.ID, lr, false)
		if err != nil {
			return accounts.Access{}, scope{}, err
		}
		sc.lists = []lists.List{l}
	}
	for _, l := range sc.lists {
		es, err := tx.Lists().Entries(ctx, l.ID)
		if err != nil {
			return accounts.Access{}, scope{}, err
		}
		sc.entries = append(sc.entries, es...)
	}
	return acc, sc, nil
}

// DashboardMetrics counts vendors, followed vendors and active assessments
// on one list of the account, or on all of them, in one set-based read
// whatever the number of lists.
func (s *Service) DashboardMetrics(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef) (Metrics, error) {
	var m Metrics
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		scope := lists.ListScope{AccountID: acc.Account.ID}
		if !lr.Empty() {
			l, err := lists.Resolve(ctx, tx, acc.Account.ID, lr, false)
			if err != nil {
				return err
			}
			scope.ListID = &l.ID
		}
		c, err := tx.Assessments().Counts(ctx, scope, ActiveStatuses())
		if err != nil {
			return err
		}
		m = Metrics{TotalVendors: c.Vendors, FollowedVendors: c.Followed, ActiveAssessments: c.Assessments}
		m.DueSoon, m.Overdue, err = s.reviewCounts(ctx, tx, scope)
		return err
	})
	return m, err
}

// RecentIncidents returns the newest incidents of the vendors the account
// follows (alerts on) on one list or on all of them, at most limit
// (0 means DefaultIncidentLimit).
func (s *Service) RecentIncidents(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, limit int) ([]IncidentView, error) {
	var out []IncidentView
	err := s.recent(ctx, a, ref, lr, limit, func(ctx context.Context, tx Tx, sc scope, limit int) error {
		ins, err := tx.Incidents().Recent(ctx, sc.vendorIDs(true), limit)
		if err != nil {
			return err
		}
		names, products := sc.names()
		out = make([]IncidentView, 0, len(ins))
		for _, in := range ins {
			out = append(out, IncidentView{Incident: in, VendorName: names[in.VendorID], Products: products[in.VendorID]})
		}
		return nil
	})
	return out, err
}

// RatingChangeView is a rating change event (a scan's record with
// changes) as the dashboard shows it beside incidents.
type RatingChangeView struct {
	Record     vendors.RatingRecord
	VendorName string
	Products   []string
}

// RecentRatingChanges returns the newest rating change events of the
// vendors the account follows (alerts on), as RecentIncidents does for
// incidents.
func (s *Service) RecentRatingChanges(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, limit int) ([]RatingChangeView, error) {
	var out []RatingChangeView
	err := s.recent(ctx, a, ref, lr, limit, func(ctx context.Context, tx Tx, sc scope, limit int) error {
		recs, err := tx.Profiles().RatingEvents(ctx, sc.vendorIDs(true), limit)
		if err != nil {
			return err
		}
		names, products := sc.names()
		out = make([]RatingChangeView, 0, len(recs))
		for _, r := range recs {
			out = append(out, RatingChangeView{Record: r, VendorName: names[r.VendorID], Products: products[r.VendorID]})
		}
		return nil
	})
	return out, err
}

// recent checks the limit of a dashboard feed (DefaultIncidentLimit when
// 0) and runs read over the scope of the account and list.
func (s *Service) recent(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, limit int,
	read func(ctx context.Context, tx Tx, sc scope, limit int) error) error {
	if limit == 0 {
		limit = DefaultIncidentLimit
	}
	if limit < 1 || limit > MaxIncidentLimit {
		return core.Invalid("Limit", "must be between 1 and %d", MaxIncidentLimit)
	}
	return s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		_, sc, err := s.dashboardScope(ctx, tx, a, ref, lr)
		if err != nil {
			return err
		}
		return read(ctx, tx, sc, limit)
	})
}

// names are the vendors' names in scope and their product rows.
func (sc scope) names() (map[uuid.UUID]string, map[uuid.UUID][]string) {
	names, products := map[uuid.UUID]string{}, map[uuid.UUID][]string{}
	for _, e := range sc.entries {
		names[e.VendorID] = e.VendorName
		for _, p := range e.Products {
			if !slices.Contains(products[e.VendorID], p.Name) {
				products[e.VendorID] = append(products[e.VendorID], p.Name)
			}
		}
	}
	return names, products
}

// VendorsOverview returns the vendors of a list (master-list when lr names
// none) with their logo and latest incident.
func (s *Service) VendorsOverview(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef) ([]VendorOverview, error) {
	var out []VendorOverview
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		if lr.Empty() {
			lr = lists.MasterRef
		}
		_, sc, err := s.dashboardScope(ctx, tx, a, ref, lr)
		if err != nil {
			return err
		}
		ids := sc.vendorIDs(false)
		profiles, err := tx.Profiles().ListByVendors(ctx, ids)
		if err != nil {
			return err
		}
		latest, err := tx.Incidents().Latest(ctx, ids)
		if err != nil {
			return err
		}
		logos := make(map[uuid.UUID]string, len(profiles))
		for _, p := range profiles {
			logos[p.VendorID] = p.Company.Logo
		}
		newest := make(map[uuid.UUID]vendors.Incident, len(latest))
		for _, in := range latest {
			newest[in.VendorID] = in
		}
		out = make([]VendorOverview, 0, len(sc.entries))
		for _, e := range sc.entries {
			o := VendorOverview{Entry: e, Logo: logos[e.VendorID]}
			if in, ok := newest[e.VendorID]; ok {
				o.Latest = &in
			}
			out = append(out, o)
		}
		return nil
	})
	return out, err
}
