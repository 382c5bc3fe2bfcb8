package porttest

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports/stores"
)

func (f *fixture) endpoint(accountID uuid.UUID, events ...domainevent.EventType) webhooks.Endpoint {
	f.t.Helper()
	e := webhooks.Endpoint{ID: newID(), AccountID: accountID, URL: "https://hooks.example.com/" + newID().String(), Description: "ops",
		Events: events, Secret: "whsec_c2VjcmV0", CreatedAt: f.tick(), CreatedBy: "ann@example.com"}
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Webhooks().Create(ctx, e) })
	return e
}

func (f *fixture) delivery(e webhooks.Endpoint) webhooks.Delivery {
	f.t.Helper()
	ev := domainevent.Event{ID: newID(), Type: domainevent.ListVendorsChanged, AccountID: e.AccountID, OccurredAt: f.tick(),
		Data: domainevent.Data{ListID: newID(), ListName: "Main", Added: []uuid.UUID{newID()}, Reasons: []string{"r"}}}
	d := webhooks.Delivery{ID: webhooks.DeliveryID(ev.ID, e.ID), EndpointID: e.ID, AccountID: e.AccountID, Event: ev, CreatedAt: f.tick()}
	f.write(func(ctx context.Context, tx stores.Tx) error {
		_, err := tx.Webhooks().AddDeliveries(ctx, []webhooks.Delivery{d})
		return err
	})
	return d
}

func endpointIDs(es []webhooks.Endpoint) []uuid.UUID {
	return idsOf(es, func(e webhooks.Endpoint) uuid.UUID { return e.ID })
}

