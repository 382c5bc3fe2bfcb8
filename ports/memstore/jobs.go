package memstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

type runs struct{ *tx }

func (r runs) Create(_ context.Context, rn vendors.Run) error {
	return r.atomic(func() error {
		if _, ok := r.d.runs[rn.ID]; ok {
			return conflict("run %s exists", rn.ID)
		}
		put(r.tx, r.d.runs, rn.ID, cloneRun(rn))
		return nil
	})
}

func (r runs) Get(_ context.Context, id uuid.UUID) (vendors.Run, error) {
	return lookup(r.tx, r.d.runs, id, "run", cloneRun)
}

// GetForUpdate is Get: writers hold the store's exclusive lock already.
func (r runs) GetForUpdate(ctx context.Context, id uuid.UUID) (vendors.Run, error) {
	return r.Get(ctx, id)
}

func (r runs) Save(_ context.Context, rn vendors.Run) error {
	return update(r.tx, r.d.runs, rn.ID, "run", func(cur *vendors.Run) {
		cur.Jobs, cur.UpdatedAt = cloneRun(rn).Jobs, rn.UpdatedAt
	})
}

type outboxRepo struct{ *tx }

func (r outboxRepo) Add(_ context.Context, ms ...outbox.Message) error {
	return r.atomic(func() error {
		for _, m := range ms {
			if _, ok := r.d.outbox[m.ID]; ok {
				return conflict("outbox message %s exists", m.ID)
			}
			row, err := newOutboxRow(m)
			if err != nil {
				return err
			}
			put(r.tx, r.d.outbox, m.ID, row)
			put(r.tx, r.d.pending, m.ID, struct{}{})
		}
		return nil
	})
}

// Claim needs no row locks here: writers are serialized, so no other relay
// can see these messages before this unit of work ends.
func (r outboxRepo) Claim(_ context.Context, limit int, now time.Time) ([]outbox.Message, error) {
	if err := r.writable(); err != nil {
		return nil, err
	}
	return r.d.undelivered(max(limit, 0), func(row outboxRow) bool { return !row.nextAttempt.After(now) }), nil
}

// undelivered returns up to limit (-1: all) of the undelivered messages
// that due takes, oldest first.
func (d *data) undelivered(limit int, due func(outboxRow) bool) []outbox.Message {
	rows := []outboxRow{}
	for id := range d.pending {
		if row := d.outbox[id]; due(row) {
			rows = append(rows, row)
		}
	}
	slices.SortFunc(rows, func(a, b outboxRow) int {
		return cmp.Or(a.msg.CreatedAt.Compare(b.msg.CreatedAt), slices.Compare(a.msg.ID[:], b.msg.ID[:]))
	})
	if limit >= 0 {
		rows = rows[:min(limit, len(rows))]
	}
	out := make([]outbox.Message, 0, len(rows))
	for _, row := range rows {
		out = append(out, row.message())
	}
	return out
}

// Undelivered returns every message of the outbox not delivered yet,
// due or not, oldest first: what a test reads to see what its units of
// work emitted.
func (s *Store) Undelivered() []outbox.Message {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.d.undelivered(-1, func(outboxRow) bool { return true })
}

func (r outboxRepo) MarkDelivered(_ context.Context, ids []uuid.UUID, _ time.Time) error {
	return r.atomic(func() error {
		for _, id := range ids {
			// Nothing reads delivered messages, so they need not be kept.
			del(r.tx, r.d.pending, id)
			del(r.tx, r.d.outbox, id)
		}
		return nil
	})
}

func (r outboxRepo) MarkFailed(_ context.Context, id uuid.UUID, errText string, retryAt time.Time) error {
	return update(r.tx, r.d.outbox, id, "outbox message", func(row *outboxRow) {
		row.msg.Attempts++
		row.msg.LastError = errText
		row.nextAttempt = retryAt
	})
}

func (r outboxRepo) Lease(_ context.Context, ids []uuid.UUID, until time.Time) error {
	return r.atomic(func() error {
		for _, id := range ids {
			if _, ok := r.d.pending[id]; !ok {
				continue
			}
			if err := update(r.tx, r.d.outbox, id, "outbox message", func(row *outboxRow) { row.nextAttempt = until }); err != nil {
				return err
			}
		}
		return nil
	})
}

func (r outboxRepo) Oldest(context.Context) (time.Time, error) {
	if err := r.readable(); err != nil {
		return time.Time{}, err
	}
	var oldest time.Time
	for id := range r.d.pending {
		if c := r.d.outbox[id].msg.CreatedAt; oldest.IsZero() || c.Before(oldest) {
			oldest = c
		}
	}
	return oldest, nil
}

func (r outboxRepo) Pending(context.Context) (int, error) {
	if err := r.readable(); err != nil {
		return 0, err
	}
	return len(r.d.pending), nil
}
