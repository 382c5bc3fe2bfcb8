// Package worker runs Vetted's jobs on Redis: an asynq server whose
// handlers call the core through a ports.JobHandler (and a second one that
// takes critical jobs only, so mail never waits behind enrichment), the
// scheduler of the periodic jobs, and an outbox relay that moves committed
// side effects from the store to Redis. Any number of workers may run against one store and
// one Redis: the relay's claims keep them from handing a message over twice,
// and the task id, which is the message id, keeps a message that is handed
// over twice from running twice.
package worker

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/relay"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Config is the worker's configuration; zero fields take the adapters'
// defaults, and zero periods disable the periodic jobs.
type Config struct {
	// RedisURL is redis://[user:pass@]host:port[/db] (VETTED_REDIS_URL).
	RedisURL string
	// Concurrency is how many jobs run at once; zero is the number of CPUs.
	Concurrency int
	// Weights share the workers among the critical, default and low queues
	// (6, 3, 1 when zero).
	Weights asynqadapter.Weights
	// CriticalConcurrency is how many more jobs of the critical queue (mail
	// and alerts) run at once, on workers that take no other job, so that
	// mail never waits behind enrichment; zero is DefaultCriticalConcurrency,
	// negative none.
	CriticalConcurrency int
	// MaxRetry is how often a failed job is retried before it is archived.
	MaxRetry int
	// ShutdownTimeout is how long running jobs may finish on shutdown before
	// they go back to their queue.
	ShutdownTimeout time.Duration
	// PollIncidentsEvery, ReenrichStaleEvery and ReviewRemindersEvery are
	// the periods of the periodic jobs.
	PollIncidentsEvery, ReenrichStaleEvery, ReviewRemindersEvery time.Duration
	// RelayInterval is how often the relay looks for new outbox messages
	// when idle; RelayBatchSize how many it moves per unit of work.
	RelayInterval  time.Duration
	RelayBatchSize int
	// MinBackoff and MaxBackoff bound the retry delay of failed jobs.
	MinBackoff, MaxBackoff time.Duration
	// TaskCheckInterval and DelayedTaskCheckInterval are asynq's polling
	// periods (1s and 5s when zero); tests shorten them.
	TaskCheckInterval, DelayedTaskCheckInterval time.Duration
	// Clock stamps the outbox; nil is the system clock.
	Clock ports.Clock
}

// DefaultCriticalConcurrency is Config.CriticalConcurrency's default.
const DefaultCriticalConcurrency = 2

// Run works until ctx is done, then stops the scheduler and the relay and
// shuts the server down gracefully: running jobs get ShutdownTimeout to
// finish, and those that do not go back to their queue for another worker.
// It returns nil after a clean shutdown. Redis being down at start is not
// an error: the server and relay keep retrying, and the outbox holds every
// side effect until Redis is back.
func Run(ctx context.Context, cfg Config, handler ports.JobHandler, store stores.Store, logger *slog.Logger) error {
	switch {
	case handler == nil:
		return errors.New("worker: nil job handler")
	case store == nil:
		return errors.New("worker: nil store")
	case cfg.RedisURL == "":
		return errors.New("worker: no Redis URL")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	clock := cfg.Clock
	if clock == nil {
		clock = ports.SystemClock{}
	}
	rdb, err := asynqadapter.NewClient(cfg.RedisURL)
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	defer rdb.Close()
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	if err := asynqadapter.Ping(pingCtx, rdb); err != nil {
		logger.Warn("worker: Redis is not reachable yet; retrying in the background", "err", err)
	}
	cancel()

	queue, err := asynqadapter.NewQueue(rdb, asynqadapter.QueueConfig{MaxRetry: cfg.MaxRetry})
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	sc := asynqadapter.ServerConfig{
		Concurrency:              cfg.Concurrency,
		Weights:                  cfg.Weights,
		ShutdownTimeout:          cfg.ShutdownTimeout,
		MinBackoff:               cfg.MinBackoff,
		MaxBackoff:               cfg.MaxBackoff,
		TaskCheckInterval:        cfg.TaskCheckInterval,
		DelayedTaskCheckInterval: cfg.DelayedTaskCheckInterval,
		Logger:                   logger,
	}
	server, err := asynqadapter.NewServer(rdb, handler, sc)
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	// asynq reserves no worker for a queue: a second server that takes
	// critical tasks only keeps mail running while every worker of the
	// first scans a vendor.
	servers := []*asynqadapter.Server{server}
	if n := cmp.Or(cfg.CriticalConcurrency, DefaultCriticalConcurrency); n > 0 {
		sc.Concurrency, sc.Only = n, outbox.QueueCritical
		critical, err := asynqadapter.NewServer(rdb, handler, sc)
		if err != nil {
			return fmt.Errorf("worker: %w", err)
		}
		servers = append(servers, critical)
	}
	scheduler, err := asynqadapter.NewScheduler(rdb, asynqadapter.SchedulerConfig{
		PollIncidentsEvery:   cfg.PollIncidentsEvery,
		ReenrichStaleEvery:   cfg.ReenrichStaleEvery,
		ReviewRemindersEvery: cfg.ReviewRemindersEvery,
		Logger:               logger,
	})
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}
	rl, err := relay.New(store, queue, clock, relay.Options{
		BatchSize: cfg.RelayBatchSize,
		Interval:  cfg.RelayInterval,
		Logger:    logger,
	})
	if err != nil {
		return fmt.Errorf("worker: %w", err)
	}

	shutdown := func(ss []*asynqadapter.Server) {
		var wg sync.WaitGroup
		for _, s := range ss {
			wg.Go(s.Shutdown)
		}
		wg.Wait()
	}
	for i, s := range servers {
		if err := s.Start(); err != nil {
			shutdown(servers[:i])
			return fmt.Errorf("worker: %w", err)
		}
	}
	if err := scheduler.Start(); err != nil {
		shutdown(servers)
		return fmt.Errorf("worker: %w", err)
	}
	relayCtx, stopRelay := context.WithCancel(ctx)
	relayDone := make(chan struct{})
	go func() {
		defer close(relayDone)
		_ = rl.Run(relayCtx) // returns nil when stopped
	}()
	logger.Info("worker started", "concurrency", cfg.Concurrency, "periodic_jobs", scheduler.Entries())

	<-ctx.Done()
	logger.Info("worker stopping")
	scheduler.Shutdown()
	stopRelay()
	<-relayDone
	shutdown(servers)
	logger.Info("worker stopped")
	return nil
}
