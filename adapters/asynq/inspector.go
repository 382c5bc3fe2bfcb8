package asynqadapter

import (
	"errors"
	"fmt"
	"slices"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// Queues lists the queue names outbox kinds run on, most urgent first.
func Queues() []string {
	return []string{outbox.QueueCritical, outbox.QueueDefault, outbox.QueueLow}
}

// Inspector reads queue state, for operators and tests.
type Inspector struct {
	i *asynq.Inspector
}

// NewInspector builds an inspector on rdb, which it does not close.
func NewInspector(rdb redis.UniversalClient) *Inspector {
	return &Inspector{i: asynq.NewInspectorFromRedisClient(rdb)}
}

// Counts are the tasks of one queue by state.
type Counts struct {
	Pending, Active, Scheduled, Retry, Archived, Completed int
}

// Counts returns the task counts of a queue; a queue that has never held a
// task counts zero everywhere.
func (in *Inspector) Counts(queue string) (Counts, error) {
	// GetQueueInfo's not-found error wraps no exported sentinel, so look
	// the queue up first.
	known, err := in.i.Queues()
	if err != nil {
		return Counts{}, fmt.Errorf("asynq: queues: %w", err)
	}
	if !slices.Contains(known, queue) {
		return Counts{}, nil
	}
	qi, err := in.i.GetQueueInfo(queue)
	if err != nil {
		return Counts{}, fmt.Errorf("asynq: queue info %s: %w", queue, err)
	}
	return Counts{Pending: qi.Pending, Active: qi.Active, Scheduled: qi.Scheduled,
		Retry: qi.Retry, Archived: qi.Archived, Completed: qi.Completed}, nil
}

// Archived counts the dead tasks across all outbox queues.
func (in *Inspector) Archived() (int, error) {
	n := 0
	for _, q := range Queues() {
		c, err := in.Counts(q)
		if err != nil {
			return 0, err
		}
		n += c.Archived
	}
	return n, nil
}

// ArchivedTasks lists the dead tasks of a queue with their last error.
func (in *Inspector) ArchivedTasks(queue string) ([]*asynq.TaskInfo, error) {
	ts, err := in.i.ListArchivedTasks(queue)
	if errors.Is(err, asynq.ErrQueueNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("asynq: archived tasks %s: %w", queue, err)
	}
	return ts, nil
}

// Task returns one task by queue and id (the outbox message id).
func (in *Inspector) Task(queue, id string) (*asynq.TaskInfo, error) {
	return in.i.GetTaskInfo(queue, id)
}
