package lists

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
)

// listDB is one account's lists with their entries and products, the
// directory's vendors, the quota claims and the outbox. Units of work run
// one at a time; a dry run's rollback is not replayed (the tests check a
// dry run through its report).
type listDB struct {
	acc      uuid.UUID
	user     uuid.UUID
	lists    map[uuid.UUID]List
	entries  map[uuid.UUID][]uuid.UUID // list -> vendors
	products []Product
	alerts   map[[2]uuid.UUID]bool
	vendors  map[uuid.UUID]vendors.Vendor
	claims   map[uuid.UUID]bool
	outbox   []outbox.Message

	pageReads int // calls of EntriesAfter and EntriesOf
	keyReads  int // calls of EntryKeys
}

func (d *listDB) InTx(ctx context.Context, fn func(context.Context, Tx) error) error {
	return fn(ctx, listTx{d: d})
}
func (d *listDB) View(ctx context.Context, fn func(context.Context, Tx) error) error {
	return fn(ctx, listTx{d: d})
}
func (d *listDB) Ping(context.Context) error { return nil }

type listTx struct {
	Tx
	d *listDB
}

func (t listTx) Accounts() accounts.AccountRepo { return listAccounts{d: t.d} }
func (t listTx) Lists() ListRepo                { return listRepo{d: t.d} }
func (t listTx) Vendors() vendors.VendorRepo    { return listVendors{d: t.d} }
func (t listTx) Quota() QuotaRepo               { return quotaRepo{t: &quotaTx{claims: t.d.claims}} }
func (t listTx) Outbox() outbox.Repo            { return listOutbox{d: t.d} }

type listAccounts struct {
	accounts.AccountRepo
	d *listDB
}

func (r listAccounts) MembershipOf(_ context.Context, id, user uuid.UUID) (accounts.Membership, error) {
	if id != r.d.acc || user != r.d.user {
		return accounts.Membership{}, core.ErrNotFound
	}
	return accounts.Membership{Account: accounts.Account{ID: id, Active: true}, Role: accounts.RoleMember}, nil
}
func (r listAccounts) Lock(context.Context, uuid.UUID) error { return nil }

type listRepo struct {
	ListRepo
	d *listDB
}

func (r listRepo) Create(_ context.Context, l List) error {
	for _, x := range r.d.lists {
		if x.Name == l.Name {
			return core.ErrConflict
		}
	}
	r.d.lists[l.ID] = l
	return nil
}
func (r listRepo) Get(_ context.Context, _, id uuid.UUID) (List, error) {
	l, ok := r.d.lists[id]
	if !ok {
		return l, core.ErrNotFound
	}
	l.VendorCount = len(r.d.entries[id])
	return l, nil
}
func (r listRepo) GetByName(ctx context.Context, acc uuid.UUID, name string) (List, error) {
	for id, l := range r.d.lists {
		if l.Name == name {
			return r.Get(ctx, acc, id)
		}
	}
	return List{}, core.ErrNotFound
}
func (r listRepo) ListByAccount(context.Context, uuid.UUID) ([]List, error) {
	var out []List
	for _, l := range r.d.lists {
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b List) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}
func (r listRepo) Delete(_ context.Context, _, id uuid.UUID) error { delete(r.d.lists, id); return nil }
func (r listRepo) LockList(_ context.Context, id uuid.UUID) (int64, error) {
	return r.d.lists[id].Version, nil
}
func (r listRepo) VendorIDs(_ context.Context, id uuid.UUID) ([]uuid.UUID, error) {
	return slices.Clone(r.d.entries[id]), nil
}
func (r listRepo) Entries(_ context.Context, id uuid.UUID) ([]Entry, error) {
	var out []Entry
	for _, v := range r.d.entries[id] {
		e := Entry{ListID: id, VendorID: v, VendorName: string(r.d.vendors[v].Name), AlertsEnabled: r.d.alerts[[2]uuid.UUID{id, v}]}
		for _, p := range r.d.products {
			if p.ListID == id && p.VendorID == v {
				e.Products = append(e.Products, p)
			}
		}
		out = append(out, e)
	}
	return out, nil
}
func (r listRepo) EntriesOf(ctx context.Context, id uuid.UUID, vs []uuid.UUID) ([]Entry, error) {
	r.d.pageReads++
	return slices.DeleteFunc(r.sortedEntries(ctx, id), func(e Entry) bool { return !slices.Contains(vs, e.VendorID) }), nil
}
func (r listRepo) AddEntries(_ context.Context, id uuid.UUID, vs []uuid.UUID, _ time.Time) error {
	for _, v := range vs {
		if !slices.Contains(r.d.entries[id], v) {
			r.d.entries[id] = append(r.d.entries[id], v)
			r.d.alerts[[2]uuid.UUID{id, v}] = true
		}
	}
	return nil
}
func (r listRepo) NameEntries(context.Context, uuid.UUID, map[uuid.UUID]string) error { return nil }
func (r listRepo) RemoveEntries(_ context.Context, id uuid.UUID, vs []uuid.UUID) error {
	r.d.entries[id] = slices.DeleteFunc(r.d.entries[id], func(v uuid.UUID) bool { return slices.Contains(vs, v) })
	return nil
}
func (r listRepo) SetAlerts(_ context.Context, id, v uuid.UUID, on bool) error {
	if !slices.Contains(r.d.entries[id], v) {
		return core.ErrNotFound
	}
	r.d.alerts[[2]uuid.UUID{id, v}] = on
	return nil
}
func (r listRepo) AddProduct(_ context.Context, p Product) error {
	if !slices.Contains(r.d.entries[p.ListID], p.VendorID) {
		return core.ErrNotFound
	}
	for _, x := range r.d.products {
		if x.ListID == p.ListID && x.VendorID == p.VendorID && strings.EqualFold(x.Name, p.Name) {
			return core.ErrConflict
		}
	}
	r.d.products = append(r.d.products, p)
	return nil
}
func (r listRepo) MergeProducts(ctx context.Context, ps []Product) (int, error) {
	n := 0
	for _, p := range ps {
		if r.AddProduct(ctx, p) == nil {
			n++
		}
	}
	return n, nil
}

