package main

import (
	"context"
	"errors"
	"log/slog"

	"github.com/vetted-dev/vetted/apps/app"
)

func worker(ctx context.Context, log *slog.Logger) error {
	cfg, err := app.FromEnv()
	if err != nil {
		return err
	}
	if cfg.RedisURL == "" {
		return errors.New("worker: set VETTED_REDIS_URL (the embedded default runs jobs inside vetted serve)")
	}
	return app.RunWorker(ctx, cfg, log)
}

func migrate(ctx context.Context, log *slog.Logger) error {
	cfg, err := app.FromEnv()
	if err != nil {
		return err
	}
	if cfg.DatabaseURL == "" {
		return errors.New("migrate: set VETTED_DATABASE_URL")
	}
	return app.Migrate(ctx, cfg, log)
}
