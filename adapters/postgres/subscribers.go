package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/subscriber"
	"github.com/vetted-dev/vetted/core/vendor"
)

type subscriberRepo struct{ db bun.IDB }

func (r subscriberRepo) List(ctx context.Context, listID uuid.UUID) ([]subscriber.Subscriber, error) {
	var rows []subscriberRow
	if err := r.db.NewSelect().Model(&rows).Where("sub.list_id = ?", listID).OrderExpr("sub.email" + collateC + ", sub.id").Scan(ctx); err != nil {
		return nil, translate(err, "subscribers of list %s", listID)
	}
	return mapRows(rows, subscriberFromRow), nil
}

func (r subscriberRepo) Get(ctx context.Context, id uuid.UUID) (subscriber.Subscriber, error) {
	var row subscriberRow
	if err := r.db.NewSelect().Model(&row).Where("sub.id = ?", id).Scan(ctx); err != nil {
		return subscriber.Subscriber{}, translate(err, "subscriber %s", id)
	}
	return subscriberFromRow(row), nil
}

func (r subscriberRepo) GetByEmail(ctx context.Context, listID uuid.UUID, email string) (subscriber.Subscriber, error) {
	var row subscriberRow
	err := r.db.NewSelect().Model(&row).Where("sub.list_id = ? AND lower(sub.email) = ?", listID, lower(email)).Scan(ctx)
	if err != nil {
		return subscriber.Subscriber{}, translate(err, "subscriber %s of list %s", email, listID)
	}
	return subscriberFromRow(row), nil
}

func (r subscriberRepo) Save(ctx context.Context, s subscriber.Subscriber) error {
	row := subscriberToRow(s)
	_, err := r.db.NewInsert().Model(&row).
		On("CONFLICT (id) DO UPDATE").
		Set("email = EXCLUDED.email, status = EXCLUDED.status, confirmed_at = EXCLUDED.confirmed_at").
		Exec(ctx)
	return translate(err, "save subscriber %s", s.Email)
}

func (r subscriberRepo) Delete(ctx context.Context, listID uuid.UUID, emails []string) (int, error) {
	if len(emails) == 0 {
		return 0, nil
	}
	res, err := r.db.NewDelete().Model((*subscriberRow)(nil)).
		Where("list_id = ?", listID).Where("lower(email) IN (?)", bun.In(lowerAll(emails))).Exec(ctx)
	if err != nil {
		return 0, translate(err, "delete subscribers of list %s", listID)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, translate(err, "delete subscribers of list %s", listID)
	}
	return int(n), nil
}

func (r subscriberRepo) Recipients(ctx context.Context, vendorID uuid.UUID) ([]subscriber.Recipient, error) {
	var rows []struct {
		SubscriberID uuid.UUID `bun:"subscriber_id"`
		AccountID    uuid.UUID `bun:"account_id"`
		ListID       uuid.UUID `bun:"list_id"`
		ListName     string    `bun:"list_name"`
		Email        string    `bun:"email"`
	}
	err := r.db.NewSelect().
		TableExpr("list_entries AS e").
		ColumnExpr("sub.id AS subscriber_id, sub.account_id, sub.list_id, l.name AS list_name, sub.email").
		Join("JOIN lists AS l ON l.id = e.list_id").
		Join("JOIN subscribers AS sub ON sub.list_id = e.list_id").
		Where("e.vendor_id = ? AND e.alerts_enabled", vendorID).
		Where("sub.status = ?", subscriber.StatusConfirmed).
		OrderExpr("l.name"+collateC+", sub.email"+collateC+", sub.id").
		Scan(ctx, &rows)
	if err != nil {
		return nil, translate(err, "alert recipients for vendor %s", vendorID)
	}
	out := make([]subscriber.Recipient, 0, len(rows))
	for _, row := range rows {
		out = append(out, subscriber.Recipient(row))
	}
	return out, nil
}

type incidentRepo struct{ db bun.IDB }

func (r incidentRepo) Create(ctx context.Context, in vendor.Incident) error {
	row := incidentToRow(in)
	_, err := r.db.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create incident %s", in.ID)
}

