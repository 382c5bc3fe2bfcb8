package contracts

import (
	"testing"
	"time"
)

// A stored row is read back as it was, whatever the rules say now: a row
// that breaks today's checks (an end before its start, a negative notice,
// a bad LEI, no services) is still a contract that reads and derives.
func TestFromStoreNeverRefuses(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	c := FromStore(Contract{Terms: Terms{Start: time.Date(2026, 5, 1, 0, 30, 0, 0, paris), End: day("2026-01-01"), NoticePeriodDays: -5,
		LEI: "not an lei", AnnualValue: "1.23456", AutoRenew: true}, CreatedAt: time.Date(2026, 1, 1, 10, 0, 0, 0, paris)})
	if c.Services == nil || len(c.Services) != 0 {
		t.Fatalf("services %v", c.Services)
	}
	if got := c.Start.Format(time.DateOnly); got != "2026-04-30" || c.Start.Location() != time.UTC {
		t.Fatalf("start %v", c.Start)
	}
	if c.LEI != "not an lei" || c.AnnualValue != "1.23456" || c.NoticePeriodDays != -5 {
		t.Fatalf("changed: %+v", c.Terms)
	}
	// An end before the start does not roll (no term to roll by): it reads
	// expired rather than looping.
	if d := c.Derive(day("2026-06-01")); d.State != Expired || !d.End.Equal(c.End) {
		t.Fatalf("derived %+v", d)
	}
}
