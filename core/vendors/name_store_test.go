package vendors_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendors"
)

// readZone stands for the zone a store may hand times back in.
var readZone = time.FixedZone("UTC+2", 2*3600)

func TestVendorFromStoreRebuildsWhatNewMade(t *testing.T) {
	at := time.Date(2026, 6, 4, 12, 0, 0, 0, time.FixedZone("CET", 3600))
	for _, c := range []struct{ name, website string }{{"Acme, Inc.", "WWW.Acme.example/trust#top"}, {"Zeta", ""}} {
		v, err := vendors.New(uuid.New(), c.name, c.website, at)
		if err != nil {
			t.Fatal(err)
		}
		got := vendors.VendorFromStore(v.ID, v.Name.String(), v.WebsiteURL, v.Domain, v.Aliases, v.HasProfile, v.CreatedAt.In(readZone))
		if !reflect.DeepEqual(got, v) {
			t.Errorf("rebuilt %#v, want %#v", got, v)
		}
		// Aliases read as null are no aliases, as New makes them.
		if got := vendors.VendorFromStore(v.ID, v.Name.String(), v.WebsiteURL, v.Domain, nil, v.HasProfile, v.CreatedAt); !reflect.DeepEqual(got, v) {
			t.Errorf("rebuilt with null aliases %#v, want %#v", got, v)
		}
	}
}

func TestVendorFromStoreReadsEntriesNewRefusesOrRewrites(t *testing.T) {
	at := time.Date(2026, 6, 4, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct{ name, website, domain string }{
		{"", "", ""}, // refused: no name
		{"Acme", "ftp://acme.example", "acme.example"}, // refused: not http(s)
		{"Acme Inc", "", ""},                           // canonicalised by New to "Acme"
	} {
		id := uuid.New()
		if v, err := vendors.New(id, c.name, c.website, at); err == nil && v.Name.String() == c.name && v.WebsiteURL == c.website {
			t.Fatalf("New(%q, %q) took it as is; pick an entry it refuses or rewrites", c.name, c.website)
		}
		want := vendors.Vendor{ID: id, Name: vendors.Name(c.name), WebsiteURL: c.website, Domain: c.domain, Aliases: []string{"old"}, HasProfile: true, CreatedAt: at}
		if got := vendors.VendorFromStore(id, c.name, c.website, c.domain, []string{"old"}, true, at); !reflect.DeepEqual(got, want) {
			t.Errorf("VendorFromStore(%q, %q) = %#v, want it as stored", c.name, c.website, got)
		}
	}
}
