package service

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/account"
	"github.com/vetted-dev/vetted/core/directory"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/run"
	"github.com/vetted-dev/vetted/core/vendorlist"
	"github.com/vetted-dev/vetted/ports"
)

// ListRef names a list: ID comes from vendor-list-id and must be a UUID;
// Ref comes from vendor-list and may be an id or a name. With neither, the
// operations that allow it use master-list.
type ListRef struct {
	ID  string
	Ref string
}

func (r ListRef) empty() bool { return strings.TrimSpace(r.ID) == "" && strings.TrimSpace(r.Ref) == "" }

func (s *Service) resolveList(ctx context.Context, tx ports.Tx, accountID uuid.UUID, r ListRef, defaultMaster bool) (vendorlist.List, error) {
	var (
		l   vendorlist.List
		err error
	)
	switch {
	case strings.TrimSpace(r.ID) != "":
		id, perr := parseID("vendor-list-id", r.ID)
		if perr != nil {
			return l, perr
		}
		l, err = tx.Lists().Get(ctx, accountID, id)
	case strings.TrimSpace(r.Ref) != "":
		if id, perr := uuid.Parse(strings.TrimSpace(r.Ref)); perr == nil {
			l, err = tx.Lists().Get(ctx, accountID, id)
		} else {
			l, err = tx.Lists().GetByName(ctx, accountID, strings.Join(strings.Fields(r.Ref), " "))
		}
	case defaultMaster:
		l, err = tx.Lists().GetByName(ctx, accountID, vendorlist.MasterList)
	default:
		return l, core.Invalid("vendor-list-id", "vendor-list-id or vendor-list is required")
	}
	if errors.Is(err, core.ErrNotFound) {
		return l, core.NotFound("vendor list not found in this account")
	}
	return l, err
}

// listAccess resolves an account for the actor with a minimum role, then one
// of its lists.
func (s *Service) listAccess(ctx context.Context, tx ports.Tx, a Actor, ref string, min account.Role, lr ListRef, defaultMaster bool) (Access, vendorlist.List, error) {
	acc, err := s.access(ctx, tx, a, ref, min)
	if err != nil {
		return Access{}, vendorlist.List{}, err
	}
	l, err := s.resolveList(ctx, tx, acc.Account.ID, lr, defaultMaster)
	return acc, l, err
}

// Lists returns the account's lists.
func (s *Service) Lists(ctx context.Context, a Actor, ref string) ([]vendorlist.List, error) {
	var out []vendorlist.List
	err := s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.access(ctx, tx, a, ref, account.ReadRole)
		if err != nil {
			return err
		}
		out, err = tx.Lists().ListByAccount(ctx, acc.Account.ID)
		return err
	})
	return out, err
}

// ListWithVendors returns one list and its entries.
func (s *Service) ListWithVendors(ctx context.Context, a Actor, ref string, lr ListRef) (vendorlist.List, []vendorlist.Entry, error) {
	var (
		l  vendorlist.List
		es []vendorlist.Entry
	)
	err := s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
		var (
			err error
		)
		if _, l, err = s.listAccess(ctx, tx, a, ref, account.ReadRole, lr, false); err != nil {
			return err
		}
		es, err = tx.Lists().Entries(ctx, l.ID)
		return err
	})
	return l, es, err
}

// CreateList creates a list; a duplicate name in the account is a conflict.
func (s *Service) CreateList(ctx context.Context, a Actor, ref, name string) (vendorlist.List, error) {
	var l vendorlist.List
	err := s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.access(ctx, tx, a, ref, account.WriteRole)
		if err != nil {
			return err
		}
		if l, err = vendorlist.New(s.d.IDs.New(), acc.Account.ID, name, s.now()); err != nil {
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
func (s *Service) DeleteList(ctx context.Context, a Actor, ref string, lr ListRef) (vendorlist.List, error) {
	var l vendorlist.List
	err := s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		var (
			acc Access
			err error
		)
		if acc, l, err = s.listAccess(ctx, tx, a, ref, account.WriteRole, lr, false); err != nil {
			return err
		}
		if l.Name == vendorlist.MasterList {
			return core.Invalid("vendor-list", "%s cannot be deleted; every account keeps it", vendorlist.MasterList)
		}
		keys, err := s.listDocumentKeys(ctx, tx, acc.Account.ID, l.ID)
		if err != nil {
			return err
		}
		if err := tx.Lists().Delete(ctx, acc.Account.ID, l.ID); err != nil {
			return err
		}
		if len(keys) > 0 {
			return s.emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: keys})
		}
		return nil
	})
	return l, err
}

