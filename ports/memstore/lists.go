package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

type listsRepo struct{ *tx }

func (r listsRepo) Create(_ context.Context, l lists.List) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.accounts, l.AccountID, "account"); err != nil {
			return err
		}
		if _, ok := r.d.lists[l.ID]; ok {
			return conflict("list %s exists", l.ID)
		}
		key := named{l.AccountID, strings.ToLower(l.Name)}
		if _, ok := r.d.listByName[key]; ok {
			return conflict("the account has a list named %q", l.Name)
		}
		l.VendorCount = 0
		put(r.tx, r.d.lists, l.ID, l)
		put(r.tx, r.d.listByName, key, l.ID)
		r.d.listsByAccount.add(r.tx, l.AccountID, l.ID)
		return nil
	})
}

// list returns a stored list of the account with its vendor count.
func (t *tx) list(accountID, id uuid.UUID) (lists.List, bool) {
	l, ok := t.d.lists[id]
	if !ok || l.AccountID != accountID {
		return lists.List{}, false
	}
	l.VendorCount = len(t.d.entriesByList[id])
	return l, true
}

func (r listsRepo) Get(_ context.Context, accountID, id uuid.UUID) (lists.List, error) {
	if err := r.readable(); err != nil {
		return lists.List{}, err
	}
	l, ok := r.list(accountID, id)
	if !ok {
		return lists.List{}, notFound("list", id)
	}
	return l, nil
}

func (r listsRepo) GetByName(ctx context.Context, accountID uuid.UUID, name string) (lists.List, error) {
	if err := r.readable(); err != nil {
		return lists.List{}, err
	}
	id, ok := r.d.listByName[named{accountID, strings.ToLower(name)}]
	if !ok || r.d.lists[id].Name != name {
		return lists.List{}, notFound("list", name)
	}
	return r.Get(ctx, accountID, id)
}

func (r listsRepo) ListByAccount(_ context.Context, accountID uuid.UUID) ([]lists.List, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []lists.List{}
	for _, id := range r.d.listsByAccount.of(accountID) {
		l, _ := r.list(accountID, id)
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b lists.List) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), slices.Compare(a.ID[:], b.ID[:]))
	})
	return out, nil
}

func (r listsRepo) Delete(_ context.Context, accountID, id uuid.UUID) error {
	return r.atomic(func() error {
		if _, ok := r.list(accountID, id); !ok {
			return notFound("list", id)
		}
		r.deleteList(id)
		return nil
	})
}

// deleteList removes a list with its entries, products, assessments and
// subscribers.
func (t *tx) deleteList(id uuid.UUID) {
	l := t.d.lists[id]
	t.removeEntries(id, t.d.entriesByList.of(id))
	for _, a := range t.d.assessmentsByList.of(id) {
		t.deleteAssessment(a)
	}
	for _, s := range t.d.subscribersByList.of(id) {
		t.deleteSubscriber(s)
	}
	del(t, t.d.listByName, named{l.AccountID, strings.ToLower(l.Name)})
	t.d.listsByAccount.remove(t, l.AccountID, id)
	del(t, t.d.lists, id)
}

func (r listsRepo) Entries(_ context.Context, listID uuid.UUID) ([]lists.Entry, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	ids := r.sortedEntries(listID)
	out := make([]lists.Entry, 0, len(ids))
	for _, vid := range ids {
		out = append(out, r.entry(listID, vid))
	}
	return out, nil
}

// sortedEntries returns the ids of the vendors on a list in the order of
// Entries: by byVendorName, then vendor id, each name's key computed once
// (not at every comparison).
func (r listsRepo) sortedEntries(listID uuid.UUID) []uuid.UUID {
	type keyed struct {
		key  string
		name vendors.Name
		id   uuid.UUID
	}
	ids := r.d.entriesByList.of(listID)
	ks := make([]keyed, len(ids))
	for i, id := range ids {
		n := r.d.vendors[id].Name
		ks[i] = keyed{n.Key(), n, id}
	}
	slices.SortFunc(ks, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.name, b.name), slices.Compare(a.id[:], b.id[:]))
	})
	for i, k := range ks {
		ids[i] = k.id
	}
	return ids
}

