package vendors_test

import (
	"testing"

	"github.com/vetted-dev/vetted/core/vendors"
)

func TestCheckCoverage(t *testing.T) {
	total := len(vendors.Checks())
	for _, c := range []struct {
		name  string
		codes []string
		ran   int
	}{
		{"no scan", nil, 0},
		{"a clean scan ran every check", []string{"hsts_preload_ready"}, total},
		{"findings count as ran", []string{"csp_missing", "spf_missing"}, total},
		{"a not-checked check did not run, once however often", []string{"https_not_checked", "https_not_checked", "spf_not_checked", "csp_missing"}, total - 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			ran, tot := vendors.CheckCoverage(scan(t, c.codes...))
			if ran != c.ran || tot != total {
				t.Errorf("CheckCoverage = %d of %d, want %d of %d", ran, tot, c.ran, total)
			}
		})
	}
	if ran, _ := vendors.CheckCoverage([]vendors.SecurityInstance{{Code: "made_up"}}); ran != 0 {
		t.Errorf("codes outside the catalog: %d ran, want none (no scan)", ran)
	}
	var notChecked []string
	for _, c := range vendors.Checks() {
		notChecked = append(notChecked, c.Name+vendors.NotCheckedSuffix)
	}
	if ran, _ := vendors.CheckCoverage(scan(t, notChecked[1:]...)); ran != 1 {
		t.Errorf("a scan where one check ran: %d ran, want 1", ran)
	}
}
