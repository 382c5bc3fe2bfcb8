package bunrepo

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/webhooks"
)

// Webhooks is webhooks.WebhookRepo; its SQL is the same in both stores.
type Webhooks struct{ Base }

// Create inserts an endpoint.
func (r Webhooks) Create(ctx context.Context, e webhooks.Endpoint) error {
	row := dbrow.FromEndpoint(e)
	_, err := r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "create webhook endpoint %s", e.ID)
}

// Get returns an endpoint of the account.
func (r Webhooks) Get(ctx context.Context, accountID, id uuid.UUID) (webhooks.Endpoint, error) {
	var row dbrow.WebhookEndpoint
	err := r.DB.NewSelect().Model(&row).Where("we.id = ? AND we.account_id = ?", id, accountID).Scan(ctx)
	if err != nil {
		return webhooks.Endpoint{}, r.Translate(err, "webhook endpoint %s", id)
	}
	return row.Core(), nil
}

// List returns the account's endpoints, oldest first.
func (r Webhooks) List(ctx context.Context, accountID uuid.UUID) ([]webhooks.Endpoint, error) {
	var rows []dbrow.WebhookEndpoint
	err := r.DB.NewSelect().Model(&rows).Where("we.account_id = ?", accountID).OrderExpr("we.created_at, we.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "list webhook endpoints of %s", accountID)
	}
	return dbrow.Map(rows, dbrow.WebhookEndpoint.Core), nil
}

// ForVendor returns the endpoints of the accounts with the vendor on a list.
func (r Webhooks) ForVendor(ctx context.Context, vendorID uuid.UUID) ([]webhooks.Endpoint, error) {
	var rows []dbrow.WebhookEndpoint
	err := r.DB.NewSelect().Model(&rows).
		Where("we.account_id IN (SELECT l.account_id FROM list_entries le JOIN lists l ON l.id = le.list_id WHERE le.vendor_id = ?)", vendorID).
		OrderExpr("we.created_at, we.id").Scan(ctx)
	if err != nil {
		return nil, r.Translate(err, "webhook endpoints for vendor %s", vendorID)
	}
	return dbrow.Map(rows, dbrow.WebhookEndpoint.Core), nil
}

// Delete removes an endpoint; its deliveries and attempts go with it by
// ON DELETE CASCADE.
func (r Webhooks) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	res, err := r.DB.NewDelete().Model((*dbrow.WebhookEndpoint)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete webhook endpoint %s", id)
	}
	return r.MustAffect(res, "delete webhook endpoint %s", id)
}

// Disable marks an endpoint disabled, keeping an earlier time.
func (r Webhooks) Disable(ctx context.Context, id uuid.UUID, now time.Time) error {
	res, err := r.DB.NewUpdate().Model((*dbrow.WebhookEndpoint)(nil)).
		Set("disabled_at = COALESCE(disabled_at, ?)", now.UTC()).Where("id = ?", id).Exec(ctx)
	if err != nil {
		return r.Translate(err, "disable webhook endpoint %s", id)
	}
	return r.MustAffect(res, "disable webhook endpoint %s", id)
}

// AddDeliveries inserts with ON CONFLICT DO NOTHING and returns those it
// inserted, in input order.
func (r Webhooks) AddDeliveries(ctx context.Context, ds []webhooks.Delivery) ([]webhooks.Delivery, error) {
	out := []webhooks.Delivery{}
	if len(ds) == 0 {
		return out, nil
	}
	rows := make([]dbrow.WebhookDelivery, len(ds))
	for i, d := range ds {
		rows[i] = dbrow.FromWebhookDelivery(d)
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
func (r Webhooks) Delivery(ctx context.Context, id uuid.UUID) (webhooks.Delivery, error) {
	var row dbrow.WebhookDelivery
	if err := r.DB.NewSelect().Model(&row).Where("wd.id = ?", id).Scan(ctx); err != nil {
		return webhooks.Delivery{}, r.Translate(err, "webhook delivery %s", id)
	}
	return row.Core(), nil
}

// AddAttempt records an attempt of an existing delivery.
func (r Webhooks) AddAttempt(ctx context.Context, a webhooks.Attempt) error {
	n, err := r.DB.NewSelect().Model((*dbrow.WebhookDelivery)(nil)).Where("wd.id = ?", a.DeliveryID).Count(ctx)
	if err != nil {
		return r.Translate(err, "webhook delivery %s", a.DeliveryID)
	}
	if n == 0 {
		return core.NotFound("webhook delivery %s not found", a.DeliveryID)
	}
	row := dbrow.FromWebhookAttempt(a)
	_, err = r.DB.NewInsert().Model(&row).Exec(ctx)
	return r.Translate(err, "attempt %d of webhook delivery %s", a.Number, a.DeliveryID)
}

// Attempts returns a page of an endpoint's attempts, newest first.
func (r Webhooks) Attempts(ctx context.Context, endpointID uuid.UUID, offset, limit int) ([]webhooks.Attempt, int, error) {
	var rows []dbrow.WebhookAttempt
	total, err := r.DB.NewSelect().Model(&rows).Where("wa.endpoint_id = ?", endpointID).
		OrderExpr("wa.at DESC, wa.delivery_id DESC, wa.number DESC").Offset(int64(max(offset, 0))).Limit(int64(max(limit, 0))).ScanAndCount(ctx)
	if err != nil {
		return nil, 0, r.Translate(err, "webhook attempts of %s", endpointID)
	}
	return dbrow.Map(rows, dbrow.WebhookAttempt.Core), int(total), nil
}
