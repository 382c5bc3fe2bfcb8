package memory_test

import (
	"testing"

	"github.com/vetted-dev/vetted/adapters/memory"
	"github.com/vetted-dev/vetted/ports/porttest"
)

// TestChangeFeedConformance: one in-process feed is both processes' feed
// (there is only one process).
func TestChangeFeedConformance(t *testing.T) {
	porttest.RunChangeFeed(t, func(*testing.T) porttest.FeedEnv {
		feed := memory.NewChangeFeed()
		return porttest.FeedEnv{Store: memory.New(), A: feed, B: feed}
	})
}
