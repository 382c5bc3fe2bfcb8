package app

import (
	"context"
	"log/slog"

	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/ports"
)

// WatchChanges runs the change feed's subscriber loop on feed until ctx
// ends, calling forget with every notice, and returns its /readyz status.
func WatchChanges(ctx context.Context, mode string, feed ports.ChangeFeed, log *slog.Logger, forget func(ports.Changed)) func() api.InvalidationJSON {
	w := &changeWatch{mode: mode, feed: feed, log: log, forget: []func(ports.Changed){forget}}
	go w.run(ctx)
	return w.status
}