type listVendors struct {
	vendors.VendorRepo
	d *listDB
}

func (r listVendors) ListByIDs(_ context.Context, ids []uuid.UUID) ([]vendors.Vendor, error) {
	var out []vendors.Vendor
	for _, id := range ids {
		out = append(out, r.d.vendors[id])
	}
	return out, nil
}

type listOutbox struct {
	outbox.Repo
	d *listDB
}

func (r listOutbox) Add(_ context.Context, ms ...outbox.Message) error {
	r.d.outbox = append(r.d.outbox, ms...)
	return nil
}

// directoryOf adds vendors by name to the listDB, and counts the runs.
type directoryOf struct {
	d    *listDB
	runs int
}

func (x *directoryOf) EnsureVendors(_ context.Context, _ vendors.Tx, refs []vendors.VendorRef) ([]vendors.Vendor, error) {
	out := make([]vendors.Vendor, len(refs))
	for i, r := range refs {
		for _, v := range x.d.vendors {
			if v.Name.Key() == r.Name.Key() {
				out[i] = v
			}
		}
		if out[i].ID == uuid.Nil {
			out[i] = vendors.Vendor{ID: uuid.New(), Name: r.Name, WebsiteURL: r.WebsiteURL}
			x.d.vendors[out[i].ID] = out[i]
		}
	}
	return out, nil
}

func (x *directoryOf) StartEnrichRun(context.Context, vendors.Tx, string, []vendors.Vendor, []string, ...vendors.RunJob) (vendors.Run, error) {
	x.runs++
	return vendors.Run{}, nil
}

