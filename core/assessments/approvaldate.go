package assessments

import (
	"time"

	"github.com/vetted-dev/vetted/core"
)

// The approval-date rule: an assessment cannot have been approved on a day
// that has not come yet. approval_date is a civil date with no time zone
// (an RFC 3339 date-time keeps its UTC date), so "not come yet" is judged
// where the day begins first: a date after today's date at UTC+14 (the
// Line Islands) is refused, and an approver anywhere on Earth may give
// their own today. A stored date is not judged again, only one a save
// sets.

// latestOffset is the offset of the first time zone to begin a day.
const latestOffset = 14 * time.Hour

// CheckApprovalDate refuses the approval date of next when in sets one
// that is after today everywhere at now.
func CheckApprovalDate(in Input, next Fields, now time.Time) error {
	if in.ApprovalDate == nil || next.ApprovalDate == "" {
		return nil
	}
	latest := now.UTC().Add(latestOffset).Format(time.DateOnly)
	if next.ApprovalDate > latest {
		return core.Invalid("Input.ApprovalDate", "is %s, a day that has not come yet (today is %s at the latest)", next.ApprovalDate, latest)
	}
	return nil
}
