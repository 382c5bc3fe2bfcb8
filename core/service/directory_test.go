package service

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendor"
)

func TestDirectoryServesAViewUntilMaxAgeOrChange(t *testing.T) {
	d := newDirectory()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	view := VendorView{Vendor: vendor.Vendor{ID: uuid.New(), Name: "Acme"}}

	d.put("Acme", view, d.generation(), now)
	if got, stale, ok := d.get("Acme", now.Add(DirectoryTTL-time.Nanosecond)); !ok || stale || got.Vendor.ID != view.Vendor.ID {
		t.Fatalf("a fresh view was not served as fresh (ok %v, stale %v)", ok, stale)
	}
	if got, stale, ok := d.get("Acme", now.Add(DirectoryTTL)); !ok || !stale || got.Vendor.ID != view.Vendor.ID {
		t.Fatalf("a view past DirectoryTTL was not served as stale (ok %v, stale %v)", ok, stale)
	}
	if _, _, ok := d.get("Acme", now.Add(DirectoryMaxAge)); ok {
		t.Fatal("a view was served past DirectoryMaxAge")
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

func TestDirectoryRefreshesOneAtATimePerReference(t *testing.T) {
	d := newDirectory()
	if !d.startRefresh("Acme") {
		t.Fatal("the first refresh was refused")
	}
	if d.startRefresh("Acme") {
		t.Fatal("a second refresh of the same reference was allowed while one runs")
	}
	for i := 1; i < maxRefreshes; i++ {
		if !d.startRefresh(uuid.NewString()) {
			t.Fatalf("refresh %d of %d was refused", i+1, maxRefreshes)
		}
	}
	if d.startRefresh("Beta") {
		t.Fatalf("a refresh past %d at once was allowed", maxRefreshes)
	}
	d.endRefresh("Acme")
	if !d.startRefresh("Acme") {
		t.Fatal("a refresh was refused after the previous one ended")
	}
}
