package sqlite

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/run"
)

type runRepo struct{ bunrepo.Runs }

// GetForUpdate is Get: the unit of work holds the database's write lock
// since it began (BEGIN IMMEDIATE), so no other one can change the run
// before it ends.
func (r runRepo) GetForUpdate(ctx context.Context, id uuid.UUID) (run.Run, error) {
	return r.Get(ctx, id)
}

type outboxRepo struct{ bunrepo.Outbox }

// Claim takes the oldest due messages without a row lock (SQLite has none,
// and no SKIP LOCKED): relays write in turns on the database's write lock,
// so no other relay sees these messages before this unit of work ends.
func (r outboxRepo) Claim(ctx context.Context, limit int, now time.Time) ([]outbox.Message, error) {
	return r.SelectDue(ctx, limit, now, "")
}
