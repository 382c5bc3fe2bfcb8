package lists_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/lists"
)

// A store may hand times back in another zone than UTC.
var readZone = time.FixedZone("UTC-3", -3*3600)

func TestListAndProductFromStoreRebuildWhatTheConstructorsMade(t *testing.T) {
	at := time.Date(2026, 4, 2, 23, 15, 0, 0, time.FixedZone("CET", 3600))
	l, err := lists.New(uuid.New(), uuid.New(), " Critical   suppliers ", at)
	if err != nil {
		t.Fatal(err)
	}
	if got := lists.ListFromStore(l.ID, l.AccountID, l.Name, l.VendorCount, l.Version, l.CreatedAt.In(readZone)); !reflect.DeepEqual(got, l) {
		t.Errorf("rebuilt list %#v, want %#v", got, l)
	}
	p, err := lists.NewProduct(uuid.New(), l.ID, uuid.New(), "Payroll\tcloud", at)
	if err != nil {
		t.Fatal(err)
	}
	if got := lists.ProductFromStore(p.ID, p.ListID, p.VendorID, p.Name, p.CreatedAt.In(readZone)); !reflect.DeepEqual(got, p) {
		t.Errorf("rebuilt product %#v, want %#v", got, p)
	}
}

func TestListAndProductFromStoreReadNamesTheConstructorsRefuse(t *testing.T) {
	at := time.Date(2026, 4, 2, 23, 15, 0, 0, time.UTC)
	for _, name := range []string{"", strings.Repeat("n", lists.MaxNameLen+1), "bell\x07"} {
		id, owner := uuid.New(), uuid.New()
		if _, err := lists.New(id, owner, name, at); err == nil {
			t.Fatalf("New(%q) accepted it; pick a name it refuses", name)
		}
		want := lists.List{ID: id, AccountID: owner, Name: name, VendorCount: 3, CreatedAt: at, Version: 7}
		if got := lists.ListFromStore(id, owner, name, 3, 7, at); !reflect.DeepEqual(got, want) {
			t.Errorf("ListFromStore(%q) = %#v, want %#v", name, got, want)
		}
		vendorID := uuid.New()
		if _, err := lists.NewProduct(id, owner, vendorID, name, at); err == nil {
			t.Fatalf("NewProduct(%q) accepted it; pick a name it refuses", name)
		}
		wantP := lists.Product{ID: id, ListID: owner, VendorID: vendorID, Name: name, CreatedAt: at}
		if got := lists.ProductFromStore(id, owner, vendorID, name, at); !reflect.DeepEqual(got, wantP) {
			t.Errorf("ProductFromStore(%q) = %#v, want %#v", name, got, wantP)
		}
	}
}
