package service

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendor"
)

func TestDirectoryServesAViewUntilTTLOrChange(t *testing.T) {
	d := newDirectory()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	view := VendorView{Vendor: vendor.Vendor{ID: uuid.New(), Name: "Acme"}}

	d.put("Acme", view, d.generation(), now)
	if got, ok := d.get("Acme", now.Add(DirectoryTTL-time.Nanosecond)); !ok || got.Vendor.ID != view.Vendor.ID {
		t.Fatal("a fresh view was not served")
	}
	if _, ok := d.get("Acme", now.Add(DirectoryTTL)); ok {
		t.Fatal("a view was served past DirectoryTTL")
	}
	if _, ok := d.get("acme", now); ok {
		t.Fatal("a view was served for another reference")
	}
	d.changed()
	if _, ok := d.get("Acme", now); ok {
		t.Fatal("a view was served after the directory changed")
	}

	// A view read while the directory changed is not remembered.
	gen := d.generation()
	d.changed()
	d.put("Acme", view, gen, now)
	if _, ok := d.get("Acme", now); ok {
		t.Fatal("a view read before a change was remembered after it")
	}
}
