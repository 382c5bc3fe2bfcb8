package sqlstore

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

// runRepo is vendors.RunRepo but for GetForUpdate, which each dialect locks in its
// own words (SelectRun reads the run with the lock clause it is given).
type runRepo struct{ base }

// Create inserts a run.
func (r runRepo) Create(ctx context.Context, rn vendors.Run) error {
	row := fromRun(rn)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "create run %s", rn.ID)
}

// SelectRun reads a run; lock adds a row-locking clause (SELECT ... FOR lock)
// unless empty.
func (r runRepo) SelectRun(ctx context.Context, id uuid.UUID, lock string) (vendors.Run, error) {
	var row runRow
	q := r.DB.NewSelect().Model(&row).Where("r.id = ?", id)
	if lock != "" {
		q = q.For(lock)
	}
	if err := q.Scan(ctx); err != nil {
		return vendors.Run{}, r.Translate(err, "run %s", id)
	}
	return row.Core(), nil
}

// Get returns a run.
func (r runRepo) Get(ctx context.Context, id uuid.UUID) (vendors.Run, error) {
	return r.SelectRun(ctx, id, "")
}

// Save stores a run's jobs and updated_at.
func (r runRepo) Save(ctx context.Context, rn vendors.Run) error {
	row := fromRun(rn)
	res, err := r.DB.NewUpdate().Model(&row).Column("jobs", "updated_at").WherePK().Exec(ctx)
	if err != nil {
		return r.Translate(err, "save run %s", rn.ID)
	}
	return r.MustAffect(res, "save run %s", rn.ID)
}

// outboxRepo is outbox.Repo but for Claim, which each dialect makes safe
// against concurrent relays in its own words (with SelectDue).
type outboxRepo struct{ base }

// Add appends messages in one statement.
func (r outboxRepo) Add(ctx context.Context, ms ...outbox.Message) error {
	if len(ms) == 0 {
		return nil
	}
	now := time.Now().UTC()
	rows := make([]outboxRow, 0, len(ms))
	for _, m := range ms {
		row, err := fromMessage(m, now)
		if err != nil {
			return err
		}
		rows = append(rows, row)
	}
	_, err := r.DB.NewInsert().Model(&rows).Exec(ctx)
	return r.Translate(err, "add to outbox")
}

// SelectDue reads up to limit undelivered messages whose next attempt is
// due, oldest first (by creation, not by due time); lock adds a row-locking
// clause (SELECT ... FOR lock) unless empty.
func (r outboxRepo) SelectDue(ctx context.Context, limit int, now time.Time, lock string) ([]outbox.Message, error) {
	if limit <= 0 {
		return []outbox.Message{}, nil
	}
	var rows []outboxRow
	q := r.DB.NewSelect().Model(&rows).
		Where("o.delivered_at IS NULL AND o.available_at <= ?", now).
		OrderExpr("o.created_at, o.id").Limit(int64(limit))
	if lock != "" {
		q = q.For(lock)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, r.Translate(err, "claim outbox")
	}
	return mapRows(rows, outboxRow.Core), nil
}

// MarkDelivered marks messages handed to the queue.
func (r outboxRepo) MarkDelivered(ctx context.Context, ids []uuid.UUID, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	_, err := r.DB.NewUpdate().Model((*outboxRow)(nil)).Set("delivered_at = ?", now).
		Where("id IN (?)", bun.List(ids)).Where("delivered_at IS NULL").Exec(ctx)
	return r.Translate(err, "mark outbox delivered")
}

// MarkFailed records a failed hand-over and when to try again.
func (r outboxRepo) MarkFailed(ctx context.Context, id uuid.UUID, errText string, retryAt time.Time) error {
	res, err := r.DB.NewUpdate().Model((*outboxRow)(nil)).
		Set("attempts = attempts + 1").Set("last_error = ?", errText).Set("available_at = ?", retryAt).
		Where("id = ?", id).Exec(ctx)
	if err != nil {
		return r.Translate(err, "mark outbox message %s failed", id)
	}
	return r.MustAffect(res, "mark outbox message %s failed", id)
}

