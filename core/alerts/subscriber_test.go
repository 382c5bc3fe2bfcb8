package alerts_test

import (
	"slices"
	"testing"

	"github.com/vetted-dev/vetted/core/alerts"
)

// The API documents and validates a subscription's status from this list:
// both states, pending first (the order a subscription goes through).
func TestStatusValues(t *testing.T) {
	want := []string{alerts.SubscriberPending, alerts.SubscriberConfirmed}
	if got := alerts.SubscriberStatusValues(); !slices.Equal(got, want) {
		t.Fatalf("StatusValues() = %v, want %v", got, want)
	}
}
