package porttest

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

func listIDs(ls []lists.List) []uuid.UUID {
	return idsOf(ls, func(l lists.List) uuid.UUID { return l.ID })
}

func entryVendors(es []lists.Entry) []uuid.UUID {
	return idsOf(es, func(e lists.Entry) uuid.UUID { return e.VendorID })
}

func productNames(ps []lists.Product) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strings.ToLower(p.Name)
	}
	return out
}

func entries(f *fixture, listID uuid.UUID) []lists.Entry {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
		return tx.Lists().Entries(ctx, listID)
	})
}

// entryOf returns the entry of a vendor, failing when it is not on the list.
func entryOf(f *fixture, listID, vendorID uuid.UUID) lists.Entry {
	f.t.Helper()
	for _, e := range entries(f, listID) {
		if e.VendorID == vendorID {
			return e
		}
	}
	f.t.Fatalf("vendor %v is not on list %v", vendorID, listID)
	return lists.Entry{}
}

func getList(f *fixture, accountID, id uuid.UUID) (lists.List, error) {
	return loadErr(f, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
		return tx.Lists().Get(ctx, accountID, id)
	})
}

// errRolledBack ends a unit of work that a test rolls back.
var errRolledBack = errors.New("rolled back by the test")

// writeGet runs fn in a unit of work and returns what it returned.
func (f *fixture) writeGet(fn func(ctx context.Context, tx stores.Tx) (int64, error)) int64 {
	f.t.Helper()
	v, err := f.writeGetErr(fn)
	if err != nil {
		f.t.Fatalf("InTx: %v", err)
	}
	return v
}

func (f *fixture) writeGetErr(fn func(ctx context.Context, tx stores.Tx) (int64, error)) (int64, error) {
	var v int64
	err := f.try(func(ctx context.Context, tx stores.Tx) error {
		var err error
		v, err = fn(ctx, tx)
		return err
	})
	return v, err
}

func addProduct(f *fixture, p lists.Product) error {
	return f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().AddProduct(ctx, p) })
}

