package api

import (
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/vetted-dev/vetted/core/review"
)

// Tier is how critical a vendor is to an organization; "" is not tiered.
type Tier string

// Schema is the Tier component.
func (Tier) Schema(r huma.Registry) *huma.Schema {
	return enum(r, "Tier", "How critical a vendor is; it sets the review cadence. Empty: not tiered", append(review.TierValues(), ""))
}

// optionalTime answers the zero time as null.
func optionalTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
