package lists

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
)

// Directory is what lists need of the vendor directory: to add the vendors
// a list names, and to queue enrichment of those within the quota.
type Directory interface {
	EnsureVendors(ctx context.Context, tx vendors.Tx, refs []vendors.VendorRef) ([]vendors.Vendor, error)
	StartEnrichRun(ctx context.Context, tx vendors.Tx, by string, vs []vendors.Vendor, sections []string, settled ...vendors.RunJob) (vendors.Run, error)
}

// Deps are the ports and areas the list use cases need.
type Deps struct {
	uow.Unit[Tx]
	Directory Directory
	// Files returns the blob keys of the evidence files the reviews on a
	// list hold (core/assessments), deleted with the list. Required.
	Files func(ctx context.Context, tx Tx, accountID, listID uuid.UUID) ([]string, error)
}

// Service implements the list use cases.
type Service struct{ d Deps }

// EnsureVendors finds or creates the directory vendors refs name, in tx
// (the directory's EnsureVendors, for the assessments area's CSV import).
func (s *Service) EnsureVendors(ctx context.Context, tx Tx, refs []vendors.VendorRef) ([]vendors.Vendor, error) {
	return s.d.Directory.EnsureVendors(ctx, tx, refs)
}

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	missing := d.Missing()
	if d.Directory == nil {
		missing = append(missing, "Directory")
	}
	if d.Files == nil {
		missing = append(missing, "Files")
	}
	if len(missing) > 0 {
		return nil, errors.New("lists: missing dependencies: " + strings.Join(missing, ", "))
	}
	return &Service{d: d}, nil
}

// Lists returns the account's lists.
func (s *Service) Lists(ctx context.Context, a accounts.Actor, ref accounts.AccountRef) ([]List, error) {
	var out []List
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		out, err = tx.Lists().ListByAccount(ctx, acc.Account.ID)
		return err
	})
	return out, err
}

// ListWithVendors returns one list and all its entries, read as OpenList
// and WholeList.Each read them (see WholeList for what a long list's read
// sees of concurrent writes).
func (s *Service) ListWithVendors(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr ListRef) (List, []Entry, error) {
	w, err := s.OpenList(ctx, a, ref, lr)
	if err != nil {
		return List{}, nil, err
	}
	es := make([]Entry, 0, len(w.first))
	err = w.Each(ctx, func(page []Entry) error {
		es = append(es, page...)
		return nil
	})
	if err != nil {
		return List{}, nil, err
	}
	return w.List(), es, nil
}

// CreateList creates a list; a duplicate name in the account is a conflict.
func (s *Service) CreateList(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, name string) (List, error) {
	var l List
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.WriteRole)
		if err != nil {
			return err
		}
		if l, err = New(s.d.IDs.New(), acc.Account.ID, name, s.d.Now()); err != nil {
			return err
		}
		if err := tx.Lists().Create(ctx, l); err != nil {
			if errors.Is(err, core.ErrConflict) {
				return core.Conflict("the account already has a list named %q", l.Name)
			}
			return err
		}
		return nil
	})
	return l, err
}

// DeleteList deletes a list with its entries, assessments, documents and
// subscribers. master-list cannot be deleted: every account keeps one.
func (s *Service) DeleteList(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr ListRef) (List, error) {
	var l List
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		var (
			acc accounts.Access
			err error
		)
		if acc, l, err = AccountList(ctx, tx, a, ref, accounts.WriteRole, lr, false); err != nil {
			return err
		}
		if l.Name == MasterList {
			return core.Invalid("ListRef.Name", "%s cannot be deleted; every account keeps it", MasterList)
		}
		keys, err := s.d.Files(ctx, tx, acc.Account.ID, l.ID)
		if err != nil {
			return err
		}
		if err := tx.Lists().Delete(ctx, acc.Account.ID, l.ID); err != nil {
			return err
		}
		if len(keys) > 0 {
			return s.d.Emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: keys})
		}
		return nil
	})
	return l, err
}

