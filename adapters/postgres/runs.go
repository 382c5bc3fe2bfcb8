package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

type runRepo struct {
	bunrepo.Runs
	readOnly bool
}

// GetForUpdate locks the run's row until the unit of work ends, so two
// read-modify-writes of one run take turns.
func (r runRepo) GetForUpdate(ctx context.Context, id uuid.UUID) (vendors.Run, error) {
	if r.readOnly {
		return r.Get(ctx, id)
	}
	return r.SelectRun(ctx, id, "UPDATE")
}

type outboxRepo struct{ bunrepo.Outbox }

// Claim locks the oldest due messages. SKIP LOCKED lets concurrent relays
// each take a different batch instead of queueing behind one another.
func (r outboxRepo) Claim(ctx context.Context, limit int, now time.Time) ([]outbox.Message, error) {
	return r.SelectDue(ctx, limit, now, "UPDATE SKIP LOCKED")
}
