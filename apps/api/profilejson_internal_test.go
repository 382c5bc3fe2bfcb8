package api

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/vendors"
)

// TestPatchPathsAreAnswered holds the two contracts of a profile field
// together: every path of the core's PATCH whitelist names a field of the
// answer of GET /vendor, so what a client reads is what it may send back,
// and every field the answer has in an editable group is on the whitelist.
func TestPatchPathsAreAnswered(t *testing.T) {
	t.Parallel()
	p := vendors.NewProfile(uuid.New(), uuid.New(), time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	b, err := json.Marshal(vendorViewJSON(vendors.View{Vendor: vendors.Vendor{ID: p.VendorID, Name: "Acme"}, Profile: &p}))
	if err != nil {
		t.Fatal(err)
	}
	var answer map[string]any
	if err := json.Unmarshal(b, &answer); err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{}
	var walk func(at string, v any)
	walk = func(at string, v any) {
		obj, ok := v.(map[string]any)
		if !ok {
			answered[at] = true
			return
		}
		for k, sub := range obj {
			walk(at+"."+k, sub)
		}
	}
	for _, g := range vendors.PatchableGroups {
		walk(g, answer[g])
	}
	for _, path := range vendors.PatchPaths() {
		if !answered[path] {
			t.Errorf("PATCH path %s is not a field of the vendor answer", path)
		}
		delete(answered, path)
	}
	for path := range answered {
		t.Errorf("the vendor answer has %s, which PATCH does not take", path)
	}
}