// SaveResult is the answer of save-vendors, add-vendors and remove-vendors.
type SaveResult struct {
	List      List
	Added     []vendors.Vendor
	Removed   []vendors.Vendor
	Unchanged int
	// AlreadyOn are the vendors add-vendors named that were on the list
	// already; NotOn the names remove-vendors gave of vendors not on it.
	AlreadyOn []vendors.Vendor
	NotOn     []string
	Quota     QuotaReport
}

// VendorsChange is a write of a list's vendors: the vendors named, what to
// do with them, and the revision of the list it was made against.
type VendorsChange struct {
	Change  Change
	Vendors []vendors.VendorRef // parsed at the edge (vendors.ParseRefs)
	IfMatch Precondition
}

// SaveVendors replaces the membership of a list with the given set: vendors
// omitted are removed, new ones added (created in the directory when
// unknown), and new custom vendors are queued for enrichment within the
// account's quota. Over quota, the vendor is still saved, just not queued.
func (s *Service) SaveVendors(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr ListRef, refs []vendors.VendorRef) (SaveResult, error) {
	return s.ChangeVendors(ctx, a, ref, lr, VendorsChange{Change: Replace, Vendors: refs})
}

// ChangeVendors is save-vendors, add-vendors and remove-vendors: one path,
// so that the role, the directory, the quota and enrichment rules are the
// same for all three. Vendors named are matched on their canonical name;
// those added are created in the directory when unknown (a remove creates
// none). The list is locked first and its revision checked against
// in.IfMatch: a write made against an older revision is refused whole
// (core.ErrPrecondition) and changes nothing.
func (s *Service) ChangeVendors(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr ListRef, in VendorsChange) (SaveResult, error) {
	refs := in.Vendors
	var res SaveResult
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, l, err := AccountList(ctx, tx, a, ref, accounts.WriteRole, lr, true)
		if err != nil {
			return err
		}
		// The lock makes the check and the change one step: a concurrent
		// write of the list waits here and then sees this one's revision.
		if l.Version, err = tx.Lists().LockList(ctx, l.ID); err != nil {
			return err
		}
		if !in.IfMatch.Holds(l) {
			return core.E(core.ErrPrecondition, "list %q changed since it was read (it is now at revision %s): read it again and retry", l.Name, l.Revision())
		}
		named, absent, err := s.namedVendors(ctx, tx, in.Change, l.ID, refs)
		if err != nil {
			return err
		}
		byID := make(map[uuid.UUID]vendors.Vendor, len(named))
		ids := make([]uuid.UUID, len(named))
		for i, v := range named {
			byID[v.ID] = v
			ids[i] = v.ID
		}
		current, err := tx.Lists().VendorIDs(ctx, l.ID)
		if err != nil {
			return err
		}
		ch := in.Change.Apply(current, ids)
		if err := tx.Lists().AddEntries(ctx, l.ID, ch.Added, s.d.Now()); err != nil {
			return err
		}
		if err := tx.Lists().NameEntries(ctx, l.ID, givenNames(refs, named, ch.Added)); err != nil {
			return err
		}
		if err := tx.Lists().RemoveEntries(ctx, l.ID, ch.Removed); err != nil {
			return err
		}
		if err := s.VendorsChanged(ctx, tx, l, ch.Added, ch.Removed); err != nil {
			return err
		}
		gone, err := tx.Vendors().ListByIDs(ctx, ch.Removed)
		if err != nil {
			return err
		}
		addedVs := pick(byID, ch.Added)
		report, err := s.QueueEnrichment(ctx, tx, a, acc.Account.ID, addedVs)
		if err != nil {
			return err
		}
		if res.List, err = tx.Lists().Get(ctx, acc.Account.ID, l.ID); err != nil {
			return err
		}
		res.Added, res.Removed, res.Unchanged, res.Quota = addedVs, sortVendors(gone), ch.Unchanged, report
		res.AlreadyOn, res.NotOn = pick(byID, ch.AlreadyOn), absent
		return nil
	})
	return res, err
}

