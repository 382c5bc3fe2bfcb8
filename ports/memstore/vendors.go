package memstore

import (
	"bytes"
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendors"
)

type vendorsRepo struct{ *tx }

// vendor returns a copy of a stored entry with HasProfile computed.
func (t *tx) vendor(id uuid.UUID) (vendors.Vendor, bool) {
	v, ok := t.d.vendors[id]
	if !ok {
		return vendors.Vendor{}, false
	}
	v = cloneVendor(v)
	_, v.HasProfile = t.d.profiles[id]
	return v, true
}

func (r vendorsRepo) Get(_ context.Context, id uuid.UUID) (vendors.Vendor, error) {
	if err := r.readable(); err != nil {
		return vendors.Vendor{}, err
	}
	v, ok := r.vendor(id)
	if !ok {
		return vendors.Vendor{}, notFound("vendor", id)
	}
	return v, nil
}

func (r vendorsRepo) GetByName(ctx context.Context, name vendors.Name) (vendors.Vendor, error) {
	if err := r.readable(); err != nil {
		return vendors.Vendor{}, err
	}
	id, ok := r.d.vendorByKey[name.Key()]
	if !ok {
		return vendors.Vendor{}, notFound("vendor", name)
	}
	return r.Get(ctx, id)
}

func (r vendorsRepo) ListByIDs(_ context.Context, ids []uuid.UUID) ([]vendors.Vendor, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	seen := map[uuid.UUID]bool{}
	out := []vendors.Vendor{}
	for _, id := range ids {
		if v, ok := r.vendor(id); ok && !seen[id] {
			seen[id] = true
			out = append(out, v)
		}
	}
	return out, nil
}

func (r vendorsRepo) List(context.Context) ([]vendors.Vendor, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := make([]vendors.Vendor, 0, len(r.d.vendors))
	for id := range r.d.vendors {
		v, _ := r.vendor(id)
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b vendors.Vendor) int { return byVendorName(a.Name, b.Name) })
	return out, nil
}

func (r vendorsRepo) Page(_ context.Context, after vendors.Name, limit int) ([]vendors.Vendor, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := make([]vendors.Vendor, 0, min(limit, len(r.d.vendors)))
	for id := range r.d.vendors {
		if v, _ := r.vendor(id); v.Name > after {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b vendors.Vendor) int { return cmp.Compare(a.Name, b.Name) })
	return out[:min(limit, len(out))], nil
}

func byVendorName(a, b vendors.Name) int {
	return cmp.Or(cmp.Compare(a.Key(), b.Key()), cmp.Compare(a, b))
}

func (r vendorsRepo) Ensure(_ context.Context, vs []vendors.Vendor) ([]vendors.Vendor, error) {
	out := make([]vendors.Vendor, 0, len(vs))
	err := r.atomic(func() error {
		for _, in := range vs {
			id, ok := r.d.vendorByKey[in.Name.Key()]
			switch {
			case !ok:
				if _, taken := r.d.vendors[in.ID]; taken {
					return conflict("vendor %s exists under another name", in.ID)
				}
				in = cloneVendor(in)
				in.HasProfile = false
				put(r.tx, r.d.vendors, in.ID, in)
				put(r.tx, r.d.vendorByKey, in.Name.Key(), in.ID)
				id = in.ID
			case r.d.vendors[id].WebsiteURL == "" && in.WebsiteURL != "":
				cur := r.d.vendors[id]
				cur.WebsiteURL, cur.Domain = in.WebsiteURL, in.Domain
				put(r.tx, r.d.vendors, id, cur)
			}
			v, _ := r.vendor(id)
			out = append(out, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (r vendorsRepo) Update(_ context.Context, v vendors.Vendor) error {
	return update(r.tx, r.d.vendors, v.ID, "vendor", func(cur *vendors.Vendor) {
		cur.WebsiteURL, cur.Domain, cur.Aliases = v.WebsiteURL, v.Domain, cloneStrings(v.Aliases)
	})
}

type profiles struct{ *tx }

func (r profiles) Get(_ context.Context, vendorID uuid.UUID) (vendors.Profile, error) {
	return lookup(r.tx, r.d.profiles, vendorID, "profile of vendor", cloneProfile)
}

func (r profiles) GetByID(ctx context.Context, id uuid.UUID) (vendors.Profile, error) {
	if err := r.readable(); err != nil {
		return vendors.Profile{}, err
	}
	vendorID, ok := r.d.profileByID[id]
	if !ok {
		return vendors.Profile{}, notFound("profile", id)
	}
	return r.Get(ctx, vendorID)
}

func (r profiles) ListByVendors(_ context.Context, vendorIDs []uuid.UUID) ([]vendors.Profile, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []vendors.Profile{}
	seen := map[uuid.UUID]bool{}
	for _, id := range vendorIDs {
		if p, ok := r.d.profiles[id]; ok && !seen[id] {
			seen[id] = true
			out = append(out, cloneProfile(p))
		}
	}
	return out, nil
}

func (r profiles) Save(_ context.Context, p vendors.Profile) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.vendors, p.VendorID, "vendor"); err != nil {
			return err
		}
		p = cloneProfile(p)
		if old, ok := r.d.profiles[p.VendorID]; ok {
			p.ID, p.CreatedAt = old.ID, old.CreatedAt // the profile keeps its identity
		} else if _, taken := r.d.profileByID[p.ID]; taken {
			return conflict("profile %s belongs to another vendor", p.ID)
		}
		put(r.tx, r.d.profiles, p.VendorID, p)
		put(r.tx, r.d.profileByID, p.ID, p.VendorID)
		return nil
	})
}

func (r profiles) Delete(_ context.Context, vendorID uuid.UUID) error {
	return r.atomic(func() error {
		p, ok := r.d.profiles[vendorID]
		if !ok {
			return notFound("profile of vendor", vendorID)
		}
		del(r.tx, r.d.profiles, vendorID)
		del(r.tx, r.d.profileByID, p.ID)
		del(r.tx, r.d.instances, vendorID)
		del(r.tx, r.d.grc, vendorID)
		del(r.tx, r.d.ratings, vendorID)
		return nil
	})
}

func (r profiles) Instances(_ context.Context, vendorID uuid.UUID) ([]vendors.SecurityInstance, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := slices.Clone(r.d.instances[vendorID])
	if out == nil {
		out = []vendors.SecurityInstance{}
	}
	return out, nil
}

func (r profiles) ReplaceInstances(_ context.Context, vendorID uuid.UUID, is []vendors.SecurityInstance) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.vendors, vendorID, "vendor"); err != nil {
			return err
		}
		rows := slices.Clone(is)
		for i := range rows {
			rows[i].VendorID = vendorID
		}
		// Stored in read order, so reads need no sorting.
		slices.SortStableFunc(rows, func(a, b vendors.SecurityInstance) int {
			return cmp.Or(cmp.Compare(severityRank(a.Severity), severityRank(b.Severity)), b.ObservedAt.Compare(a.ObservedAt))
		})
		if len(rows) == 0 {
			del(r.tx, r.d.instances, vendorID)
			return nil
		}
		put(r.tx, r.d.instances, vendorID, rows)
		return nil
	})
}

