package asynqadapter_test

import (
	"net/url"
	"testing"

	"github.com/google/uuid"
	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/internal/tcpproxy"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/porttest"
)

// TestChangeFeedConformance runs the feed suite on two clients of the test
// Redis, B's through a proxy that Cut cuts. Pub/sub writes no keys, so no
// database is claimed; each subtest has a channel of its own. Redis has no
// part in the store's transaction: the store is the memory one.
func TestChangeFeedConformance(t *testing.T) {
	t.Parallel()
	base := asynqtest.BaseURL(t)
	porttest.RunChangeFeed(t, func(t *testing.T) porttest.FeedEnv {
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		proxy := tcpproxy.Start(t, u.Host)
		viaProxy := *u
		viaProxy.Host = proxy.Addr()
		channel := "vetted:changes:test:" + uuid.NewString()
		feed := func(redisURL string) *asynqadapter.ChangeFeed {
			rdb := asynqtest.Client(t, redisURL)
			t.Cleanup(func() { _ = rdb.Close() })
			f, err := asynqadapter.NewChangeFeed(rdb, asynqadapter.ChangeFeedConfig{Channel: channel})
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		return porttest.FeedEnv{Store: memstore.New(), A: feed(base), B: feed(viaProxy.String()), Cut: func(*testing.T) {
			proxy.Cut()
			proxy.Restore()
		}}
	})
}