// namedVendors finds the vendors a change names. Adding or replacing
// finds them in the directory and creates those it does not know. Removing
// creates none: it matches the names on the list's own vendors (by their
// canonical name, case-insensitively) and answers the names found on it,
// then those that are not.
func (s *Service) namedVendors(ctx context.Context, tx Tx, c Change, listID uuid.UUID, refs []vendors.VendorRef) (on []vendors.Vendor, absent []string, err error) {
	if c != Remove {
		on, err = s.d.Directory.EnsureVendors(ctx, tx, refs)
		return on, nil, err
	}
	keys, err := tx.Lists().EntryKeys(ctx, listID)
	if err != nil {
		return nil, nil, err
	}
	byKey := make(map[string]uuid.UUID, len(keys))
	for _, k := range keys {
		byKey[strings.ToLower(k.VendorName)] = k.VendorID
	}
	for _, r := range refs {
		if id, ok := byKey[r.Name.Key()]; ok {
			on = append(on, vendors.Vendor{ID: id, Name: r.Name})
		} else {
			absent = append(absent, r.Name.String())
		}
	}
	return on, absent, nil
}

// givenNames maps each vendor added to the name the request gave it under,
// where that is not the directory's: the list shows "Acme Corp" as given,
// while the vendor is matched on its canonical name, Acme. named holds the
// vendors of refs, in their order.
func givenNames(refs []vendors.VendorRef, named []vendors.Vendor, added []uuid.UUID) map[uuid.UUID]string {
	isNew := make(map[uuid.UUID]bool, len(added))
	for _, id := range added {
		isNew[id] = true
	}
	out := map[uuid.UUID]string{}
	for i, v := range named {
		if i < len(refs) && refs[i].Given != v.Name.String() && isNew[v.ID] {
			out[v.ID] = refs[i].Given
		}
	}
	return out
}

// pick returns the vendors of ids, in their order.
func pick(byID map[uuid.UUID]vendors.Vendor, ids []uuid.UUID) []vendors.Vendor {
	out := make([]vendors.Vendor, 0, len(ids))
	for _, id := range ids {
		out = append(out, byID[id])
	}
	return out
}

func sortVendors(vs []vendors.Vendor) []vendors.Vendor {
	out := append([]vendors.Vendor(nil), vs...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Name.Key() < out[j-1].Name.Key(); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// AddProduct adds a product row to a vendor on a list; a duplicate is a conflict.
func (s *Service) AddProduct(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, listID, vid uuid.UUID, name string) (Product, error) {
	var p Product
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		_, l, err := AccountList(ctx, tx, a, ref, accounts.WriteRole, ListRef{ID: listID}, false)
		if err != nil {
			return err
		}
		if p, err = NewProduct(s.d.IDs.New(), l.ID, vid, name, s.d.Now()); err != nil {
			return err
		}
		err = tx.Lists().AddProduct(ctx, p)
		switch {
		case errors.Is(err, core.ErrConflict):
			return core.Conflict("product %q already exists for this vendor on the list", p.Name)
		case errors.Is(err, core.ErrNotFound):
			return core.NotFound("vendor %s is not on the list", vid)
		}
		return err
	})
	return p, err
}

// SetAlerts turns incident alerts for one vendor of a list on or off.
func (s *Service) SetAlerts(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr ListRef, vid uuid.UUID, enabled bool) (Entry, error) {
	var e Entry
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		_, l, err := AccountList(ctx, tx, a, ref, accounts.WriteRole, lr, false)
		if err != nil {
			return err
		}
		if err := tx.Lists().SetAlerts(ctx, l.ID, vid, enabled); err != nil {
			if errors.Is(err, core.ErrNotFound) {
				return core.NotFound("vendor %s is not on the list", vid)
			}
			return err
		}
		es, err := tx.Lists().EntriesOf(ctx, l.ID, []uuid.UUID{vid})
		if err != nil {
			return err
		}
		if len(es) != 1 {
			return fmt.Errorf("set alerts: entry of vendor %s not read back", vid)
		}
		e = es[0]
		return nil
	})
	return e, err
}

// VendorsChanged records list.vendors_changed when vendors came onto or
// left a list, in the unit of work that changed it.
func (s *Service) VendorsChanged(ctx context.Context, tx Tx, l List, added, removed []uuid.UUID) error {
	if len(added) == 0 && len(removed) == 0 {
		return nil
	}
	return s.d.Event(ctx, tx, domainevent.VendorsChanged(l.AccountID, l.ID, l.Name, added, removed, s.d.Now()))
}