func (s *Service) listDocumentKeys(ctx context.Context, tx ports.Tx, accountID, listID uuid.UUID) ([]string, error) {
	as, err := tx.Assessments().Find(ctx, ports.AssessmentFilter{AccountID: accountID, ListID: &listID})
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, asm := range as {
		docs, err := tx.Documents().ListByAssessment(ctx, asm.ID)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			keys = append(keys, d.ObjectKey)
		}
	}
	return keys, nil
}

// VendorInput is a vendor named in a request body.
type VendorInput struct {
	Name       string
	WebsiteURL string
}

// SaveResult is the answer of save-vendors.
type SaveResult struct {
	List      vendorlist.List
	Added     []directory.Vendor
	Removed   []directory.Vendor
	Unchanged int
	Quota     vendorlist.QuotaReport
}

// SaveVendors replaces the membership of a list with the given set: vendors
// omitted are removed, new ones added (created in the directory when
// unknown), and new custom vendors are queued for enrichment within the
// account's quota. Over quota, the vendor is still saved, just not queued.
func (s *Service) SaveVendors(ctx context.Context, a Actor, ref string, lr ListRef, in []VendorInput) (SaveResult, error) {
	names := make([]string, len(in))
	sites := make([]string, len(in))
	for i, v := range in {
		names[i], sites[i] = v.Name, v.WebsiteURL
	}
	refs, err := vendorlist.ParseRefs(names, sites)
	if err != nil {
		return SaveResult{}, err
	}
	var res SaveResult
	err = s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, l, err := s.listAccess(ctx, tx, a, ref, account.WriteRole, lr, true)
		if err != nil {
			return err
		}
		stored, err := s.ensureVendors(ctx, tx, refs)
		if err != nil {
			return err
		}
		byID := make(map[uuid.UUID]directory.Vendor, len(stored))
		desired := make([]uuid.UUID, len(stored))
		for i, v := range stored {
			byID[v.ID] = v
			desired[i] = v.ID
		}
		current, err := tx.Lists().VendorIDs(ctx, l.ID)
		if err != nil {
			return err
		}
		added, removed, unchanged := vendorlist.Diff(current, desired)
		if err := tx.Lists().AddEntries(ctx, l.ID, added, s.now()); err != nil {
			return err
		}
		if err := tx.Lists().RemoveEntries(ctx, l.ID, removed); err != nil {
			return err
		}
		gone, err := tx.Vendors().ListByIDs(ctx, removed)
		if err != nil {
			return err
		}
		addedVs := make([]directory.Vendor, 0, len(added))
		for _, id := range added {
			addedVs = append(addedVs, byID[id])
		}
		report, err := s.queueEnrichment(ctx, tx, a, acc.Account.ID, addedVs)
		if err != nil {
			return err
		}
		if res.List, err = tx.Lists().Get(ctx, acc.Account.ID, l.ID); err != nil {
			return err
		}
		res.Added, res.Removed, res.Unchanged, res.Quota = addedVs, sortVendors(gone), unchanged, report
		return nil
	})
	return res, err
}

