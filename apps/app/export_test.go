package app

import (
	"context"
	"log/slog"

	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/ports/stores"
)

// WatchChanges runs the change feed's subscriber loop on feed until ctx
// ends, calling forget with every notice, and returns its /readyz status.
func WatchChanges(ctx context.Context, mode string, feed stores.ChangeFeed, log *slog.Logger, forget func(stores.Changed)) func() api.InvalidationJSON {
	w := &changeWatch{mode: mode, feed: feed, log: log, forget: []func(stores.Changed){forget}}
	go w.run(ctx)
	return w.status
}
