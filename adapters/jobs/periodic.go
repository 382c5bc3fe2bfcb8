package jobs

import (
	"context"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
)

// Periodic enqueues a job of kind (with an empty payload) on q at once and
// then every period, until ctx ends; it returns then. It is the embedded
// profile's stand-in for asynq's scheduler: the queue lives in this process,
// so the first run is at start rather than one period later, and a process
// restarted more often than the period still runs the job. Handlers of
// periodic kinds are idempotent, so a run at each start is harmless. A
// failed enqueue (the queue closing) is logged and the next tick tries again.
func Periodic(ctx context.Context, q ports.JobQueue, kind outbox.Kind, every time.Duration, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		m := outbox.New(uuid.Must(uuid.NewV7()), kind, struct{}{}, time.Now())
		if err := q.Enqueue(ctx, m); err != nil {
			log.Warn("periodic job not enqueued", "kind", kind, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
