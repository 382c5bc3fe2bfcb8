package postgres

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/subscriber"
)

// subscriberRepo matches e-mails with lower(email), the expression of the
// unique index subscribers_list_email_key.
type subscriberRepo struct{ bunrepo.Subscribers }

func (r subscriberRepo) GetByEmail(ctx context.Context, listID uuid.UUID, email string) (subscriber.Subscriber, error) {
	var row dbrow.Subscriber
	err := r.DB.NewSelect().Model(&row).Where("sub.list_id = ? AND lower(sub.email) = ?", listID, strings.ToLower(email)).Scan(ctx)
	if err != nil {
		return subscriber.Subscriber{}, translate(err, "subscriber %s of list %s", email, listID)
	}
	return row.Core(), nil
}

func (r subscriberRepo) Delete(ctx context.Context, listID uuid.UUID, emails []string) (int, error) {
	if len(emails) == 0 {
		return 0, nil
	}
	res, err := r.DB.NewDelete().Model((*dbrow.Subscriber)(nil)).
		Where("list_id = ?", listID).Where("lower(email) IN (?)", bun.In(bunrepo.LowerAll(emails))).Exec(ctx)
	if err != nil {
		return 0, translate(err, "delete subscribers of list %s", listID)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, translate(err, "delete subscribers of list %s", listID)
	}
	return int(n), nil
}
