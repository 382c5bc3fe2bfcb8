package asynqadapter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/internal/outboxjson"
	"github.com/vetted-dev/vetted/ports"
)

// Defaults for the zero ServerConfig.
const (
	DefaultShutdownTimeout = 10 * time.Second
	DefaultMinBackoff      = 5 * time.Second
	DefaultMaxBackoff      = 30 * time.Minute
)

// Weights are the relative shares of the queues: with all three busy, a
// worker takes critical work Critical times out of Critical+Default+Low.
// Zero fields take 6, 3 and 1.
type Weights struct {
	Critical, Default, Low int
}

func (w Weights) queues() map[string]int {
	pick := func(v, def int) int {
		if v <= 0 {
			return def
		}
		return v
	}
	return map[string]int{
		outbox.QueueCritical: pick(w.Critical, 6),
		outbox.QueueDefault:  pick(w.Default, 3),
		outbox.QueueLow:      pick(w.Low, 1),
	}
}

// ServerConfig tunes a Server; zero fields take the defaults.
type ServerConfig struct {
	// Concurrency is how many tasks run at once; zero is the number of CPUs.
	Concurrency int
	// Weights share the workers among the queues.
	Weights Weights
	// Only, when set, is the one queue the server takes tasks from (the
	// worker's server reserved for critical jobs); Weights are then unused.
	Only string
	// ShutdownTimeout is how long Shutdown lets running tasks finish before
	// it puts them back on their queue for another worker.
	ShutdownTimeout time.Duration
	// MinBackoff is the delay before the first retry; it doubles per retry
	// up to MaxBackoff.
	MinBackoff, MaxBackoff time.Duration
	// TaskCheckInterval is how often idle workers look for tasks (asynq's
	// default 1s); DelayedTaskCheckInterval is how often due retries move
	// back to their queue (asynq's default 5s). Tests shorten both.
	TaskCheckInterval, DelayedTaskCheckInterval time.Duration
	// Logger receives asynq's logs and task failures; nil discards them.
	Logger *slog.Logger
}

// Server runs tasks from Redis through a ports.JobHandler.
type Server struct {
	srv *asynq.Server
	h   asynq.Handler
}

// NewServer builds a server on rdb, which it does not close; it rejects nil
// dependencies.
func NewServer(rdb redis.UniversalClient, handler ports.JobHandler, cfg ServerConfig) (*Server, error) {
	if rdb == nil {
		return nil, errors.New("asynq: nil redis client")
	}
	if handler == nil {
		return nil, errors.New("asynq: nil job handler")
	}
	if cfg.ShutdownTimeout <= 0 {
		cfg.ShutdownTimeout = DefaultShutdownTimeout
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = DefaultMinBackoff
	}
	if cfg.MaxBackoff < cfg.MinBackoff {
		cfg.MaxBackoff = max(DefaultMaxBackoff, cfg.MinBackoff)
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	queues := cfg.Weights.queues()
	if cfg.Only != "" {
		queues = map[string]int{cfg.Only: 1}
	}
	srv := asynq.NewServerFromRedisClient(rdb, asynq.Config{
		Concurrency:              cfg.Concurrency,
		Queues:                   queues,
		ShutdownTimeout:          cfg.ShutdownTimeout,
		RetryDelayFunc:           RetryDelay(cfg.MinBackoff, cfg.MaxBackoff),
		IsFailure:                func(err error) bool { return !errors.Is(err, ports.ErrNotYet) },
		TaskCheckInterval:        cfg.TaskCheckInterval,
		DelayedTaskCheckInterval: cfg.DelayedTaskCheckInterval,
		Logger:                   slogLogger{log},
		ErrorHandler: asynq.ErrorHandlerFunc(func(ctx context.Context, t *asynq.Task, err error) {
			id, _ := asynq.GetTaskID(ctx)
			if after, ok := ports.RetryAfter(err); ok {
				log.InfoContext(ctx, "job deferred", "kind", t.Type(), "id", id, "retry_in", after, "reason", err)
				return
			}
			retried, _ := asynq.GetRetryCount(ctx)
			maxRetry, _ := asynq.GetMaxRetry(ctx)
			log.WarnContext(ctx, "job failed", "kind", t.Type(), "id", id, "retried", retried, "max_retry", maxRetry,
				"final", retried >= maxRetry || errors.Is(err, asynq.SkipRetry), "err", err)
		}),
		HealthCheckFunc: func(err error) {
			if err != nil {
				log.Error("asynq: redis health check failed", "err", err)
			}
		},
	})
	return &Server{srv: srv, h: Handler(handler)}, nil
}

// Handler adapts a ports.JobHandler to asynq: the task type is the outbox
// kind and the payload its JSON (outboxjson), read back into the core's
// typed payload for the handler. Errors wrapping ports.ErrPermanent, and
// task types no outbox kind names, skip the retries and go to the archive.
func Handler(h ports.JobHandler) asynq.Handler {
	kinds := outbox.Kinds()
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		kind := outbox.Kind(t.Type())
		if !slices.Contains(kinds, kind) {
			return fmt.Errorf("unknown task type %q: %w", t.Type(), asynq.SkipRetry)
		}
		err := h.Handle(ctx, kind, outboxjson.Decode(kind, t.Payload()))
		if errors.Is(err, ports.ErrPermanent) {
			return fmt.Errorf("%w (%w)", err, asynq.SkipRetry)
		}
		return err
	})
}

// RetryDelay is an exponential asynq.RetryDelayFunc: min before the first
// retry, doubling per retry, capped at max; a job that was not failing but
// deferred (ports.ErrNotYet) runs again after the delay it asked for. Such
// a run does not count against the task's retries (the server's IsFailure).
func RetryDelay(minDelay, maxDelay time.Duration) asynq.RetryDelayFunc {
	return func(n int, err error, _ *asynq.Task) time.Duration {
		if after, ok := ports.RetryAfter(err); ok {
			return after
		}
		d := minDelay
		for i := 0; i < n && d < maxDelay; i++ {
			d *= 2
		}
		return min(d, maxDelay)
	}
}

// Start begins processing in the background.
func (s *Server) Start() error {
	if err := s.srv.Start(s.h); err != nil {
		return fmt.Errorf("asynq: start server: %w", err)
	}
	return nil
}

// Shutdown stops taking tasks, waits up to ShutdownTimeout for the running
// ones, and puts those still running back on their queue, where another
// worker retries them (their handlers see their context cancelled).
func (s *Server) Shutdown() { s.srv.Shutdown() }

// Run processes tasks until ctx is done, then shuts down gracefully.
func (s *Server) Run(ctx context.Context) error {
	if err := s.Start(); err != nil {
		return err
	}
	<-ctx.Done()
	s.Shutdown()
	return nil
}

// Ping checks the server's Redis connection.
func (s *Server) Ping() error { return s.srv.Ping() }

// slogLogger adapts slog to asynq.Logger.
type slogLogger struct{ l *slog.Logger }

func (s slogLogger) Debug(args ...any) { s.l.Debug(fmt.Sprint(args...)) }
func (s slogLogger) Info(args ...any)  { s.l.Info(fmt.Sprint(args...)) }
func (s slogLogger) Warn(args ...any)  { s.l.Warn(fmt.Sprint(args...)) }
func (s slogLogger) Error(args ...any) { s.l.Error(fmt.Sprint(args...)) }

// Fatal logs at error level. asynq never calls it, and a library must not
// end the process.
func (s slogLogger) Fatal(args ...any) { s.l.Error(fmt.Sprint(args...), "fatal", true) }
