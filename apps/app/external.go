package app

import (
	"context"
	"log/slog"

	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/feeds"
	"github.com/vetted-dev/vetted/adapters/s3"
	"github.com/vetted-dev/vetted/adapters/smtp"
	"github.com/vetted-dev/vetted/apps/worker"
	"github.com/vetted-dev/vetted/ports"
)

func openS3(ctx context.Context, cfg Config) (ports.BlobStore, error) {
	return s3.New(ctx, s3.Config{Endpoint: cfg.S3Endpoint, Region: cfg.S3Region, Bucket: cfg.S3Bucket, AccessKey: cfg.S3AccessKey,
		SecretKey: cfg.S3SecretKey, PathStyle: cfg.S3PathStyle, CreateBucket: cfg.S3CreateBucket})
}

func openSMTP(cfg Config) (ports.Mailer, error) { return smtp.New(cfg.SMTPURL) }

// openAsynq returns the asynq queue the relay feeds, and its readiness check.
func openAsynq(_ context.Context, a *App, cfg Config) (ports.JobQueue, func(context.Context) error, error) {
	rdb, err := asynqadapter.NewClient(cfg.RedisURL)
	if err != nil {
		return nil, nil, err
	}
	a.onClose(func(context.Context) error { return rdb.Close() })
	q, err := asynqadapter.NewQueue(rdb, asynqadapter.QueueConfig{})
	if err != nil {
		return nil, nil, err
	}
	return q, q.Ping, nil
}

func (a *App) fetcher(cfg Config) *enrich.Fetcher {
	return enrich.NewFetcher(enrich.FetcherConfig{AllowPrivate: cfg.FetchAllowPrivate, AllowAnyPort: cfg.FetchAllowPrivate})
}

func newEnricher(a *App, cfg Config) (ports.Enricher, error) {
	return enrich.New(enrich.Config{Fetcher: a.fetcher(cfg)}), nil
}

// newIncidentSource reads vendors' status pages and, when configured, a
// JSON incident feed.
func newIncidentSource(a *App, cfg Config) (ports.IncidentSource, error) {
	f := a.fetcher(cfg)
	sp, err := feeds.NewStatusPage(f, feeds.ProfileStatusURL(a.Store))
	if err != nil {
		return nil, err
	}
	sources := []ports.IncidentSource{sp}
	if cfg.IncidentFeedURL != "" {
		jf, err := feeds.NewJSONFeed(f, cfg.IncidentFeedURL, "feed")
		if err != nil {
			return nil, err
		}
		sources = append(sources, jf)
	}
	return feeds.NewMulti(func(err error) { a.log.Warn("incident source failed", "err", err) }, sources...)
}

// RunWorker runs the asynq worker, its scheduler and an outbox relay until
// ctx ends. Handlers call the same use cases as the API.
func RunWorker(ctx context.Context, cfg Config, log *slog.Logger) error {
	a, err := Build(ctx, cfg, Overrides{Logger: log})
	if err != nil {
		return err
	}
	defer a.Close(context.Background())
	stopAdmin, err := a.serveAdmin(ctx)
	if err != nil {
		return err
	}
	defer stopAdmin()
	return worker.Run(ctx, worker.Config{RedisURL: cfg.RedisURL, Concurrency: cfg.WorkerConcurrency,
		PollIncidentsEvery: cfg.PollInterval, ReenrichStaleEvery: cfg.ReenrichInterval}, a.Metrics.Jobs(a.Service), a.Store, log)
}
