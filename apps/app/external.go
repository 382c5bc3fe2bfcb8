package app

import (
	"context"
	"errors"
	"log/slog"

	"github.com/vetted-dev/vetted/ports"
)

var errNotWired = errors.New("not wired yet")

func openS3(ctx context.Context, cfg Config) (ports.BlobStore, error) { return nil, errNotWired }
func openSMTP(cfg Config) (ports.Mailer, error)                       { return nil, errNotWired }
func openAsynq(ctx context.Context, a *App, cfg Config) (ports.JobQueue, func(context.Context) error, error) {
	return nil, nil, errNotWired
}
func newEnricher(cfg Config) (ports.Enricher, error)             { return nil, errNotWired }
func newIncidentSource(cfg Config) (ports.IncidentSource, error) { return nil, errNotWired }

// RunWorker runs the asynq worker, scheduler and relay until ctx ends.
func RunWorker(ctx context.Context, cfg Config, log *slog.Logger) error { return errNotWired }
