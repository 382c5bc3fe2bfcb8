package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/run"
)

type runRepo struct {
	bunrepo.Runs
	readOnly bool
}

// GetForUpdate locks the run's row until the unit of work ends, so two
// read-modify-writes of one run take turns.
func (r runRepo) GetForUpdate(ctx context.Context, id uuid.UUID) (run.Run, error) {
	if r.readOnly {
		return r.Get(ctx, id)
	}
	return r.SelectRun(ctx, id, "UPDATE")
}

type outboxRepo struct{ bunrepo.Outbox }

// Claim locks the oldest due messages (by creation, not by due time). SKIP LOCKED lets concurrent relays
// each take a different batch instead of queueing behind one another.
func (r outboxRepo) Claim(ctx context.Context, limit int, now time.Time) ([]outbox.Message, error) {
	if limit <= 0 {
		return []outbox.Message{}, nil
	}
	var rows []dbrow.Outbox
	err := r.DB.NewSelect().Model(&rows).
		Where("o.delivered_at IS NULL AND o.available_at <= ?", now).
		OrderExpr("o.created_at, o.id").Limit(int64(limit)).
		For("UPDATE SKIP LOCKED").Scan(ctx)
	if err != nil {
		return nil, translate(err, "claim outbox")
	}
	return dbrow.Map(rows, dbrow.Outbox.Core), nil
}
