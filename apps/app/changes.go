package app

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/dircache"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The values of VETTED_INVALIDATION; auto picks redis when VETTED_REDIS_URL
// is set, else postgres on the PostgreSQL store, else local.
const (
	InvalidationAuto     = "auto"
	InvalidationRedis    = api.InvalidationRedis
	InvalidationPostgres = api.InvalidationPostgres
	InvalidationLocal    = api.InvalidationLocal
	InvalidationNone     = api.InvalidationNone
)

// Backoff of the change feed's subscriber between attempts to listen.
const (
	changesRetryMin = 100 * time.Millisecond
	changesRetryMax = 5 * time.Second
)

// changeWatch is the process's change feed (see stores.ChangeFeed) and, in
// serve, the subscriber that makes the API's and the service's remembered
// vendor views forget what other processes changed.
type changeWatch struct {
	mode string
	feed stores.ChangeFeed // nil for none
	log  *slog.Logger
	// forget is called with every notice; set by watchChanges.
	forget    []func(stores.Changed)
	listening atomic.Bool
}

// openChanges builds the change feed cfg.Invalidation names (after the
// store, which the postgres feed uses).
func (a *App) openChanges(cfg Config) (*changeWatch, error) {
	mode := cfg.Invalidation
	pg, onPostgres := a.Store.(*sqlstore.Store)
	onPostgres = onPostgres && pg.Dialect() == sqlstore.Postgres
	if mode == "" || mode == InvalidationAuto {
		switch {
		case cfg.RedisURL != "":
			mode = InvalidationRedis
		case onPostgres:
			mode = InvalidationPostgres
		default:
			mode = InvalidationLocal
		}
	}
	w := &changeWatch{mode: mode, log: a.log.With("feed", mode)}
	switch mode {
	case InvalidationRedis:
		if cfg.RedisURL == "" {
			return nil, fmt.Errorf("VETTED_INVALIDATION=redis needs VETTED_REDIS_URL: %w", ErrConfig)
		}
		rdb, err := asynqadapter.NewClient(cfg.RedisURL)
		if err != nil {
			return nil, err
		}
		a.onClose(func(context.Context) error { return rdb.Close() })
		if w.feed, err = asynqadapter.NewChangeFeed(rdb, asynqadapter.ChangeFeedConfig{}); err != nil {
			return nil, err
		}
	case InvalidationPostgres:
		if !onPostgres {
			return nil, fmt.Errorf("VETTED_INVALIDATION=postgres needs the PostgreSQL store: %w", ErrConfig)
		}
		w.feed = pg.ChangeFeed()
	case InvalidationLocal:
		w.feed = memstore.NewChangeFeed()
	case InvalidationNone:
	default:
		return nil, fmt.Errorf("VETTED_INVALIDATION=%q: %w", mode, ErrConfig)
	}
	return w, nil
}

// status is what /readyz tells platform admins.
func (w *changeWatch) status() api.InvalidationJSON {
	s := api.NoInvalidation()
	if w.feed != nil {
		s.Mode, s.Connected = w.mode, w.listening.Load()
	}
	return s
}

// watchChanges subscribes to the change feed until ctx ends or the
// returned function is called (which waits for the subscriber to end).
// Every notice makes the service and the API forget the vendors it names.
func (a *App) watchChanges(ctx context.Context) (stop func()) {
	w := a.changes
	if w == nil || w.feed == nil {
		return func() {}
	}
	w.forget = []func(stores.Changed){a.Views.ForgetVendors, a.Server.ForgetVendors}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { w.run(ctx) })
	return func() { cancel(); wg.Wait() }
}

func (w *changeWatch) evict(c stores.Changed) {
	for _, f := range w.forget {
		f(c)
	}
	// Logged once forgotten: a read after this line is read afresh (the
	// replica tests wait for it).
	w.log.Debug("change notice", "vendors", len(c.Vendors), "all", c.All)
}

// run listens, and listens again after the connection is lost. Notices sent
// while it did not listen are lost, so once it listens again it forgets
// every remembered view (the catch-up); until then views from other
// processes are at most dircache.MaxAge old.
func (w *changeWatch) run(ctx context.Context) {
	var (
		lostAt time.Time // zero while no notice may have been missed
		wait   = changesRetryMin
	)
	for {
		err := w.feed.Subscribe(ctx, func() {
			w.listening.Store(true)
			wait = changesRetryMin
			if lostAt.IsZero() {
				w.log.Info("change feed listening: other processes' writes to vendors are forgotten here as they commit")
				return
			}
			w.evict(stores.Changed{All: true})
			w.log.Info("change feed listening again; forgot every remembered vendor view (catch-up of notices missed meanwhile)",
				"down", time.Since(lostAt).Round(time.Millisecond))
			lostAt = time.Time{}
		}, w.evict)
		w.listening.Store(false)
		if ctx.Err() != nil {
			return
		}
		if lostAt.IsZero() {
			lostAt = time.Now()
			w.log.Warn("change feed lost; vendor views changed by other processes show within the directory's max age until it is back",
				"max_age", dircache.MaxAge, "err", err)
		} else {
			w.log.Debug("change feed still down", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, changesRetryMax)
	}
}
