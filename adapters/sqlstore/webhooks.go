package sqlstore

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/webhooks"
)

// webhookRepo is webhooks.WebhookRepo; its SQL is the same in both dialects.
type webhookRepo struct{ base }

// Create inserts an endpoint.
func (r webhookRepo) Create(ctx context.Context, e webhooks.Endpoint) error {
	row := fromEndpoint(e)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "create webhook endpoint %s", e.ID)
}

// Get returns an endpoint of the account.
func (r webhookRepo) Get(ctx context.Context, accountID, id uuid.UUID) (webhooks.Endpoint, error) {
	var row webhookEndpointRow
	err := r.DB.NewSelect().Model(&row).Where("we.id = ? AND we.account_id = ?", id, accountID).Scan(ctx)
	if err != nil {
		return webhooks.Endpoint{}, r.Translate(err, "webhook endpoint %s", id)
	}
	return row.Core(), nil
}

// List returns the account's endpoints, oldest first.
func (r webhookRepo) List(ctx context.Context, accountID uuid.UUID) ([]webhooks.Endpoint, error) {
	var rows []webhookEndpointRow
	err := r.DB.NewSelect().Model(&rows).Where("we.account_id = ?", accountID).OrderExpr("we.created_at, we.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "list webhook endpoints of %s", accountID)
	}
	return mapRows(rows, webhookEndpointRow.Core), nil
}

// ForVendor returns the endpoints of the accounts with the vendor on a list.
func (r webhookRepo) ForVendor(ctx context.Context, vendorID uuid.UUID) ([]webhooks.Endpoint, error) {
	var rows []webhookEndpointRow
	err := r.DB.NewSelect().Model(&rows).
		Where("we.account_id IN (SELECT l.account_id FROM list_entries le JOIN lists l ON l.id = le.list_id WHERE le.vendor_id = ?)", vendorID).
		OrderExpr("we.created_at, we.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "webhook endpoints for vendor %s", vendorID)
	}
	return mapRows(rows, webhookEndpointRow.Core), nil
}

// Delete removes an endpoint; its deliveries and attempts go with it by
// ON DELETE CASCADE.
func (r webhookRepo) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	res, err := r.DB.NewDelete().Model((*webhookEndpointRow)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete webhook endpoint %s", id)
	}
	return r.MustAffect(res, "delete webhook endpoint %s", id)
}

// Disable marks an endpoint disabled, keeping an earlier time.
func (r webhookRepo) Disable(ctx context.Context, id uuid.UUID, now time.Time) error {
	res, err := r.DB.NewUpdate().Model((*webhookEndpointRow)(nil)).
		Set("disabled_at = COALESCE(disabled_at, ?)", now.UTC()).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return r.Translate(err, "disable webhook endpoint %s", id)
	}
	return r.MustAffect(res, "disable webhook endpoint %s", id)
}

// AddDeliveries inserts with ON CONFLICT DO NOTHING and returns those it
// inserted, in input order.
func (r webhookRepo) AddDeliveries(ctx context.Context, ds []webhooks.Delivery) ([]webhooks.Delivery, error) {
	out := []webhooks.Delivery{}
	if len(ds) == 0 {
		return out, nil
	}
	rows := make([]webhookDeliveryRow, len(ds))
	for i, d := range ds {
		rows[i] = fromWebhookDelivery(d)
	}
	var got []uuid.UUID
	if _, err := r.DB.NewInsert().Model(&rows).On("CONFLICT (id) DO NOTHING").Returning("id").Exec(ctx, &got); err != nil {
		return nil, r.Translate(err, "add webhook deliveries")
	}
	fresh := make(map[uuid.UUID]bool, len(got))
	for _, id := range got {
		fresh[id] = true
	}
	for _, d := range ds {
		if fresh[d.ID] {
			out = append(out, d)
			delete(fresh, d.ID)
		}
	}
	return out, nil
}

// Delivery returns a delivery.
func (r webhookRepo) Delivery(ctx context.Context, id uuid.UUID) (webhooks.Delivery, error) {
	var row webhookDeliveryRow
	if err := r.DB.NewSelect().Model(&row).Where("wd.id = ?", id).Scan(ctx); err != nil {
		return webhooks.Delivery{}, r.Translate(err, "webhook delivery %s", id)
	}
	return row.Core(), nil
}

// AddAttempt records an attempt of an existing delivery.
func (r webhookRepo) AddAttempt(ctx context.Context, a webhooks.Attempt) error {
	n, err := r.DB.NewSelect().Model((*webhookDeliveryRow)(nil)).Where("wd.id = ?", a.DeliveryID).Count(ctx)
	if err != nil {
		return r.Translate(err, "webhook delivery %s", a.DeliveryID)
	}
	if n == 0 {
		return core.NotFound("webhook delivery %s not found", a.DeliveryID)
	}
	row := fromWebhookAttempt(a)
	_, err = r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "attempt %d of webhook delivery %s", a.Number, a.DeliveryID)
}

// Attempts returns a page of an endpoint's attempts, newest first.
func (r webhookRepo) Attempts(ctx context.Context, endpointID uuid.UUID, offset, limit int) ([]webhooks.Attempt, int, error) {
	var rows []webhookAttemptRow
	total, err := r.DB.NewSelect().Model(&rows).Where("wa.endpoint_id = ?", endpointID).
		OrderExpr("wa.at DESC, wa.delivery_id DESC, wa.number DESC").Offset(int64(max(offset, 0))).Limit(int64(max(limit, 0))).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, r.Translate(err, "webhook attempts of %s", endpointID)
	}
	return mapRows(rows, webhookAttemptRow.Core), int(total), nil
}