// webhookCases check webhooks.WebhookRepo (issue 23 part 3).
var webhookCases = []testCase{
	{"endpoints are per account, read back whole, oldest first, and deleted with their account", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme"), f.org("Beta")
		e1 := f.endpoint(a.ID, domainevent.IncidentCreated, domainevent.ReviewOverdue)
		e2 := f.endpoint(a.ID, domainevent.Ping)
		eb := f.endpoint(b.ID, domainevent.IncidentCreated)
		got := load(f, func(ctx context.Context, tx stores.Tx) (webhooks.Endpoint, error) {
			return tx.Webhooks().Get(ctx, a.ID, e1.ID)
		})
		equal(t, "url", got.URL, e1.URL)
		equal(t, "secret", got.Secret, e1.Secret)
		equal(t, "description", got.Description, "ops")
		equal(t, "created by", got.CreatedBy, "ann@example.com")
		sameStrings(t, "events", got.Events, e1.Events)
		sameTime(t, "created at", got.CreatedAt, e1.CreatedAt)
		equal(t, "enabled", got.DisabledAt == nil, true)
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (webhooks.Endpoint, error) {
			return tx.Webhooks().Get(ctx, b.ID, e1.ID)
		})
		wantErr(t, "another account's endpoint", err, core.ErrNotFound)
		list := load(f, func(ctx context.Context, tx stores.Tx) ([]webhooks.Endpoint, error) {
			return tx.Webhooks().List(ctx, a.ID)
		})
		sameIDs(t, "list", endpointIDs(list), []uuid.UUID{e1.ID, e2.ID})
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Webhooks().Delete(ctx, b.ID, e1.ID) })
		wantErr(t, "delete from another account", err, core.ErrNotFound)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Accounts().Delete(ctx, a.ID) })
		list = load(f, func(ctx context.Context, tx stores.Tx) ([]webhooks.Endpoint, error) {
			return tx.Webhooks().List(ctx, a.ID)
		})
		equal(t, "after account delete", len(list), 0)
		list = load(f, func(ctx context.Context, tx stores.Tx) ([]webhooks.Endpoint, error) {
			return tx.Webhooks().List(ctx, b.ID)
		})
		sameIDs(t, "other account kept", endpointIDs(list), []uuid.UUID{eb.ID})
	}},
	{"ForVendor finds the endpoints of accounts carrying the vendor; Disable keeps the first time", func(t *testing.T, f *fixture) {
		a, b, c := f.org("Acme"), f.org("Beta"), f.org("Gamma")
		v := f.newVendor("Zeta", "https://zeta.example")
		v = f.ensure(v)[0]
		f.onList(f.list(a.ID, "A").ID, v)
		f.onList(f.list(b.ID, "B1").ID, v)
		f.onList(f.list(b.ID, "B2").ID, v)
		ea, eb := f.endpoint(a.ID, domainevent.IncidentCreated), f.endpoint(b.ID, domainevent.RatingChanged)
		f.endpoint(c.ID, domainevent.IncidentCreated)
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]webhooks.Endpoint, error) {
			return tx.Webhooks().ForVendor(ctx, v.ID)
		})
		sameIDs(t, "for vendor", endpointIDs(got), []uuid.UUID{ea.ID, eb.ID})
		first := f.tick()
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Webhooks().Disable(ctx, ea.ID, first) })
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Webhooks().Disable(ctx, ea.ID, f.tick()) })
		e := load(f, func(ctx context.Context, tx stores.Tx) (webhooks.Endpoint, error) {
			return tx.Webhooks().Get(ctx, a.ID, ea.ID)
		})
		if e.DisabledAt == nil {
			t.Fatal("not disabled")
		}
		sameTime(t, "disabled at", *e.DisabledAt, first)
		equal(t, "wants nothing once disabled", e.Wants(domainevent.IncidentCreated), false)
		err := f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Webhooks().Disable(ctx, newID(), first) })
		wantErr(t, "disable unknown", err, core.ErrNotFound)
	}},
	{"AddDeliveries inserts each id once; attempts page newest first and go with their endpoint", func(t *testing.T, f *fixture) {
		a := f.org("Acme")
		e := f.endpoint(a.ID, domainevent.ListVendorsChanged)
		d := f.delivery(e)
		var fresh []webhooks.Delivery
		d2 := d
		d2.ID = newID()
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			fresh, err = tx.Webhooks().AddDeliveries(ctx, []webhooks.Delivery{d, d2, d2})
			return err
		})
		sameIDs(t, "fresh", idsOf(fresh, func(d webhooks.Delivery) uuid.UUID { return d.ID }), []uuid.UUID{d2.ID})
		got := load(f, func(ctx context.Context, tx stores.Tx) (webhooks.Delivery, error) {
			return tx.Webhooks().Delivery(ctx, d.ID)
		})
		equal(t, "event id", got.Event.ID, d.Event.ID)
		equal(t, "event type", got.Event.Type, domainevent.ListVendorsChanged)
		equal(t, "list name", got.Event.Data.ListName, "Main")
		sameIDs(t, "added", got.Event.Data.Added, d.Event.Data.Added)
		sameTime(t, "occurred", got.Event.OccurredAt, d.Event.OccurredAt)
		equal(t, "endpoint", got.EndpointID, e.ID)
		at := f.tick()
		for n := 1; n <= 3; n++ {
			a := webhooks.Attempt{DeliveryID: d.ID, EndpointID: e.ID, EventType: d.Event.Type, EventID: d.Event.ID, Number: n,
				At: at.Add(time.Duration(n) * time.Minute), StatusCode: 500, Duration: 1500 * time.Microsecond, Error: "500"}
			if n == 3 {
				a.StatusCode, a.Error = 204, ""
			} else {
				a.NextRetryAt = a.At.Add(5 * time.Second)
			}
			f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Webhooks().AddAttempt(ctx, a) })
		}
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			return tx.Webhooks().AddAttempt(ctx, webhooks.Attempt{DeliveryID: d.ID, EndpointID: e.ID, Number: 2, At: at})
		})
		wantErr(t, "attempt twice", err, core.ErrConflict)
		err = f.try(func(ctx context.Context, tx stores.Tx) error {
			return tx.Webhooks().AddAttempt(ctx, webhooks.Attempt{DeliveryID: newID(), EndpointID: e.ID, Number: 1, At: at})
		})
		wantErr(t, "attempt of no delivery", err, core.ErrNotFound)
		type page struct {
			as    []webhooks.Attempt
			total int
		}
		p := load(f, func(ctx context.Context, tx stores.Tx) (page, error) {
			as, n, err := tx.Webhooks().Attempts(ctx, e.ID, 0, 2)
			return page{as, n}, err
		})
		equal(t, "total", p.total, 3)
		equal(t, "page size", len(p.as), 2)
		equal(t, "newest first", p.as[0].Number, 3)
		equal(t, "status", p.as[0].StatusCode, 204)
		equal(t, "ok", p.as[0].OK(), true)
		equal(t, "no next retry", p.as[0].NextRetryAt.IsZero(), true)
		equal(t, "second", p.as[1].Number, 2)
		equal(t, "error", p.as[1].Error, "500")
		equal(t, "duration", p.as[1].Duration, 1500*time.Microsecond)
		sameTime(t, "next retry", p.as[1].NextRetryAt, p.as[1].At.Add(5*time.Second))
		p = load(f, func(ctx context.Context, tx stores.Tx) (page, error) {
			as, n, err := tx.Webhooks().Attempts(ctx, e.ID, 2, 2)
			return page{as, n}, err
		})
		equal(t, "last page", len(p.as), 1)
		equal(t, "oldest", p.as[0].Number, 1)
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Webhooks().Delete(ctx, a.ID, e.ID) })
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (webhooks.Delivery, error) {
			return tx.Webhooks().Delivery(ctx, d.ID)
		})
		wantErr(t, "delivery gone with endpoint", err, core.ErrNotFound)
		p = load(f, func(ctx context.Context, tx stores.Tx) (page, error) {
			as, n, err := tx.Webhooks().Attempts(ctx, e.ID, 0, 10)
			return page{as, n}, err
		})
		equal(t, "attempts gone", p.total, 0)
	}},
	{"a message due later is not claimed before its time", func(t *testing.T, f *fixture) {
		m := outbox.New(newID(), outbox.KindWebhookAttempt, outbox.WebhookAttempt{DeliveryID: newID(), Number: 2}, f.tick())
		m.DueAt = m.CreatedAt.Add(time.Hour)
		addMessages(f, m)
		equal(t, "not yet", len(claimOutbox(f, 10, m.CreatedAt.Add(time.Minute))), 0)
		got := claimOutbox(f, 10, m.DueAt)
		sameIDs(t, "due", messageIDs(got), []uuid.UUID{m.ID})
		p, ok := got[0].Payload.(outbox.WebhookAttempt)
		equal(t, "payload", ok && p.Number == 2, true)
	}},
}
