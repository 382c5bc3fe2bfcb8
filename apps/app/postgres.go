package app

import (
	"context"
	"log/slog"

	"github.com/uptrace/bun/extra/bunotel"
	"github.com/vetted-dev/vetted/adapters/postgres"
	"github.com/vetted-dev/vetted/ports"
)

func openPostgres(ctx context.Context, a *App, cfg Config) (ports.Store, error) {
	st, err := postgres.Open(ctx, cfg.DatabaseURL, postgres.WithApplicationName("vetted"),
		postgres.WithQueryHook(bunotel.NewQueryHook(bunotel.WithDBName("vetted"))))
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
	return st, nil
}

// Migrate applies the PostgreSQL migrations (safe to run twice and from two
// processes at once).
func Migrate(ctx context.Context, cfg Config, log *slog.Logger) error {
	st, err := postgres.Open(ctx, cfg.DatabaseURL, postgres.WithApplicationName("vetted-migrate"))
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