// Merge inserts in one statement and answers the inserted incidents in
// input order.
func (r incidentRepo) Merge(ctx context.Context, ins []vendor.Incident) ([]vendor.Incident, error) {
	if len(ins) == 0 {
		return []vendor.Incident{}, nil
	}
	rows := make([]incidentRow, 0, len(ins))
	for _, in := range ins {
		rows = append(rows, incidentToRow(in))
	}
	var inserted []uuid.UUID
	_, err := r.db.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Returning("id").Exec(ctx, &inserted)
	if err != nil {
		return nil, translate(err, "merge incidents")
	}
	got := make(map[uuid.UUID]bool, len(inserted))
	for _, id := range inserted {
		got[id] = true
	}
	out := make([]vendor.Incident, 0, len(inserted))
	for _, row := range rows {
		if got[row.ID] {
			delete(got, row.ID) // a repeated id was inserted once
			out = append(out, incidentFromRow(row))
		}
	}
	return out, nil
}

func (r incidentRepo) Get(ctx context.Context, id uuid.UUID) (vendor.Incident, error) {
	var row incidentRow
	if err := r.db.NewSelect().Model(&row).Where("i.id = ?", id).Scan(ctx); err != nil {
		return vendor.Incident{}, translate(err, "incident %s", id)
	}
	return incidentFromRow(row), nil
}

func (r incidentRepo) ListByVendor(ctx context.Context, vendorID uuid.UUID) ([]vendor.Incident, error) {
	var rows []incidentRow
	err := r.db.NewSelect().Model(&rows).Where("i.vendor_id = ?", vendorID).OrderExpr(newest).Scan(ctx)
	if err != nil {
		return nil, translate(err, "incidents of vendor %s", vendorID)
	}
	return mapRows(rows, incidentFromRow), nil
}

// newest orders incidents newest first, as ListByVendor does.
const newest = "i.published_at DESC, i.created_at DESC, i.id DESC"

func (r incidentRepo) Recent(ctx context.Context, vendorIDs []uuid.UUID, limit int) ([]vendor.Incident, error) {
	if len(vendorIDs) == 0 || limit <= 0 {
		return []vendor.Incident{}, nil
	}
	var rows []incidentRow
	err := r.db.NewSelect().Model(&rows).Where("i.vendor_id IN (?)", bun.In(vendorIDs)).
		OrderExpr(newest).Limit(int64(limit)).Scan(ctx)
	if err != nil {
		return nil, translate(err, "recent incidents of %d vendors", len(vendorIDs))
	}
	return mapRows(rows, incidentFromRow), nil
}

// Latest picks each vendor's newest incident with DISTINCT ON, which keeps
// the first row of each vendor in the given order.
func (r incidentRepo) Latest(ctx context.Context, vendorIDs []uuid.UUID) ([]vendor.Incident, error) {
	if len(vendorIDs) == 0 {
		return []vendor.Incident{}, nil
	}
	var rows []incidentRow
	err := r.db.NewSelect().Model(&rows).DistinctOn("i.vendor_id").Where("i.vendor_id IN (?)", bun.In(vendorIDs)).
		OrderExpr("i.vendor_id, " + newest).Scan(ctx)
	if err != nil {
		return nil, translate(err, "latest incidents of %d vendors", len(vendorIDs))
	}
	return mapRows(rows, incidentFromRow), nil
}

type deliveryRepo struct{ db bun.IDB }

func (r deliveryRepo) Claim(ctx context.Context, key string, now time.Time) (bool, error) {
	row := deliveryRow{Key: key, ClaimedAt: now}
	res, err := r.db.NewInsert().Model(&row).On("CONFLICT (key) DO NOTHING").Exec(ctx)
	if err != nil {
		return false, translate(err, "claim delivery %q", key)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, translate(err, "claim delivery %q", key)
	}
	return n == 1, nil
}

func (r deliveryRepo) Release(ctx context.Context, key string) error {
	_, err := r.db.NewDelete().Model((*deliveryRow)(nil)).Where("key = ?", key).Exec(ctx)
	return translate(err, "release delivery %q", key)
}
