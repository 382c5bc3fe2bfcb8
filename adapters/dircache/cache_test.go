package dircache

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendors"
)

func TestDirectoryServesAViewUntilMaxAgeOrChange(t *testing.T) {
	d := newDirectory()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	view := vendors.View{Vendor: vendors.Vendor{ID: uuid.New(), Name: "Acme"}}

	d.put("Acme", view, d.generation(), now)
	if got, stale, ok := d.get("Acme", now.Add(TTL*3/4)); !ok || stale || got.Vendor.ID != view.Vendor.ID {
		t.Fatalf("a fresh view was not served as fresh (ok %v, stale %v)", ok, stale)
	}
	if got, stale, ok := d.get("Acme", now.Add(TTL)); !ok || !stale || got.Vendor.ID != view.Vendor.ID {
		t.Fatalf("a view past TTL was not served as stale (ok %v, stale %v)", ok, stale)
	}
	if _, _, ok := d.get("Acme", now.Add(MaxAge)); ok {
		t.Fatal("a view was served past MaxAge")
	}
	if _, _, ok := d.get("acme", now); ok {
		t.Fatal("a view was served for another reference")
	}
	d.changed()
	if _, _, ok := d.get("Acme", now); ok {
		t.Fatal("a view was served after the directory changed")
	}

	// A view read while the directory changed is not remembered.
	gen := d.generation()
	d.changed()
	d.put("Acme", view, gen, now)
	if _, _, ok := d.get("Acme", now); ok {
		t.Fatal("a view read before a change was remembered after it")
	}
}

func TestDirectoryDueViewsOneGoroutineInBatches(t *testing.T) {
	d := newDirectory()
	if !d.markDue("Acme", uuid.New()) {
		t.Fatal("the first view due did not start a refresh")
	}
	if d.markDue("Acme", uuid.New()) || d.markDue("Beta", uuid.New()) {
		t.Fatal("a second refresh was started while one runs")
	}
	for i := range refreshBatch {
		d.markDue(uuid.NewString()+string(rune('a'+i%26)), uuid.New())
	}
	got := map[string]bool{}
	for batch := d.takeDue(refreshBatch); batch != nil; batch = d.takeDue(refreshBatch) {
		if len(batch) > refreshBatch {
			t.Fatalf("a batch of %d, max %d", len(batch), refreshBatch)
		}
		for ref := range batch {
			if got[ref] {
				t.Fatalf("%s taken twice", ref)
			}
			got[ref] = true
		}
	}
	if len(got) != refreshBatch+2 || !got["Acme"] || !got["Beta"] {
		t.Fatalf("took %d views, want %d with Acme and Beta", len(got), refreshBatch+2)
	}
	if !d.markDue("Acme", uuid.New()) {
		t.Fatal("a view due after the refresh ended did not start another")
	}
}

func TestDirectoryForget(t *testing.T) {
	d := newDirectory()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	d.put("Acme", vendors.View{Vendor: vendors.Vendor{ID: uuid.New(), Name: "Acme"}}, d.generation(), now)
	d.forget("Acme")
	if _, _, ok := d.get("Acme", now); ok {
		t.Fatal("a forgotten view was served")
	}
}

func TestDirectoryKeepsAViewReadAgainUnchanged(t *testing.T) {
	d := newDirectory()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	id := uuid.New()
	first := vendors.View{Vendor: vendors.Vendor{ID: id, Name: "Acme"}, Profile: &vendors.Profile{VendorID: id}}
	d.put("Acme", first, d.generation(), now)
	v1, _, _ := d.get("Acme", now)
	if v1.Version == 0 {
		t.Fatal("a remembered view has no version")
	}

	same := vendors.View{Vendor: vendors.Vendor{ID: id, Name: "Acme"}, Profile: &vendors.Profile{VendorID: id}}
	d.put("Acme", same, d.generation(), now.Add(TTL))
	got, stale, _ := d.get("Acme", now.Add(TTL))
	if got.Version != v1.Version || stale {
		t.Fatalf("an unchanged view read again: version %d (was %d), stale %v; want the same version, fresh", got.Version, v1.Version, stale)
	}

	changed := vendors.View{Vendor: vendors.Vendor{ID: id, Name: "Acme"}, Profile: &vendors.Profile{VendorID: id, Company: vendors.Company{Industry: "Software"}}}
	d.put("Acme", changed, d.generation(), now.Add(TTL))
	got, _, _ = d.get("Acme", now.Add(TTL))
	if got.Profile.Company.Industry != "Software" || got.Version == v1.Version || got.Version == 0 {
		t.Fatalf("a changed view read again: industry %q, version %d (was %d); want the new view with a new version", got.Profile.Company.Industry, got.Version, v1.Version)
	}

	renamed := vendors.View{Vendor: vendors.Vendor{ID: id, Name: "Acme Corp"}, Profile: changed.Profile}
	d.put("Acme", renamed, d.generation(), now.Add(TTL))
	if again, _, _ := d.get("Acme", now.Add(TTL)); again.Version == got.Version {
		t.Fatal("a renamed vendor kept the version of its old view")
	}
}

func TestDirectoryFreshnessIsSpread(t *testing.T) {
	seen := map[time.Duration]bool{}
	for range 100 {
		d := freshFor()
		if d <= TTL*3/4 || d > TTL {
			t.Fatalf("fresh for %v, want within (%v, %v]", d, TTL*3/4, TTL)
		}
		seen[d] = true
	}
	if len(seen) < 50 {
		t.Fatalf("100 views read together are fresh for %d distinct times: due together", len(seen))
	}
}
