package assessments_test

import (
	"errors"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
)

func TestApprovalDateNotInTheFuture(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC) // 23:00 on the 22nd at UTC+14
	for _, c := range []struct {
		date string
		ok   bool
	}{
		{"2026-11-22", true}, {"2020-01-01", true}, {"", true},
		{"2026-11-23", false}, {"2027-01-01", false}, {"2026-11-23T01:00:00Z", false},
	} {
		in := assessments.Input{ApprovalDate: &c.date}
		next, err := assessments.Apply(assessments.Fields{}, in)
		if err != nil {
			t.Fatalf("Apply(%q): %v", c.date, err)
		}
		err = assessments.CheckApprovalDate(in, next, now)
		if c.ok != (err == nil) || (err != nil && !errors.Is(err, core.ErrInvalid)) {
			t.Errorf("approval date %q at %s: %v", c.date, now, err)
		}
	}
	// At 10:00 UTC the 23rd has begun at UTC+14: an approver there gives it.
	d := "2026-11-23"
	in := assessments.Input{ApprovalDate: &d}
	next, _ := assessments.Apply(assessments.Fields{}, in)
	if err := assessments.CheckApprovalDate(in, next, now.Add(time.Hour)); err != nil {
		t.Errorf("the 23rd at 10:00 UTC: %v", err)
	}
	// A stored date is not judged again when a save leaves it.
	if err := assessments.CheckApprovalDate(assessments.Input{}, assessments.Fields{ApprovalDate: "2099-01-01"}, now); err != nil {
		t.Errorf("a stored date: %v", err)
	}
}
