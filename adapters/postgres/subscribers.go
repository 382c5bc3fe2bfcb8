package postgres

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/subscriber"
	"github.com/vetted-dev/vetted/core/vendor"
)

type subscriberRepo struct{ db bun.IDB }

func (r subscriberRepo) List(ctx context.Context, listID uuid.UUID) ([]subscriber.Subscriber, error) {
	var rows []dbrow.Subscriber
	if err := r.db.NewSelect().Model(&rows).Where("sub.list_id = ?", listID).OrderExpr("sub.email" + collateC + ", sub.id").Scan(ctx); err != nil {
		return nil, translate(err, "subscribers of list %s", listID)
	}
	return dbrow.Map(rows, dbrow.Subscriber.Core), nil
}

func (r subscriberRepo) Get(ctx context.Context, id uuid.UUID) (subscriber.Subscriber, error) {
	var row dbrow.Subscriber
	if err := r.db.NewSelect().Model(&row).Where("sub.id = ?", id).Scan(ctx); err != nil {
		return subscriber.Subscriber{}, translate(err, "subscriber %s", id)
	}
	return row.Core(), nil
}

func (r subscriberRepo) GetByEmail(ctx context.Context, listID uuid.UUID, email string) (subscriber.Subscriber, error) {
	var row dbrow.Subscriber
	err := r.db.NewSelect().Model(&row).Where("sub.list_id = ? AND lower(sub.email) = ?", listID, lower(email)).Scan(ctx)
	if err != nil {
		return subscriber.Subscriber{}, translate(err, "subscriber %s of list %s", email, listID)
	}
	return row.Core(), nil
}

func (r subscriberRepo) Save(ctx context.Context, s subscriber.Subscriber) error {
	row := dbrow.FromSubscriber(s)
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
	res, err := r.db.NewDelete().Model((*dbrow.Subscriber)(nil)).
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
	var rows []dbrow.RecipientView
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
	return dbrow.Map(rows, dbrow.RecipientView.Core), nil
}

type incidentRepo struct{ db bun.IDB }

func (r incidentRepo) Create(ctx context.Context, in vendor.Incident) error {
	row := dbrow.FromIncident(in)
	_, err := r.db.NewInsert().Model(&row).Exec(ctx)
	return translate(err, "create incident %s", in.ID)
}

// Merge inserts in one statement and answers the inserted incidents in
// input order.
func (r incidentRepo) Merge(ctx context.Context, ins []vendor.Incident) ([]vendor.Incident, error) {
	if len(ins) == 0 {
		return []vendor.Incident{}, nil
	}
	rows := make([]dbrow.Incident, 0, len(ins))
	for _, in := range ins {
		rows = append(rows, dbrow.FromIncident(in))
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
			out = append(out, row.Core())
		}
	}
	return out, nil
}

func (r incidentRepo) Get(ctx context.Context, id uuid.UUID) (vendor.Incident, error) {
	var row dbrow.Incident
	if err := r.db.NewSelect().Model(&row).Where("i.id = ?", id).Scan(ctx); err != nil {
		return vendor.Incident{}, translate(err, "incident %s", id)
	}
	return row.Core(), nil
}

func (r incidentRepo) ListByVendor(ctx context.Context, vendorID uuid.UUID) ([]vendor.Incident, error) {
	var rows []dbrow.Incident
	err := r.db.NewSelect().Model(&rows).Where("i.vendor_id = ?", vendorID).
		OrderExpr("i.published_at DESC, i.created_at DESC, i.id DESC").Scan(ctx)
	if err != nil {
		return nil, translate(err, "incidents of vendor %s", vendorID)
	}
	return dbrow.Map(rows, dbrow.Incident.Core), nil
}

type deliveryRepo struct{ db bun.IDB }

func (r deliveryRepo) Claim(ctx context.Context, key string, now time.Time) (bool, error) {
	row := dbrow.Delivery{Key: key, ClaimedAt: now}
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
	_, err := r.db.NewDelete().Model((*dbrow.Delivery)(nil)).Where("key = ?", key).Exec(ctx)
	return translate(err, "release delivery %q", key)
}
