package asynqadapter

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// SchedulerConfig sets the periods of the periodic jobs; zero disables one.
type SchedulerConfig struct {
	// PollIncidentsEvery enqueues KindPollIncidents this often.
	PollIncidentsEvery time.Duration
	// ReenrichStaleEvery enqueues KindReenrichStale this often.
	ReenrichStaleEvery time.Duration
	// ReviewRemindersEvery enqueues KindReviewReminders this often.
	ReviewRemindersEvery time.Duration
	// Logger receives asynq's logs and enqueue failures; nil discards them.
	Logger *slog.Logger
}

// Scheduler enqueues the periodic jobs on their queues.
type Scheduler struct {
	s       *asynq.Scheduler
	entries int
}

// NewScheduler builds a scheduler on rdb, which it does not close.
//
// A periodic task is unique for its period, so a slow run or a second
// scheduler does not pile up copies while one is still queued or running;
// it is not retried, since the next period is its retry. Its handlers are
// idempotent, so an occasional extra run from a second scheduler is harmless.
func NewScheduler(rdb redis.UniversalClient, cfg SchedulerConfig) (*Scheduler, error) {
	if rdb == nil {
		return nil, errors.New("asynq: nil redis client")
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := asynq.NewSchedulerFromRedisClient(rdb, &asynq.SchedulerOpts{
		Logger: schedulerLogger{slogLogger{log}},
		PostEnqueueFunc: func(info *asynq.TaskInfo, err error) {
			if err != nil && !errors.Is(err, asynq.ErrDuplicateTask) {
				log.Error("asynq: periodic enqueue failed", "err", err)
			}
		},
	})
	sch := &Scheduler{s: s}
	for _, p := range []struct {
		kind  outbox.Kind
		every time.Duration
	}{
		{outbox.KindPollIncidents, cfg.PollIncidentsEvery},
		{outbox.KindReenrichStale, cfg.ReenrichStaleEvery},
		{outbox.KindReviewReminders, cfg.ReviewRemindersEvery},
	} {
		if p.every <= 0 {
			continue
		}
		task := asynq.NewTask(string(p.kind), []byte("{}"))
		_, err := s.Register(CronEvery(p.every), task,
			asynq.Queue(p.kind.Queue()), asynq.MaxRetry(0), asynq.Unique(p.every))
		if err != nil {
			return nil, fmt.Errorf("asynq: schedule %s: %w", p.kind, err)
		}
		sch.entries++
	}
	return sch, nil
}

// schedulerLogger is slogLogger but for one error asynq's scheduler logs
// on every clean Shutdown: it tries to close the Redis client it was given,
// which asynq refuses for a shared one. The client is the worker's, closed
// by it; the line is kept at debug, not reported as an error.
type schedulerLogger struct{ slogLogger }

func (s schedulerLogger) Error(args ...any) {
	msg := fmt.Sprint(args...)
	if strings.Contains(msg, "redis connection is shared") {
		s.l.Debug(msg)
		return
	}
	s.l.Error(msg)
}

// CronEvery is the cron spec for a fixed period, such as "@every 15m0s".
func CronEvery(d time.Duration) string { return "@every " + d.String() }

// Entries reports how many periodic jobs are registered.
func (s *Scheduler) Entries() int { return s.entries }

// Start begins scheduling in the background; with no entries it does nothing.
func (s *Scheduler) Start() error {
	if s.entries == 0 {
		return nil
	}
	if err := s.s.Start(); err != nil {
		return fmt.Errorf("asynq: start scheduler: %w", err)
	}
	return nil
}

// Shutdown stops scheduling.
func (s *Scheduler) Shutdown() {
	if s.entries > 0 {
		s.s.Shutdown()
	}
}

// Run schedules until ctx is done.
func (s *Scheduler) Run(ctx context.Context) error {
	if err := s.Start(); err != nil {
		return err
	}
	<-ctx.Done()
	s.Shutdown()
	return nil
}