// entry is the entry of a vendor on a list, with its products.
func (r listsRepo) entry(listID, vid uuid.UUID) lists.Entry {
	k := pair{listID, vid}
	row := r.d.entries[k]
	v := r.d.vendors[vid]
	p, hasProfile := r.d.profiles[vid]
	ps := []lists.Product{}
	for _, pid := range r.d.productsByEntry.of(k) {
		ps = append(ps, r.d.products[pid])
	}
	slices.SortFunc(ps, func(a, b lists.Product) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)))
	})
	return lists.Entry{ListID: listID, VendorID: vid, VendorName: v.Name.String(), DisplayName: cmp.Or(row.given, v.Name.String()),
		WebsiteURL: v.WebsiteURL, IsCustom: !hasProfile, EnrichmentStatus: vendors.EnrichmentStatus(hasProfile, p.Enrichment),
		AlertsEnabled: row.alerts, Rating: clonePtr(p.Scores.SecurityRating), Products: ps, AddedAt: row.addedAt}
}

func (r listsRepo) VendorIDs(_ context.Context, listID uuid.UUID) ([]uuid.UUID, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	return r.d.entriesByList.of(listID), nil
}

func (r listsRepo) AddEntries(_ context.Context, listID uuid.UUID, vendorIDs []uuid.UUID, now time.Time) error {
	return r.atomic(func() error {
		changed := false
		if err := requireRow(r.d.lists, listID, "list"); err != nil {
			return err
		}
		for _, vid := range vendorIDs {
			if err := requireRow(r.d.vendors, vid, "vendor"); err != nil {
				return err
			}
			k := pair{listID, vid}
			if _, ok := r.d.entries[k]; ok {
				continue
			}
			put(r.tx, r.d.entries, k, entryRow{alerts: true, addedAt: now.UTC()})
			r.d.entriesByList.add(r.tx, listID, vid)
			r.d.entriesByVendor.add(r.tx, vid, listID)
			changed = true
		}
		r.bumpIf(changed, listID)
		return nil
	})
}

func (r listsRepo) NameEntries(_ context.Context, listID uuid.UUID, names map[uuid.UUID]string) error {
	return r.atomic(func() error {
		changed := false
		for vid, name := range names {
			k := pair{listID, vid}
			if row, ok := r.d.entries[k]; ok {
				row.given = name
				put(r.tx, r.d.entries, k, row)
				changed = true
			}
		}
		r.bumpIf(changed, listID)
		return nil
	})
}

func (r listsRepo) RemoveEntries(_ context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) error {
	return r.atomic(func() error {
		r.removeEntries(listID, vendorIDs)
		return nil
	})
}

func (t *tx) removeEntries(listID uuid.UUID, vendorIDs []uuid.UUID) {
	for _, vid := range vendorIDs {
		k := pair{listID, vid}
		if !del(t, t.d.entries, k) {
			continue
		}
		t.bumpIf(true, listID)
		t.d.entriesByList.remove(t, listID, vid)
		t.d.entriesByVendor.remove(t, vid, listID)
		for _, pid := range t.d.productsByEntry.of(k) {
			p := t.d.products[pid]
			del(t, t.d.productByName, productKey{k, strings.ToLower(p.Name)})
			t.d.productsByEntry.remove(t, k, pid)
			del(t, t.d.products, pid)
		}
	}
}

func (r listsRepo) SetAlerts(_ context.Context, listID, vendorID uuid.UUID, enabled bool) error {
	return r.atomic(func() error {
		if err := update(r.tx, r.d.entries, pair{listID, vendorID}, "vendor on list", func(row *entryRow) { row.alerts = enabled }); err != nil {
			return err
		}
		r.bumpIf(true, listID)
		return nil
	})
}

// bumpIf adds one to the version of a list if changed: every write of its
// entries or products that changed something does (see
// lists.ListRepo.AddEntries).
func (t *tx) bumpIf(changed bool, listID uuid.UUID) {
	if l, ok := t.d.lists[listID]; ok && changed {
		l.Version++
		put(t, t.d.lists, listID, l)
	}
}

