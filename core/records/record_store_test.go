package records_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/records"
)

// TestFromStore: a stored record is rebuilt as it is, even one no longer
// valid under today's rules (an owner who left, a link in an old form),
// with empty lists where the store had none.
func TestFromStore(t *testing.T) {
	a, v := uuid.New(), uuid.New()
	r := records.FromStore(records.Record{AccountID: a, VendorID: v, BusinessOwner: "gone@acme.example",
		Contacts: []records.Contact{{Name: "", Email: "not an address", Role: "sales"}}, Links: records.Links{DPA: "ftp://old.example"}})
	if r.BusinessOwner != "gone@acme.example" || len(r.Contacts) != 1 || r.Contacts[0].Role != "sales" || r.Links.DPA != "ftp://old.example" {
		t.Fatalf("FromStore changed the row: %+v", r)
	}
	if r.Notes == nil {
		t.Fatal("notes nil")
	}
	e := records.FromStore(records.Record{AccountID: a, VendorID: v})
	if e.Contacts == nil || e.Notes == nil {
		t.Fatalf("empty lists nil: %+v", e)
	}
	if got := records.Empty(a, v); got.AccountID != a || got.VendorID != v || got.Contacts == nil || got.Notes == nil || got.UpdatedAt != nil {
		t.Fatalf("Empty = %+v", got)
	}
}
