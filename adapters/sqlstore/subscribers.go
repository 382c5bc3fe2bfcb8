package sqlstore

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/alerts"
)

// subscriberRepo is alerts.SubscriberRepo.
type subscriberRepo struct {
	base
	// EmailKey is the expression of the store's unique index on a
	// subscriber e-mail column: lookups compare it with the argument
	// lower-cased in Go, so that they use the index.
	EmailKey func(column string) string
}

// List returns a list's subscribers by e-mail.
func (r subscriberRepo) List(ctx context.Context, listID uuid.UUID) ([]alerts.Subscriber, error) {
	var rows []subscriberRow
	if err := r.DB.NewSelect().Model(&rows).Where("sub.list_id = ?", listID).OrderExpr(r.ByName("sub.email") + ", sub.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "subscribers of list %s", listID)
	}
	return mapRows(rows, subscriberRow.Core), nil
}

// Get returns a subscriber by id.
func (r subscriberRepo) Get(ctx context.Context, id uuid.UUID) (alerts.Subscriber, error) {
	var row subscriberRow
	if err := r.DB.NewSelect().Model(&row).Where("sub.id = ?", id).Scan(ctx); err != nil {
		return alerts.Subscriber{}, r.Translate(err, "subscriber %s", id)
	}
	return row.Core(), nil
}

// Save inserts or updates a subscriber by id.
func (r subscriberRepo) Save(ctx context.Context, s alerts.Subscriber) error {
	row := fromSubscriber(s)
	_, err := r.DB.NewInsert().Model(&row).
		On("CONFLICT (id) DO UPDATE").
		Set("email = EXCLUDED.email, status = EXCLUDED.status, confirmed_at = EXCLUDED.confirmed_at").
		Exec(ctx)
	return r.Translate(err, "save subscriber %s", s.Email)
}

// GetByEmail returns the subscriber of a list with an e-mail, in any case.
func (r subscriberRepo) GetByEmail(ctx context.Context, listID uuid.UUID, email string) (alerts.Subscriber, error) {
	var row subscriberRow
	err := r.DB.NewSelect().Model(&row).Where("sub.list_id = ?", listID).
		Where(r.EmailKey("sub.email")+" = ?", strings.ToLower(email)).Scan(ctx)
	if err != nil {
		return alerts.Subscriber{}, r.Translate(err, "subscriber %s of list %s", email, listID)
	}
	return row.Core(), nil
}

// Delete removes subscribers of a list by e-mail and counts them.
func (r subscriberRepo) Delete(ctx context.Context, listID uuid.UUID, emails []string) (int, error) {
	if len(emails) == 0 {
		return 0, nil
	}
	res, err := r.DB.NewDelete().Model((*subscriberRow)(nil)).
		Where("list_id = ?", listID).Where(r.EmailKey("email")+" IN (?)", bun.List(lowerAll(emails))).Exec(ctx)
	if err != nil {
		return 0, r.Translate(err, "delete subscribers of list %s", listID)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, r.Translate(err, "delete subscribers of list %s", listID)
	}
	return int(n), nil
}

// Recipients returns the confirmed subscribers of every list that carries
// the vendor with alerts enabled.
func (r subscriberRepo) Recipients(ctx context.Context, vendorID uuid.UUID) ([]alerts.Recipient, error) {
	var rows []recipientViewRow
	err := r.DB.NewSelect().
		TableExpr("list_entries AS e").
		ColumnExpr("sub.id AS subscriber_id, sub.account_id, sub.list_id, l.name AS list_name, sub.email").
		Join("JOIN lists AS l ON l.id = e.list_id").
		Join("JOIN subscribers AS sub ON sub.list_id = e.list_id").
		Where("e.vendor_id = ? AND e.alerts_enabled", vendorID).
		Where("sub.status = ?", alerts.SubscriberConfirmed).
		OrderExpr(r.ByName("l.name")+", "+r.ByName("sub.email")+", sub.id").
		Scan(ctx, &rows)
	if err != nil {
		return nil, r.Translate(err, "alert recipients for vendor %s", vendorID)
	}
	return mapRows(rows, recipientViewRow.Core), nil
}