var listCases = []testCase{
	{"NameEntries gives entries the name they were added under; the others show the directory's", func(t *testing.T, f *fixture) {
		a := f.org("Acme")
		l := f.list(a.ID, "audit")
		vs := f.vendors("Acme", "Beta", "Gamma")
		f.onList(l.ID, vs[0], vs[1])
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().NameEntries(ctx, l.ID, map[uuid.UUID]string{vs[0].ID: "Acme Corp", vs[2].ID: "Gamma GmbH"})
		})
		es := entries(f, l.ID)
		sameIDs(t, "entries", entryVendors(es), []uuid.UUID{vs[0].ID, vs[1].ID})
		equal(t, "vendor name", es[0].VendorName, "Acme")
		equal(t, "display name given", es[0].DisplayName, "Acme Corp")
		equal(t, "display name not given", es[1].DisplayName, "Beta")
		got, err := getList(f, a.ID, l.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "version after AddEntries and NameEntries", got.Version, int64(2))
		page := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
			return tx.Lists().EntriesOf(ctx, l.ID, []uuid.UUID{vs[0].ID})
		})
		equal(t, "display name of EntriesOf", page[0].DisplayName, "Acme Corp")
	}},
	{"every write that changes a list's entries or products counts one change of its Version, a no-op none", func(t *testing.T, f *fixture) {
		a := f.org("Acme")
		l, other := f.list(a.ID, "audit"), f.list(a.ID, "other")
		vs := f.vendors("Alpha", "Beta")
		version := func() int64 {
			t.Helper()
			got, err := getList(f, a.ID, l.ID)
			if err != nil {
				t.Fatal(err)
			}
			locked := f.writeGet(func(ctx context.Context, tx stores.Tx) (int64, error) { return tx.Lists().LockList(ctx, l.ID) })
			equal(t, "LockList's version", locked, got.Version)
			return got.Version
		}
		step := func(what string, want int64, fn txFn) {
			t.Helper()
			f.write(fn)
			equal(t, "version after "+what, version(), want)
		}
		equal(t, "a new list's version", version(), int64(0))
		now := f.tick()
		ids := []uuid.UUID{vs[0].ID, vs[1].ID}
		step("AddEntries", 1, func(ctx context.Context, tx stores.Tx) error { return tx.Lists().AddEntries(ctx, l.ID, ids, now) })
		step("AddEntries of vendors on the list", 1, func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().AddEntries(ctx, l.ID, ids[:1], now)
		})
		step("SetAlerts", 2, func(ctx context.Context, tx stores.Tx) error { return tx.Lists().SetAlerts(ctx, l.ID, vs[0].ID, false) })
		p := f.newProduct(l.ID, vs[0].ID, "Payroll")
		step("AddProduct", 3, func(ctx context.Context, tx stores.Tx) error { return tx.Lists().AddProduct(ctx, p) })
		step("MergeProducts", 4, func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Lists().MergeProducts(ctx, []lists.Product{f.newProduct(l.ID, vs[1].ID, "CRM"), f.newProduct(l.ID, vs[0].ID, "payroll")})
			return err
		})
		step("MergeProducts of products there", 4, func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Lists().MergeProducts(ctx, []lists.Product{f.newProduct(l.ID, vs[0].ID, "PAYROLL")})
			return err
		})
		step("RemoveEntries", 5, func(ctx context.Context, tx stores.Tx) error { return tx.Lists().RemoveEntries(ctx, l.ID, ids[:1]) })
		step("RemoveEntries of vendors not on it", 5, func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().RemoveEntries(ctx, l.ID, ids[:1])
		})
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Lists().AddEntries(ctx, l.ID, ids[:1], now); err != nil {
				return err
			}
			return errRolledBack
		})
		wantErr(t, "rolled back", err, errRolledBack)
		equal(t, "version after a rolled-back AddEntries", version(), int64(5))
		o, err := getList(f, a.ID, other.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "another list's version", o.Version, int64(0))
		_, err = f.writeGetErr(func(ctx context.Context, tx stores.Tx) (int64, error) { return tx.Lists().LockList(ctx, newID()) })
		wantErr(t, "LockList of no list", err, core.ErrNotFound)
	}},
	{"Create then Get, GetByName and ListByAccount with vendor counts", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme"), f.org("Beta")
		master, zed := f.list(a.ID, lists.MasterList), f.list(a.ID, "zed")
		audit := f.list(a.ID, "audit")
		f.list(other.ID, "audit")
		f.onList(master.ID, f.vendors("Acme", "Beta")...)
		got, err := getList(f, a.ID, master.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "name", got.Name, lists.MasterList)
		equal(t, "account", got.AccountID, a.ID)
		equal(t, "vendor count", got.VendorCount, 2)
		sameTime(t, "created_at", got.CreatedAt, master.CreatedAt)
		byName := load(f, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
			return tx.Lists().GetByName(ctx, a.ID, "audit")
		})
		equal(t, "by name", byName.ID, audit.ID)
		ls := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.List, error) {
			return tx.Lists().ListByAccount(ctx, a.ID)
		})
		sameIDs(t, "lists by name", listIDs(ls), []uuid.UUID{audit.ID, master.ID, zed.ID})
		equal(t, "listed vendor count", ls[1].VendorCount, 2)
		equal(t, "empty list count", ls[0].VendorCount, 0)
	}},
	{"Create refuses a second list of the same name in an account only", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme"), f.org("Beta")
		f.list(a.ID, "audit")
		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Create(ctx, f.newList(a.ID, "audit")) })
		wantErr(t, "same name", err, core.ErrConflict)
		f.list(other.ID, "audit")
		ls := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.List, error) {
			return tx.Lists().ListByAccount(ctx, a.ID)
		})
		equal(t, "lists of the account", len(ls), 1)
	}},
	{"reads are scoped to the account", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme"), f.org("Beta")
		l := f.list(a.ID, "audit")
		_, err := getList(f, other.ID, l.ID)
		wantErr(t, "Get from another account", err, core.ErrNotFound)
		_, err = getList(f, a.ID, newID())
		wantErr(t, "Get absent", err, core.ErrNotFound)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
			return tx.Lists().GetByName(ctx, other.ID, "audit")
		})
		wantErr(t, "GetByName from another account", err, core.ErrNotFound)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (lists.List, error) {
			return tx.Lists().GetByName(ctx, a.ID, "nothing")
		})
		wantErr(t, "GetByName absent", err, core.ErrNotFound)
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Delete(ctx, other.ID, l.ID) })
		wantErr(t, "Delete from another account", err, core.ErrNotFound)
		if _, err := getList(f, a.ID, l.ID); err != nil {
			t.Fatalf("list after a refused Delete: %v", err)
		}
	}},
	{"Entries are by vendor name with website, is_custom, alerts and products", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.ensure(f.newVendor("Zeta", "https://zeta.example"), f.newVendor("Acme", ""), f.newVendor("Mu", ""))
		f.profile(vs[0].ID)
		f.onList(l.ID, vs...)
		added := f.now
		f.product(l.ID, vs[0].ID, "Payroll")
		f.product(l.ID, vs[0].ID, "Analytics")
		es := entries(f, l.ID)
		sameIDs(t, "entries", entryVendors(es), []uuid.UUID{vs[1].ID, vs[2].ID, vs[0].ID})
		z := es[2]
		equal(t, "list id", z.ListID, l.ID)
		equal(t, "vendor name", z.VendorName, "Zeta")
		equal(t, "website", z.WebsiteURL, "https://zeta.example")
		equal(t, "profiled vendor is not custom", z.IsCustom, false)
		equal(t, "vendor without profile is custom", es[0].IsCustom, true)
		equal(t, "alerts enabled by default", z.AlertsEnabled, true)
		sameTime(t, "added_at", z.AddedAt, added)
		got := productNames(z.Products)
		if len(got) != 2 || !(got[0] == "payroll" && got[1] == "analytics" || got[0] == "analytics" && got[1] == "payroll") {
			t.Fatalf("products: got %q, want Payroll and Analytics", got)
		}
		equal(t, "product vendor", z.Products[0].VendorID, vs[0].ID)
		equal(t, "no products", len(es[0].Products), 0)
	}},
	{"Entries report the enrichment state of the profile's sections", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Custom", "Done", "Failed", "Queued", "Running", "Empty")
		f.onList(l.ID, vs...)
		sections := map[string]map[vendors.Section]string{
			"Done":    {vendors.SectionBasic: "done", vendors.SectionSecurity: "skipped"},
			"Failed":  {vendors.SectionBasic: "done", vendors.SectionSecurity: "failed"},
			"Queued":  {vendors.SectionBasic: "failed", vendors.SectionSecurity: "queued", vendors.SectionPrivacy: "done"},
			"Running": {vendors.SectionBasic: "queued", vendors.SectionSecurity: "running", vendors.SectionPrivacy: "failed"},
			"Empty":   {},
		}
		for _, v := range vs[1:] {
			p := f.newProfile(v.ID)
			clear(p.Enrichment)
			for sec, st := range sections[v.Name.String()] {
				p.Enrichment[sec] = vendors.SectionStatus{Status: st, UpdatedAt: f.now, Source: "web", Error: "an error text"}
			}
			f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, p) })
		}
		want := map[string]string{"Custom": "", "Done": "done", "Failed": "failed", "Queued": "queued", "Running": "running", "Empty": ""}
		for _, e := range entries(f, l.ID) {
			equal(t, "enrichment status of "+e.VendorName, e.EnrichmentStatus, want[e.VendorName])
		}
	}},
	{"Entries and their pages carry each vendor's security rating, nil while it has none", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Custom", "Rated", "Unrated", "Zero")
		f.onList(l.ID, vs...)
		for _, v := range vs[1:] {
			p := f.newProfile(v.ID)
			switch v.Name.String() {
			case "Rated":
				p.Scores.SecurityRating = new(87)
			case "Zero":
				p.Scores.SecurityRating = new(0)
			default:
				p.Scores.SecurityRating = nil
			}
			f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, p) })
		}
		want := map[string]string{"Custom": "none", "Rated": "87", "Unrated": "none", "Zero": "0"}
		show := func(r *int) string {
			if r == nil {
				return "none"
			}
			return strconv.Itoa(*r)
		}
		for _, e := range entries(f, l.ID) {
			equal(t, "rating of "+e.VendorName, show(e.Rating), want[e.VendorName])
		}
		page := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
			return tx.Lists().EntriesAfter(ctx, l.ID, lists.EntryKey{}, 10)
		})
		equal(t, "page length", len(page), 4)
		for _, e := range page {
			equal(t, "rating on a page of "+e.VendorName, show(e.Rating), want[e.VendorName])
		}
	}},
	{"EntryKeys name every entry in the order of Entries; EntriesOf reads the given vendors' entries as Entries has them", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l, other := f.list(a.ID, lists.MasterList), f.list(a.ID, "Other")
		vs := f.ensure(f.newVendor("beta", ""), f.newVendor("Alpha", "https://alpha.example"), f.newVendor("Zeta", ""), f.newVendor("Mu", ""))
		f.profile(vs[1].ID)
		f.onList(l.ID, vs[:3]...)
		f.onList(other.ID, vs[3])
		f.product(l.ID, vs[1].ID, "Payroll")
		all := entries(f, l.ID)
		keys := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.EntryKey, error) {
			return tx.Lists().EntryKeys(ctx, l.ID)
		})
		equal(t, "keys", len(keys), len(all))
		for i, k := range keys {
			equal(t, "key name", k.VendorName, all[i].VendorName)
			equal(t, "key vendor", k.VendorID, all[i].VendorID)
		}
		some := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
			return tx.Lists().EntriesOf(ctx, l.ID, []uuid.UUID{vs[2].ID, vs[1].ID, vs[3].ID, newID()})
		})
		want := slices.DeleteFunc(slices.Clone(all), func(e lists.Entry) bool { return e.VendorID == vs[0].ID })
		equal(t, "entries of the vendors on the list", len(some), len(want))
		for i := range some {
			equal(t, "vendor", some[i].VendorID, want[i].VendorID)
			equal(t, "website", some[i].WebsiteURL, want[i].WebsiteURL)
			equal(t, "custom", some[i].IsCustom, want[i].IsCustom)
			equal(t, "products", strings.Join(productNames(some[i].Products), ","), strings.Join(productNames(want[i].Products), ","))
		}
		none := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
			return tx.Lists().EntriesOf(ctx, l.ID, nil)
		})
		equal(t, "no vendors asked, no entries", len(none), 0)
	}},
	{"AddEntries leaves vendors already on the list as they are", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta")
		f.onList(l.ID, vs[0])
		first := f.now
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().SetAlerts(ctx, l.ID, vs[0].ID, false) })
		f.onList(l.ID, vs...)
		e := entryOf(f, l.ID, vs[0].ID)
		sameTime(t, "added_at kept", e.AddedAt, first)
		equal(t, "alerts kept", e.AlertsEnabled, false)
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]uuid.UUID, error) { return tx.Lists().VendorIDs(ctx, l.ID) })
		sameIDSet(t, "vendor ids", got, vendorIDs(vs))
		gotL, _ := getList(f, a.ID, l.ID)
		equal(t, "vendor count", gotL.VendorCount, 2)
	}},
	{"RemoveEntries takes vendors off with their products", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta", "Cobalt")
		f.onList(l.ID, vs...)
		f.product(l.ID, vs[0].ID, "Payroll")
		f.product(l.ID, vs[1].ID, "Payroll")
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().RemoveEntries(ctx, l.ID, []uuid.UUID{vs[0].ID, vs[2].ID, newID()})
		})
		sameIDs(t, "entries left", entryVendors(entries(f, l.ID)), []uuid.UUID{vs[1].ID})
		equal(t, "other vendor's product stays", len(entryOf(f, l.ID, vs[1].ID).Products), 1)
		f.onList(l.ID, vs[0])
		equal(t, "re-added vendor has no products", len(entryOf(f, l.ID, vs[0].ID).Products), 0)
		if err := addProduct(f, f.newProduct(l.ID, vs[0].ID, "Payroll")); err != nil {
			t.Fatalf("product name is free again: %v", err)
		}
	}},
	{"SetAlerts toggles alerts and refuses a vendor not on the list", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta")
		f.onList(l.ID, vs[0])
		for _, want := range []bool{false, true} {
			f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().SetAlerts(ctx, l.ID, vs[0].ID, want) })
			equal(t, "alerts", entryOf(f, l.ID, vs[0].ID).AlertsEnabled, want)
		}
		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().SetAlerts(ctx, l.ID, vs[1].ID, false) })
		wantErr(t, "vendor not on list", err, core.ErrNotFound)
	}},
	{"AddProduct refuses duplicates case-insensitively and vendors not on the list", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l, other := f.list(a.ID, lists.MasterList), f.list(a.ID, "other")
		vs := f.vendors("Acme", "Beta", "Cobalt")
		f.onList(l.ID, vs[0], vs[1])
		f.onList(other.ID, vs[0])
		f.product(l.ID, vs[0].ID, "Payroll")
		wantErr(t, "same name other case", addProduct(f, f.newProduct(l.ID, vs[0].ID, "PAYROLL")), core.ErrConflict)
		wantErr(t, "vendor not on list", addProduct(f, f.newProduct(l.ID, vs[2].ID, "Payroll")), core.ErrNotFound)
		for name, p := range map[string]lists.Product{
			"same name, other vendor": f.newProduct(l.ID, vs[1].ID, "Payroll"),
			"same name, other list":   f.newProduct(other.ID, vs[0].ID, "Payroll"),
		} {
			if err := addProduct(f, p); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		equal(t, "products of the vendor", len(entryOf(f, l.ID, vs[0].ID).Products), 1)
	}},
	{"MergeProducts inserts only new rows and counts them", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		vs := f.vendors("Acme", "Beta")
		f.onList(l.ID, vs...)
		f.product(l.ID, vs[0].ID, "Payroll")
		var n int
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			n, err = tx.Lists().MergeProducts(ctx, []lists.Product{
				f.newProduct(l.ID, vs[0].ID, "payroll"),
				f.newProduct(l.ID, vs[0].ID, "Analytics"),
				f.newProduct(l.ID, vs[1].ID, "Payroll"),
			})
			return err
		})
		equal(t, "inserted", n, 2)
		equal(t, "first vendor's products", len(entryOf(f, l.ID, vs[0].ID).Products), 2)
		equal(t, "second vendor's products", len(entryOf(f, l.ID, vs[1].ID).Products), 1)
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			n, err = tx.Lists().MergeProducts(ctx, []lists.Product{f.newProduct(l.ID, vs[1].ID, "PAYROLL")})
			return err
		})
		equal(t, "inserted on re-run", n, 0)
	}},
	{"Delete removes the list with its entries, products, assessments and subscribers", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l, kept := f.list(a.ID, "audit"), f.list(a.ID, lists.MasterList)
		vs := f.vendors("Acme")
		f.onList(l.ID, vs...)
		f.onList(kept.ID, vs...)
		f.product(l.ID, vs[0].ID, "Payroll")
		f.product(kept.ID, vs[0].ID, "Payroll")
		asmt, keptAsmt := f.assessment(l, vs[0]), f.assessment(kept, vs[0])
		sub, keptSub := f.subscriber(l, "ann@example.com", true), f.subscriber(kept, "ann@example.com", true)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Delete(ctx, a.ID, l.ID) })
		_, err := getList(f, a.ID, l.ID)
		wantErr(t, "list", err, core.ErrNotFound)
		equal(t, "entries", len(entries(f, l.ID)), 0)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (assessments.Assessment, error) {
			return tx.Assessments().Get(ctx, a.ID, asmt.ID)
		})
		wantErr(t, "assessment", err, core.ErrNotFound)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (alerts.Subscriber, error) {
			return tx.Subscribers().Get(ctx, sub.ID)
		})
		wantErr(t, "subscriber", err, core.ErrNotFound)
		equal(t, "kept list's products", len(entryOf(f, kept.ID, vs[0].ID).Products), 1)
		f.read(func(ctx context.Context, tx stores.Tx) error {
			if _, err := tx.Assessments().Get(ctx, a.ID, keptAsmt.ID); err != nil {
				t.Errorf("kept assessment: %v", err)
			}
			if _, err := tx.Subscribers().Get(ctx, keptSub.ID); err != nil {
				t.Errorf("kept subscriber: %v", err)
			}
			return nil
		})
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Delete(ctx, a.ID, l.ID) })
		wantErr(t, "Delete again", err, core.ErrNotFound)
		// The name is free again.
		f.list(a.ID, "audit")
	}},
}