// LockList reads the list's version: units of work that write run one at
// a time, so nothing needs locking.
func (r listsRepo) LockList(_ context.Context, listID uuid.UUID) (int64, error) {
	if err := r.writable(); err != nil {
		return 0, err
	}
	l, ok := r.d.lists[listID]
	if !ok {
		return 0, notFound("list", listID)
	}
	return l.Version, nil
}

func (r listsRepo) AddProduct(_ context.Context, p lists.Product) error {
	return r.atomic(func() error {
		inserted, err := r.insertProduct(p)
		if err == nil && !inserted {
			err = conflict("vendor %s already has product %q on the list", p.VendorID, p.Name)
		}
		return err
	})
}

func (r listsRepo) MergeProducts(_ context.Context, ps []lists.Product) (int, error) {
	n := 0
	err := r.atomic(func() error {
		for _, p := range ps {
			inserted, err := r.insertProduct(p)
			if err != nil {
				return err
			}
			if inserted {
				n++
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// insertProduct inserts p unless its vendor has a product of that name on
// the list already; it refuses a vendor that is not on the list.
func (t *tx) insertProduct(p lists.Product) (bool, error) {
	k := pair{p.ListID, p.VendorID}
	if _, ok := t.d.entries[k]; !ok {
		return false, notFound("vendor on list", p.VendorID)
	}
	nk := productKey{k, strings.ToLower(p.Name)}
	if _, ok := t.d.productByName[nk]; ok {
		return false, nil
	}
	if _, ok := t.d.products[p.ID]; ok {
		return false, conflict("product %s exists", p.ID)
	}
	put(t, t.d.products, p.ID, p)
	put(t, t.d.productByName, nk, p.ID)
	t.d.productsByEntry.add(t, k, p.ID)
	t.bumpIf(true, p.ListID)
	return true, nil
}

// LockEntries does nothing: units of work that write run one at a time.
func (r listsRepo) LockEntries(context.Context, uuid.UUID, []uuid.UUID) error { return r.writable() }

func (r assessmentsRepo) Counts(_ context.Context, scope lists.ListScope, statuses []assessments.Status) (lists.ListCounts, error) {
	var c lists.ListCounts
	if err := r.readable(); err != nil {
		return c, err
	}
	var ids []uuid.UUID
	if scope.ListID != nil {
		if _, ok := r.list(scope.AccountID, *scope.ListID); ok {
			ids = []uuid.UUID{*scope.ListID}
		}
	} else {
		ids = r.d.listsByAccount.of(scope.AccountID)
	}
	followed := map[uuid.UUID]bool{} // vendor: alerts on, on some list
	for _, lid := range ids {
		for _, vid := range r.d.entriesByList.of(lid) {
			followed[vid] = followed[vid] || r.d.entries[pair{lid, vid}].alerts
		}
		for _, aid := range r.d.assessmentsByList.of(lid) {
			if slices.Contains(statuses, r.d.assessments[aid].Status) {
				c.Assessments++
			}
		}
	}
	c.Vendors = len(followed)
	for _, on := range followed {
		if on {
			c.Followed++
		}
	}
	return c, nil
}

type quota struct{ *tx }

func (r quota) Used(_ context.Context, accountID uuid.UUID) (int, error) {
	if err := r.readable(); err != nil {
		return 0, err
	}
	return len(r.d.claimsByAccount[accountID]), nil
}

func (r quota) Claimed(_ context.Context, accountID uuid.UUID, vendorIDs []uuid.UUID) ([]uuid.UUID, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []uuid.UUID{}
	seen := map[uuid.UUID]bool{}
	for _, vid := range vendorIDs {
		if _, ok := r.d.claims[pair{accountID, vid}]; ok && !seen[vid] {
			seen[vid] = true
			out = append(out, vid)
		}
	}
	return out, nil
}

func (r quota) Claim(_ context.Context, accountID uuid.UUID, vendorIDs []uuid.UUID, now time.Time) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.accounts, accountID, "account"); err != nil {
			return err
		}
		for _, vid := range vendorIDs {
			k := pair{accountID, vid}
			if _, ok := r.d.claims[k]; !ok {
				put(r.tx, r.d.claims, k, now.UTC())
				r.d.claimsByAccount.add(r.tx, accountID, vid)
			}
		}
		return nil
	})
}