func (r profiles) AddGRCAssessment(_ context.Context, vendorID uuid.UUID, a vendors.GRCAssessment) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.vendors, vendorID, "vendor"); err != nil {
			return err
		}
		// A new slice, so the undo entry keeps the old one intact.
		put(r.tx, r.d.grc, vendorID, append(slices.Clone(r.d.grc[vendorID]), cloneGRC(a)))
		return nil
	})
}

func (r profiles) GRCAssessments(_ context.Context, vendorID uuid.UUID) ([]vendors.GRCAssessment, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	stored := r.d.grc[vendorID]
	out := make([]vendors.GRCAssessment, 0, len(stored))
	for i := len(stored) - 1; i >= 0; i-- { // later added first among equal times
		out = append(out, cloneGRC(stored[i]))
	}
	slices.SortStableFunc(out, func(a, b vendors.GRCAssessment) int { return b.AssessedAt.Compare(a.AssessedAt) })
	return out, nil
}

func (r profiles) AddRating(_ context.Context, rec vendors.RatingRecord) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.vendors, rec.VendorID, "vendor"); err != nil {
			return err
		}
		put(r.tx, r.d.ratings, rec.VendorID, append(slices.Clone(r.d.ratings[rec.VendorID]), cloneRating(rec)))
		return nil
	})
}

// newestRating orders records newest first, the higher id first among
// equal times, as the SQL stores do.
func newestRating(a, b vendors.RatingRecord) int {
	return cmp.Or(b.ScannedAt.Compare(a.ScannedAt), bytes.Compare(b.ID[:], a.ID[:]))
}

func (r profiles) Ratings(_ context.Context, vendorID uuid.UUID, after *vendors.RatingCursor, limit int) ([]vendors.RatingRecord, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	all := slices.SortedFunc(slices.Values(r.d.ratings[vendorID]), newestRating)
	out := []vendors.RatingRecord{}
	for _, rec := range all {
		if after != nil && newestRating(rec, vendors.RatingRecord{ScannedAt: after.At, ID: after.ID}) <= 0 {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, cloneRating(rec))
	}
	return out, nil
}

func (r profiles) GetRating(_ context.Context, id uuid.UUID) (vendors.RatingRecord, error) {
	if err := r.readable(); err != nil {
		return vendors.RatingRecord{}, err
	}
	for _, recs := range r.d.ratings {
		for _, rec := range recs {
			if rec.ID == id {
				return cloneRating(rec), nil
			}
		}
	}
	return vendors.RatingRecord{}, notFound("rating record", id)
}

func (r profiles) RatingEvents(_ context.Context, vendorIDs []uuid.UUID, limit int) ([]vendors.RatingRecord, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	var all []vendors.RatingRecord
	for _, id := range slices.Compact(slices.SortedFunc(slices.Values(vendorIDs), func(a, b uuid.UUID) int { return bytes.Compare(a[:], b[:]) })) {
		for _, rec := range r.d.ratings[id] {
			if rec.IsEvent() {
				all = append(all, cloneRating(rec))
			}
		}
	}
	slices.SortFunc(all, newestRating)
	out := all[:min(len(all), max(limit, 0))]
	if out == nil {
		out = []vendors.RatingRecord{}
	}
	return out, nil
}

// severityRank orders severities most severe first; unknown ones go last.
func severityRank(s string) int {
	i := slices.Index(vendors.SeverityValues(), s)
	if i < 0 {
		return len(vendors.SeverityValues())
	}
	return i
}
