package memstore_test

import (
	"testing"

	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/porttest"
)

// TestChangeFeedConformance: one in-process feed is both processes' feed
// (there is only one process).
func TestChangeFeedConformance(t *testing.T) {
	porttest.RunChangeFeed(t, func(*testing.T) porttest.FeedEnv {
		feed := memstore.NewChangeFeed()
		return porttest.FeedEnv{Store: memstore.New(), A: feed, B: feed}
	})
}
