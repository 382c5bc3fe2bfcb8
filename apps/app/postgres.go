package app

import (
	"context"
	"log/slog"
	"sync/atomic"

	"github.com/uptrace/bun/extra/bunotel"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/ports/stores"
)

func openPostgres(ctx context.Context, a *App, cfg Config) (stores.Store, error) {
	st, err := sqlstore.OpenPostgres(ctx, cfg.DatabaseURL, sqlstore.WithApplicationName("vetted"),
		sqlstore.WithQueryHook(bunotel.NewQueryHook(bunotel.WithDBName("vetted"))))
	if err != nil {
		return nil, err
	}
	a.onClose(func(context.Context) error { return st.Close() })
	a.Metrics.WatchDB(st.SQLDB(), "vetted")
	if cfg.MigrateOnStart {
		if err := st.Migrate(ctx); err != nil {
			return nil, err
		}
	}
	a.ready = append(a.ready, api.ReadyCheck{Name: "schema", Check: schemaCheck(st)})
	return st, nil
}

// schemaCheck is /readyz's check that the database has every migration
// this binary needs, so that a replica of a new release takes no traffic
// before the migrate Job has run (VETTED_MIGRATE_ON_START=false). Once the
// schema is current it stays so (migrations only add), and the answer is
// remembered.
func schemaCheck(st *sqlstore.Store) func(context.Context) error {
	var current atomic.Bool
	return func(ctx context.Context) error {
		if current.Load() {
			return nil
		}
		if err := st.CheckSchema(ctx); err != nil {
			return err
		}
		current.Store(true)
		return nil
	}
}

// Migrate applies the PostgreSQL migrations (safe to run twice and from two
// processes at once).
func Migrate(ctx context.Context, cfg Config, log *slog.Logger) error {
	st, err := sqlstore.OpenPostgres(ctx, cfg.DatabaseURL, sqlstore.WithApplicationName("vetted-migrate"))
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Migrate(ctx); err != nil {
		return err
	}
	log.Info("migrations applied")
	return nil
}