// Lease sets when undelivered messages may be claimed again, without
// counting an attempt.
func (r outboxRepo) Lease(ctx context.Context, ids []uuid.UUID, until time.Time) error {
	for len(ids) > 0 {
		n := min(len(ids), leaseChunk)
		_, err := r.DB.NewUpdate().Model((*outboxRow)(nil)).Set("available_at = ?", until.UTC()).
			Where("id IN (?)", bun.List(ids[:n])).Where("delivered_at IS NULL").Exec(ctx)
		if err != nil {
			return r.Translate(err, "lease outbox messages")
		}
		ids = ids[n:]
	}
	return nil
}

// leaseChunk bounds the ids of one Lease statement, well below SQLite's
// limit of bound parameters.
const leaseChunk = 1000

// Oldest returns when the oldest undelivered message was created, or the
// zero time when none is pending. It reads the row rather than min() so
// that the driver's time parsing applies (SQLite keeps times as text).
func (r outboxRepo) Oldest(ctx context.Context) (time.Time, error) {
	var rows []outboxRow
	err := r.DB.NewSelect().Model(&rows).Where("o.delivered_at IS NULL").OrderExpr("o.created_at, o.id").Limit(1).Scan(ctx)
	if err != nil {
		return time.Time{}, r.Translate(err, "oldest pending outbox")
	}
	if len(rows) == 0 {
		return time.Time{}, nil
	}
	return rows[0].CreatedAt.UTC(), nil
}

// Pending counts undelivered messages.
func (r outboxRepo) Pending(ctx context.Context) (int, error) {
	n, err := r.DB.NewSelect().Model((*outboxRow)(nil)).Where("o.delivered_at IS NULL").Count(ctx)
	if err != nil {
		return 0, r.Translate(err, "count pending outbox")
	}
	return int(n), nil
}

// deliveryRepo is mailonce.Repo.
type deliveryRepo struct{ base }

// Claim inserts the key, or else takes over its claim if that is older than
// lease and was never sent, or else reads why it cannot. Each step is one
// statement, so concurrent claimers serialise on the row: a second insert
// waits for the first and does nothing, and a second take-over re-checks
// claimed_at after the first has moved it and matches nothing.
func (r deliveryRepo) Claim(ctx context.Context, key string, now time.Time, lease time.Duration) (mailonce.Delivery, error) {
	now = now.UTC()
	claimed := mailonce.Delivery{State: mailonce.DeliveryClaimed, ClaimedAt: now}
	n, err := r.InsertNew(ctx, &deliveryRow{Key: key, ClaimedAt: now}, "claim delivery %q", key)
	if err != nil {
		return mailonce.Delivery{}, err
	}
	if n == 1 {
		return claimed, nil
	}
	res, err := r.DB.NewUpdate().Model((*deliveryRow)(nil)).Set("claimed_at = ?", now).
		Where("key = ? AND sent_at IS NULL AND claimed_at <= ?", key, now.Add(-lease)).Exec(ctx)
	if err != nil {
		return mailonce.Delivery{}, r.Translate(err, "take over delivery %q", key)
	}
	took, err := res.RowsAffected()
	if err != nil {
		return mailonce.Delivery{}, r.Translate(err, "take over delivery %q", key)
	}
	if took == 1 {
		return claimed, nil
	}
	var row deliveryRow
	if err := r.DB.NewSelect().Model(&row).Where("key = ?", key).Scan(ctx); err != nil {
		return mailonce.Delivery{}, r.Translate(err, "delivery %q", key)
	}
	if row.SentAt != nil {
		return mailonce.Delivery{State: mailonce.DeliverySent, ClaimedAt: row.ClaimedAt.UTC(), SentAt: row.SentAt.UTC()}, nil
	}
	return mailonce.Delivery{State: mailonce.DeliveryBusy, ClaimedAt: row.ClaimedAt.UTC()}, nil
}

// MarkSent stamps sent_at once.
func (r deliveryRepo) MarkSent(ctx context.Context, key string, now time.Time) error {
	res, err := r.DB.NewUpdate().Model((*deliveryRow)(nil)).Set("sent_at = COALESCE(sent_at, ?)", now.UTC()).
		Where("key = ?", key).Exec(ctx)
	if err != nil {
		return r.Translate(err, "mark delivery %q sent", key)
	}
	return r.MustAffect(res, "delivery %q", key)
}

// Release forgets an unsent claim.
func (r deliveryRepo) Release(ctx context.Context, key string) error {
	_, err := r.DB.NewDelete().Model((*deliveryRow)(nil)).Where("key = ? AND sent_at IS NULL", key).Exec(ctx)
	return r.Translate(err, "release delivery %q", key)
}