func claimed(f *fixture, accountID uuid.UUID, ids ...uuid.UUID) []uuid.UUID {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) ([]uuid.UUID, error) {
		return tx.Quota().Claimed(ctx, accountID, ids)
	})
}

func used(f *fixture, accountID uuid.UUID) int {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) (int, error) { return tx.Quota().Used(ctx, accountID) })
}

func claim(f *fixture, accountID uuid.UUID, vs ...vendors.Vendor) {
	f.t.Helper()
	now := f.tick()
	f.write(func(ctx context.Context, tx stores.Tx) error {
		return tx.Quota().Claim(ctx, accountID, vendorIDs(vs), now)
	})
}

var quotaCases = []testCase{
	{"Claim is idempotent and counted per account", func(t *testing.T, f *fixture) {
		a, other := f.org("Acme"), f.org("Beta")
		vs := f.vendors("Acme", "Beta", "Cobalt")
		equal(t, "used before", used(f, a.ID), 0)
		claim(f, a.ID, vs[0], vs[1])
		claim(f, a.ID, vs[1], vs[0])
		claim(f, other.ID, vs[2])
		equal(t, "used", used(f, a.ID), 2)
		equal(t, "used by the other account", used(f, other.ID), 1)
		sameIDSet(t, "claimed", claimed(f, a.ID, vs[2].ID, vs[1].ID, vs[0].ID), []uuid.UUID{vs[1].ID, vs[0].ID})
		sameIDSet(t, "claimed by the other account", claimed(f, other.ID, vendorIDs(vs)...), []uuid.UUID{vs[2].ID})
		equal(t, "claimed of none", len(claimed(f, a.ID)), 0)
	}},
}