func listFixture(t *testing.T) (*Service, *listDB, *directoryOf, accounts.Actor, accounts.AccountRef) {
	t.Helper()
	d := &listDB{acc: uuid.New(), user: uuid.New(), lists: map[uuid.UUID]List{}, entries: map[uuid.UUID][]uuid.UUID{},
		alerts: map[[2]uuid.UUID]bool{}, vendors: map[uuid.UUID]vendors.Vendor{}, claims: map[uuid.UUID]bool{}}
	master, err := New(uuid.New(), d.acc, MasterList, fixedClock{}.Now())
	if err != nil {
		t.Fatal(err)
	}
	d.lists[master.ID] = master
	dir := &directoryOf{d: d}
	s, err := NewService(Deps{Unit: uow.Unit[Tx]{Store: d, Clock: fixedClock{}, IDs: ports.UUIDv7{}}, Directory: dir,
		Files: func(context.Context, Tx, uuid.UUID, uuid.UUID) ([]string, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return s, d, dir, accounts.Actor{UserID: d.user, Email: "ann@acme.test"}, accounts.AccountRef{ID: d.acc}
}

func TestSaveVendorsReplacesTheMembership(t *testing.T) {
	t.Parallel()
	s, _, dir, a, ref := listFixture(t)
	ctx := context.Background()
	res, err := s.SaveVendors(ctx, a, ref, ListRef{}, append(named(t, "Zoom"), namedSite(t, "Acme", "https://acme.test")))
	if err != nil || len(res.Added) != 2 || res.List.Name != MasterList || res.Quota.Queued != 2 || dir.runs != 1 {
		t.Fatalf("first save: %+v, %v (runs %d)", res, err, dir.runs)
	}
	res, err = s.SaveVendors(ctx, a, ref, MasterRef, named(t, "acme", "Beta"))
	if err != nil || len(res.Added) != 1 || len(res.Removed) != 1 || res.Removed[0].Name != "Zoom" || res.Unchanged != 1 || res.List.VendorCount != 2 {
		t.Fatalf("second save: %+v, %v", res, err)
	}
	if _, err := s.SaveVendors(ctx, accounts.Actor{UserID: uuid.New()}, ref, ListRef{}, nil); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("an outsider: %v", err)
	}
}

func TestListsProductsAndAlerts(t *testing.T) {
	t.Parallel()
	s, d, _, a, ref := listFixture(t)
	ctx := context.Background()
	l, err := s.CreateList(ctx, a, ref, "Critical")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateList(ctx, a, ref, "Critical"); !errors.Is(err, core.ErrConflict) {
		t.Fatalf("a duplicate name: %v", err)
	}
	if ls, err := s.Lists(ctx, a, ref); err != nil || len(ls) != 2 {
		t.Fatalf("lists: %v, %v", ls, err)
	}
	res, err := s.SaveVendors(ctx, a, ref, ListRef{ID: l.ID}, named(t, "Acme"))
	if err != nil {
		t.Fatal(err)
	}
	acme := res.Added[0].ID
	if _, err := s.AddProduct(ctx, a, ref, l.ID, acme, "Chat"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddProduct(ctx, a, ref, l.ID, acme, "chat"); !errors.Is(err, core.ErrConflict) {
		t.Fatalf("a duplicate product: %v", err)
	}
	if _, err := s.AddProduct(ctx, a, ref, l.ID, uuid.New(), "Chat"); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("a product of a vendor not on the list: %v", err)
	}
	e, err := s.SetAlerts(ctx, a, ref, ListRef{Name: "Critical"}, acme, false)
	if err != nil || e.AlertsEnabled || e.VendorID != acme {
		t.Fatalf("alerts off: %+v, %v", e, err)
	}
	if _, err := s.SetAlerts(ctx, a, ref, ListRef{ID: l.ID}, uuid.New(), true); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("alerts of a vendor not on the list: %v", err)
	}
	if got, es, err := s.ListWithVendors(ctx, a, ref, ListRef{ID: l.ID}); err != nil || got.ID != l.ID || len(es) != 1 || len(es[0].Products) != 1 {
		t.Fatalf("list with vendors: %+v %v", es, err)
	}
	if _, err := s.DeleteList(ctx, a, ref, MasterRef); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("master-list deleted: %v", err)
	}
	if _, err := s.DeleteList(ctx, a, ref, ListRef{ID: l.ID}); err != nil || len(d.lists) != 1 {
		t.Fatalf("delete: %v", err)
	}
}

// named parses vendor names as the HTTP layer does, once.
func named(t testing.TB, names ...string) []vendors.VendorRef {
	t.Helper()
	refs, err := vendors.ParseRefs(names, nil)
	if err != nil {
		t.Fatal(err)
	}
	return refs
}

// namedSite parses one vendor with its website.
func namedSite(t testing.TB, name, site string) vendors.VendorRef {
	t.Helper()
	refs, err := vendors.ParseRefs([]string{name}, []string{site})
	if err != nil {
		t.Fatal(err)
	}
	return refs[0]
}
