package vendors_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendors"
)

func TestSecurityInstanceFromStoreRebuildsWhatNewSecurityInstanceMade(t *testing.T) {
	at := time.Date(2026, 6, 5, 7, 45, 0, 0, time.FixedZone("CET", 3600))
	for _, code := range []string{"caa_missing", "caa" + vendors.NotCheckedSuffix} {
		i, err := vendors.NewSecurityInstance(uuid.New(), uuid.New(), code, "what was seen", "acme.example", at)
		if err != nil {
			t.Fatal(err)
		}
		stored := i
		stored.ObservedAt = i.ObservedAt.In(readZone)
		if got := vendors.SecurityInstanceFromStore(stored); !reflect.DeepEqual(got, i) {
			t.Errorf("rebuilt %#v, want %#v", got, i)
		}
	}
}

func TestSecurityInstanceFromStoreReadsInstancesTheCatalogNoLongerMakes(t *testing.T) {
	at := time.Date(2026, 6, 5, 7, 45, 0, 0, time.UTC)
	for _, old := range []vendors.SecurityInstance{
		// a code the catalog dropped, recorded without evidence
		{ID: uuid.New(), VendorID: uuid.New(), Kind: "finding", Category: "network_security", Code: "retired_code", Title: "Retired", Severity: "high", ObservedAt: at},
		// a known code recorded under an older title and severity
		{ID: uuid.New(), VendorID: uuid.New(), Kind: "finding", Category: "dns_health", Code: "caa_missing", Title: "old title", Severity: "medium", Evidence: "e", ObservedAt: at},
	} {
		if made, err := vendors.NewSecurityInstance(old.ID, old.VendorID, old.Code, old.Evidence, old.Source, at); err == nil && reflect.DeepEqual(made, old) {
			t.Fatalf("NewSecurityInstance(%q) made it as is; pick an instance it refuses or rewrites", old.Code)
		}
		if got := vendors.SecurityInstanceFromStore(old); !reflect.DeepEqual(got, old) {
			t.Errorf("SecurityInstanceFromStore(%q) = %#v, want it as stored", old.Code, got)
		}
	}
}