func sortVendors(vs []directory.Vendor) []directory.Vendor {
	out := append([]directory.Vendor(nil), vs...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Name.Key() < out[j-1].Name.Key(); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// ensureVendors finds or creates directory entries for refs, in order.
func (s *Service) ensureVendors(ctx context.Context, tx ports.Tx, refs []vendorlist.VendorRef) ([]directory.Vendor, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	cands := make([]directory.Vendor, len(refs))
	for i, r := range refs {
		v, err := directory.New(s.d.IDs.New(), r.Name.String(), r.WebsiteURL, s.now())
		if err != nil {
			return nil, err
		}
		cands[i] = v
	}
	return tx.Vendors().Ensure(ctx, cands)
}

// queueEnrichment claims quota for the custom vendors among vs and queues an
// enrichment run for them. A vendor the account has claimed before, or one
// that already has a profile, counts as already known.
func (s *Service) queueEnrichment(ctx context.Context, tx ports.Tx, a Actor, accountID uuid.UUID, vs []directory.Vendor) (vendorlist.QuotaReport, error) {
	rep := vendorlist.QuotaReport{Limit: vendorlist.EnrichmentQuota, Errors: []vendorlist.QuotaError{}}
	var custom []uuid.UUID
	for _, v := range vs {
		if v.IsCustom() {
			custom = append(custom, v.ID)
		} else {
			rep.AlreadyKnown++
		}
	}
	if len(custom) > 0 {
		// Reading what is used and claiming more is one decision per
		// account: concurrent saves queue up here, so the quota holds.
		if err := tx.Accounts().Lock(ctx, accountID); err != nil {
			return rep, err
		}
	}
	used, err := tx.Quota().Used(ctx, accountID)
	if err != nil {
		return rep, err
	}
	claimed, err := tx.Quota().Claimed(ctx, accountID, custom)
	if err != nil {
		return rep, err
	}
	had := make(map[uuid.UUID]bool, len(claimed))
	for _, id := range claimed {
		had[id] = true
	}
	var queue []directory.Vendor
	var claim []uuid.UUID
	for _, v := range vs {
		if !v.IsCustom() {
			continue
		}
		if had[v.ID] {
			rep.AlreadyKnown++
			continue
		}
		if used+len(claim) >= vendorlist.EnrichmentQuota {
			rep.Errors = append(rep.Errors, vendorlist.QuotaError{VendorName: v.Name.String(), Code: "quota_exceeded",
				Message: "saved, but not queued for enrichment: the account has used its quota of 500 custom vendors"})
			continue
		}
		claim = append(claim, v.ID)
		queue = append(queue, v)
	}
	if err := tx.Quota().Claim(ctx, accountID, claim, s.now()); err != nil {
		return rep, err
	}
	rep.Queued = len(queue)
	rep.Used = used + len(claim)
	if len(queue) > 0 {
		if _, err := s.startEnrichRun(ctx, tx, a.Email, queue, directory.SectionValues()); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// startEnrichRun records a run with one job per vendor (plus jobs already
// settled, such as skipped ones) and queues the jobs in one outbox write.
func (s *Service) startEnrichRun(ctx context.Context, tx ports.Tx, by string, vs []directory.Vendor, sections []string, settled ...run.Job) (run.Run, error) {
	now := s.now()
	r := run.Run{ID: s.d.IDs.New(), Kind: run.KindEnrich, Sections: sections, CreatedBy: by, CreatedAt: now, UpdatedAt: now}
	msgs := make([]outbox.Message, 0, len(vs))
	for _, v := range vs {
		j := run.Job{ID: s.d.IDs.New(), VendorID: v.ID, VendorName: v.Name.String(), Status: run.StatusQueued}
		r.Jobs = append(r.Jobs, j)
		msgs = append(msgs, outbox.New(s.d.IDs.New(), outbox.KindEnrich, outbox.Enrich{RunID: r.ID, JobID: j.ID, VendorID: v.ID, Sections: sections}, now))
	}
	r.Jobs = append(r.Jobs, settled...)
	if len(msgs) > 0 {
		if err := tx.Outbox().Add(ctx, msgs...); err != nil {
			return r, err
		}
	}
	return r, tx.Runs().Create(ctx, r)
}

// AddProduct adds a product row to a vendor on a list; a duplicate is a conflict.
func (s *Service) AddProduct(ctx context.Context, a Actor, ref, listID, vendorID, name string) (vendorlist.Product, error) {
	var p vendorlist.Product
	err := s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		_, l, err := s.listAccess(ctx, tx, a, ref, account.WriteRole, ListRef{ID: listID}, false)
		if err != nil {
			return err
		}
		vid, err := parseID("vendor_id", vendorID)
		if err != nil {
			return err
		}
		if p, err = vendorlist.NewProduct(s.d.IDs.New(), l.ID, vid, name, s.now()); err != nil {
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
func (s *Service) SetAlerts(ctx context.Context, a Actor, ref string, lr ListRef, vendorID string, enabled bool) (vendorlist.Entry, error) {
	var e vendorlist.Entry
	err := s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		_, l, err := s.listAccess(ctx, tx, a, ref, account.WriteRole, lr, false)
		if err != nil {
			return err
		}
		vid, err := parseID("vendor-id", vendorID)
		if err != nil {
			return err
		}
		if err := tx.Lists().SetAlerts(ctx, l.ID, vid, enabled); err != nil {
			if errors.Is(err, core.ErrNotFound) {
				return core.NotFound("vendor %s is not on the list", vid)
			}
			return err
		}
		es, err := tx.Lists().Entries(ctx, l.ID)
		for _, x := range es {
			if x.VendorID == vid {
				e = x
			}
		}
		return err
	})
	return e, err
}
