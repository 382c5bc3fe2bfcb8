package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/run"
)

type runRepo struct {
	db       bun.IDB
	readOnly bool
}

func (r runRepo) Create(ctx context.Context, rn run.Run) error {
	row := dbrow.FromRun(rn)
	_, err := r.db.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create run %s", rn.ID)
}

func (r runRepo) get(ctx context.Context, id uuid.UUID, forUpdate bool) (run.Run, error) {
	var row dbrow.Run
	q := r.db.NewSelect().Model(&row).Where("r.id = ?", id)
	if forUpdate && !r.readOnly {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		return run.Run{}, translate(err, "run %s", id)
	}
	return row.Core(), nil
}

func (r runRepo) Get(ctx context.Context, id uuid.UUID) (run.Run, error) {
	return r.get(ctx, id, false)
}

func (r runRepo) GetForUpdate(ctx context.Context, id uuid.UUID) (run.Run, error) {
	return r.get(ctx, id, true)
}

func (r runRepo) Save(ctx context.Context, rn run.Run) error {
	row := dbrow.FromRun(rn)
	res, err := r.db.NewUpdate().Model(&row).Column("jobs", "updated_at").WherePK().Exec(ctx)
	if err != nil {
		return translate(err, "save run %s", rn.ID)
	}
	return mustAffect(res, "save run %s", rn.ID)
}

type outboxRepo struct{ db bun.IDB }

func (r outboxRepo) Add(ctx context.Context, ms ...outbox.Message) error {
	if len(ms) == 0 {
		return nil
	}
	now := time.Now().UTC()
	rows := make([]dbrow.Outbox, 0, len(ms))
	for _, m := range ms {
		rows = append(rows, dbrow.FromMessage(m, now))
	}
	_, err := r.db.NewInsert().Model(&rows).Exec(ctx)
	return translate(err, "add to outbox")
}

// Claim locks the oldest due messages (by creation, not by due time). SKIP LOCKED lets concurrent relays
// each take a different batch instead of queueing behind one another.
func (r outboxRepo) Claim(ctx context.Context, limit int, now time.Time) ([]outbox.Message, error) {
	if limit <= 0 {
		return []outbox.Message{}, nil
	}
	var rows []dbrow.Outbox
	err := r.db.NewSelect().Model(&rows).
		Where("o.delivered_at IS NULL AND o.available_at <= ?", now).
		OrderExpr("o.created_at, o.id").Limit(int64(limit)).
		For("UPDATE SKIP LOCKED").Scan(ctx)
	if err != nil {
		return nil, translate(err, "claim outbox")
	}
	return dbrow.Map(rows, dbrow.Outbox.Core), nil
}

func (r outboxRepo) MarkDelivered(ctx context.Context, ids []uuid.UUID, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := r.db.NewUpdate().Model((*dbrow.Outbox)(nil)).Set("delivered_at = ?", now).
		Where("id IN (?)", bun.In(ids)).Where("delivered_at IS NULL").Exec(ctx)
	return translate(err, "mark outbox delivered")
}

func (r outboxRepo) MarkFailed(ctx context.Context, id uuid.UUID, errText string, retryAt time.Time) error {
	res, err := r.db.NewUpdate().Model((*dbrow.Outbox)(nil)).
		Set("attempts = attempts + 1").Set("last_error = ?", errText).Set("available_at = ?", retryAt).
		Where("id = ?", id).Exec(ctx)
	if err != nil {
		return translate(err, "mark outbox message %s failed", id)
	}
	return mustAffect(res, "mark outbox message %s failed", id)
}

func (r outboxRepo) Pending(ctx context.Context) (int, error) {
	n, err := r.db.NewSelect().Model((*dbrow.Outbox)(nil)).Where("o.delivered_at IS NULL").Count(ctx)
	if err != nil {
		return 0, translate(err, "count pending outbox")
	}
	return int(n), nil
}
