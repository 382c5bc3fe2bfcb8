// Package asynqadapter runs Vetted's jobs on Redis with
// github.com/hibiken/asynq. Queue is the ports.JobQueue the outbox relay
// hands messages to: the message id is the asynq task id, so handing a
// message over twice enqueues it once. Server runs the tasks through a
// ports.JobHandler on weighted queues (mail and alerts before enrichment
// before backfill) with exponential retries; tasks that fail for good stay
// in asynq's archive, where Inspector finds them. Scheduler enqueues the
// periodic jobs.
package asynqadapter

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/internal/outboxjson"
)

// NewClient connects to Redis at a redis:// or rediss:// URL (the database
// number is the path). The caller closes it after the components using it.
func NewClient(redisURL string) (*redis.Client, error) {
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		return nil, fmt.Errorf("asynq: redis url: %w", err)
	}
	return redis.NewClient(opts), nil
}

// Ping checks that Redis answers, for readiness probes.
func Ping(ctx context.Context, rdb redis.UniversalClient) error {
	if err := rdb.Ping(ctx).Err(); err != nil {
		return fmt.Errorf("asynq: redis ping: %w", err)
	}
	return nil
}

// Defaults for the zero QueueConfig.
const (
	DefaultMaxRetry       = 10
	DefaultRetention      = 24 * time.Hour
	DefaultEnqueueTimeout = 5 * time.Second
)

// QueueConfig tunes a Queue; zero fields take the defaults.
type QueueConfig struct {
	// MaxRetry is how often a failed task is retried before it is archived;
	// negative means never.
	MaxRetry int
	// Retention keeps a completed task, and so its id, in Redis this long:
	// a message handed over again within it is recognised and not run
	// twice. Archived (dead) tasks keep their ids as long as the archive does.
	Retention time.Duration
	// Timeout bounds one run of a task; zero is asynq's default (30 min).
	Timeout time.Duration
	// EnqueueTimeout bounds one hand-over, so that a hanging Redis does not
	// hold the relay's unit of work open.
	EnqueueTimeout time.Duration
}

// Queue enqueues outbox messages as asynq tasks. It is a ports.JobQueue.
type Queue struct {
	client *asynq.Client
	rdb    redis.UniversalClient
	cfg    QueueConfig
}

// NewQueue builds a queue on rdb, which it does not close.
func NewQueue(rdb redis.UniversalClient, cfg QueueConfig) (*Queue, error) {
	if rdb == nil {
		return nil, errors.New("asynq: nil redis client")
	}
	if cfg.MaxRetry == 0 {
		cfg.MaxRetry = DefaultMaxRetry
	}
	cfg.MaxRetry = max(cfg.MaxRetry, 0)
	if cfg.Retention <= 0 {
		cfg.Retention = DefaultRetention
	}
	if cfg.EnqueueTimeout <= 0 {
		cfg.EnqueueTimeout = DefaultEnqueueTimeout
	}
	return &Queue{client: asynq.NewClientFromRedisClient(rdb), rdb: rdb, cfg: cfg}, nil
}

// Enqueue puts m on the queue of its kind, with its id as the task id. A
// task id that is already known (pending, running, retrying, completed
// within Retention, or archived) counts as success: the message was handed
// over before.
func (q *Queue) Enqueue(ctx context.Context, m outbox.Message) error {
	if m.Kind == "" {
		return errors.New("asynq: enqueue: message without kind")
	}
	ctx, cancel := context.WithTimeout(ctx, q.cfg.EnqueueTimeout)
	defer cancel()
	opts := []asynq.Option{
		asynq.TaskID(m.ID.String()),
		asynq.Queue(m.Kind.Queue()),
		asynq.MaxRetry(q.cfg.MaxRetry),
		asynq.Retention(q.cfg.Retention),
	}
	if q.cfg.Timeout > 0 {
		opts = append(opts, asynq.Timeout(q.cfg.Timeout))
	}
	payload, err := outboxjson.Encode(m.Kind, m.Payload)
	if err != nil {
		return fmt.Errorf("asynq: enqueue %s %s: %w", m.Kind, m.ID, err)
	}
	_, err = q.client.EnqueueContext(ctx, asynq.NewTask(string(m.Kind), payload), opts...)
	if err == nil || errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask) {
		return nil
	}
	return fmt.Errorf("asynq: enqueue %s %s: %w", m.Kind, m.ID, err)
}

// Ping checks that Redis answers, for readiness probes.
func (q *Queue) Ping(ctx context.Context) error { return Ping(ctx, q.rdb) }
