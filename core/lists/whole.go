package lists

import (
	"context"

	"github.com/google/uuid"

	"github.com/vetted-dev/vetted/core/accounts"
)

// WholeListPage is how many entries a whole-list read holds at a time: a
// list of any length is read, and can be written out, in pages of this
// many, never all at once.
const WholeListPage = 500

// WholeList is a read of one list with all its vendors, under way.
// Opening it checked the caller's access and resolved the list; a list of
// at most WholeListPage vendors was read whole then, in the same read of
// the store (one snapshot on SQLite and the memory store, as before).
//
// A longer list is read by Each: its order first (the ids of its vendors
// by name, 16 bytes a vendor, the only thing held for the whole list) with
// its first page, then each later page by those ids, in a read of its own.
// So the answer holds the vendors that were on the list when Each began,
// in that order, each as it is when its page is read; one removed
// meanwhile is left out, one added meanwhile is not shown. Pages read by
// keyset instead (the vendors named after the last one's) would each join
// and sort the whole list again, since the order is the vendors' names and
// not a column of the entries: on SQLite that made a read of 5,000 vendors
// about five times as costly as reading it at once.
//
// The pages deliberately do not share one snapshot (a read-only REPEATABLE
// READ transaction on PostgreSQL, one read transaction on SQLite): that
// would hold a connection of the store's read pool for as long as the
// client takes to receive the answer, so that a few slow readers of long
// lists could hold every read of the service up (and, on SQLite, the WAL's
// checkpoint). A read on PostgreSQL never was one snapshot
// (postgres.Store.View runs each statement on its own).
type WholeList struct {
	s     *Service
	list  List
	first []Entry // the whole list, when it is one page
	long  bool    // more than a page: Each reads it
}

// OpenList checks that the caller may read the list (viewer or above),
// resolves it and, when it is at most a page long, reads its entries: a
// refusal, an unknown list or a store that does not answer is known before
// anything is written.
func (s *Service) OpenList(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr ListRef) (*WholeList, error) {
	w := &WholeList{s: s}
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		_, l, err := AccountList(ctx, tx, a, ref, accounts.ReadRole, lr, false)
		if err != nil {
			return err
		}
		w.list = l
		if l.VendorCount > WholeListPage {
			w.long = true
			return nil
		}
		// One page, unless it grew since it was counted.
		es, err := tx.Lists().EntriesAfter(ctx, l.ID, EntryKey{}, WholeListPage+1)
		w.first, w.long = es, len(es) > WholeListPage
		return err
	})
	if err != nil {
		return nil, err
	}
	if w.long {
		w.first = nil
	}
	return w, nil
}

// List is the list read, with its vendor count as of OpenList.
func (w *WholeList) List() List { return w.list }

// InOneRead reports whether OpenList read every entry of the list, so
// that Each reads the store no more.
func (w *WholeList) InOneRead() bool { return !w.long }

// Each calls page with the list's entries in order (vendor name in byte
// order, then vendor id), at most WholeListPage at a time; for a long list
// each page after the first is read, in a read of its own, once the one
// before was handed over. It makes no call for an empty page (an empty
// list, or a page all of whose vendors left the list meanwhile), and stops
// at the first error, of the store or of page. A WholeList is read once.
func (w *WholeList) Each(ctx context.Context, page func([]Entry) error) error {
	es := w.first
	w.first = nil // held no longer than the page it is
	var rest []uuid.UUID
	if w.long {
		err := w.s.d.View(ctx, func(ctx context.Context, tx Tx) error {
			keys, err := tx.Lists().EntryKeys(ctx, w.list.ID)
			if err != nil {
				return err
			}
			ids := make([]uuid.UUID, len(keys))
			for i, k := range keys {
				ids[i] = k.VendorID
			}
			n := min(len(ids), WholeListPage)
			rest = ids[n:]
			es, err = tx.Lists().EntriesOf(ctx, w.list.ID, ids[:n])
			return err
		})
		if err != nil {
			return err
		}
	}
	for {
		if len(es) > 0 {
			if err := page(es); err != nil {
				return err
			}
		}
		if len(rest) == 0 {
			return nil
		}
		ids := rest[:min(len(rest), WholeListPage)]
		rest = rest[len(ids):]
		es = nil
		err := w.s.d.View(ctx, func(ctx context.Context, tx Tx) error {
			var err error
			es, err = tx.Lists().EntriesOf(ctx, w.list.ID, ids)
			return err
		})
		if err != nil {
			return err
		}
	}
}
