package porttest

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

func subscriberIDs(ss []alerts.Subscriber) []uuid.UUID {
	return idsOf(ss, func(s alerts.Subscriber) uuid.UUID { return s.ID })
}

func recipients(f *fixture, vendorID uuid.UUID) []alerts.Recipient {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) ([]alerts.Recipient, error) {
		return tx.Subscribers().Recipients(ctx, vendorID)
	})
}

func recipientIDs(rs []alerts.Recipient) []uuid.UUID {
	return idsOf(rs, func(r alerts.Recipient) uuid.UUID { return r.SubscriberID })
}

func saveSubscriber(f *fixture, s alerts.Subscriber) error {
	return f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Subscribers().Save(ctx, s) })
}

var subscriberCases = []testCase{
	{"Save then Get, GetByEmail and List by e-mail", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l, other := f.list(a.ID, lists.MasterList), f.list(a.ID, "other")
		cid := f.subscriber(l, "cid@example.com", false)
		ann := f.subscriber(l, "ann@example.com", true)
		f.subscriber(other, "bob@example.com", true)
		got := load(f, func(ctx context.Context, tx stores.Tx) (alerts.Subscriber, error) {
			return tx.Subscribers().Get(ctx, ann.ID)
		})
		equal(t, "account", got.AccountID, a.ID)
		equal(t, "list", got.ListID, l.ID)
		equal(t, "email", got.Email, "ann@example.com")
		equal(t, "status", got.Status, alerts.SubscriberConfirmed)
		if got.ConfirmedAt == nil || !got.ConfirmedAt.Equal(*ann.ConfirmedAt) {
			t.Fatalf("confirmed_at: got %v, want %v", got.ConfirmedAt, ann.ConfirmedAt)
		}
		sameTime(t, "created_at", got.CreatedAt, ann.CreatedAt)
		byEmail := load(f, func(ctx context.Context, tx stores.Tx) (alerts.Subscriber, error) {
			return tx.Subscribers().GetByEmail(ctx, l.ID, "cid@example.com")
		})
		equal(t, "by e-mail", byEmail.ID, cid.ID)
		equal(t, "pending has no confirmed_at", byEmail.ConfirmedAt == nil, true)
		ss := load(f, func(ctx context.Context, tx stores.Tx) ([]alerts.Subscriber, error) {
			return tx.Subscribers().List(ctx, l.ID)
		})
		sameIDs(t, "list", subscriberIDs(ss), []uuid.UUID{ann.ID, cid.ID})
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (alerts.Subscriber, error) {
			return tx.Subscribers().GetByEmail(ctx, other.ID, "ann@example.com")
		})
		wantErr(t, "GetByEmail on another list", err, core.ErrNotFound)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (alerts.Subscriber, error) {
			return tx.Subscribers().Get(ctx, newID())
		})
		wantErr(t, "Get absent", err, core.ErrNotFound)
	}},
	{"Save updates by id", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		s := f.subscriber(l, "ann@example.com", false)
		at := f.tick()
		s.Status, s.ConfirmedAt = alerts.SubscriberConfirmed, &at
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Subscribers().Save(ctx, s) })
		got := load(f, func(ctx context.Context, tx stores.Tx) (alerts.Subscriber, error) {
			return tx.Subscribers().Get(ctx, s.ID)
		})
		equal(t, "status", got.Status, alerts.SubscriberConfirmed)
		ss := load(f, func(ctx context.Context, tx stores.Tx) ([]alerts.Subscriber, error) {
			return tx.Subscribers().List(ctx, l.ID)
		})
		equal(t, "subscribers", len(ss), 1)
	}},
	{"Save refuses a second subscriber with the e-mail on a list only", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l, other := f.list(a.ID, lists.MasterList), f.list(a.ID, "other")
		f.subscriber(l, "ann@example.com", false)
		wantErr(t, "same list and e-mail", saveSubscriber(f, f.newSubscriber(l, "ann@example.com", true)), core.ErrConflict)
		if err := saveSubscriber(f, f.newSubscriber(other, "ann@example.com", true)); err != nil {
			t.Fatalf("same e-mail on another list: %v", err)
		}
	}},
	{"Delete removes by e-mail and counts", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l, other := f.list(a.ID, lists.MasterList), f.list(a.ID, "other")
		f.subscriber(l, "ann@example.com", true)
		bob := f.subscriber(l, "bob@example.com", true)
		f.subscriber(l, "cid@example.com", false)
		otherAnn := f.subscriber(other, "ann@example.com", true)
		var n int
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			n, err = tx.Subscribers().Delete(ctx, l.ID, []string{"ann@example.com", "cid@example.com", "nobody@example.com"})
			return err
		})
		equal(t, "deleted", n, 2)
		ss := load(f, func(ctx context.Context, tx stores.Tx) ([]alerts.Subscriber, error) {
			return tx.Subscribers().List(ctx, l.ID)
		})
		sameIDs(t, "left", subscriberIDs(ss), []uuid.UUID{bob.ID})
		got := load(f, func(ctx context.Context, tx stores.Tx) (alerts.Subscriber, error) {
			return tx.Subscribers().Get(ctx, otherAnn.ID)
		})
		equal(t, "other list keeps its subscriber", got.ID, otherAnn.ID)
	}},
	{"Recipients are confirmed subscribers of lists carrying the vendor with alerts on", func(t *testing.T, f *fixture) {
		a, b := f.org("Acme Org"), f.org("Beta Org")
		la, lquiet, lb, lnone := f.list(a.ID, lists.MasterList), f.list(a.ID, "quiet"), f.list(b.ID, lists.MasterList), f.list(b.ID, "none")
		vs := f.vendors("Acme", "Beta")
		v := vs[0]
		f.onList(la.ID, v)
		f.onList(lquiet.ID, v)
		f.onList(lb.ID, v)
		f.onList(lnone.ID, vs[1])
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().SetAlerts(ctx, lquiet.ID, v.ID, false)
		})
		ann := f.subscriber(la, "ann@example.com", true)
		f.subscriber(la, "pending@example.com", false)
		f.subscriber(lquiet, "quiet@example.com", true)
		bob := f.subscriber(lb, "bob@example.com", true)
		f.subscriber(lnone, "none@example.com", true)
		rs := recipients(f, v.ID)
		sameIDSet(t, "recipients", recipientIDs(rs), []uuid.UUID{ann.ID, bob.ID})
		for _, r := range rs {
			if r.SubscriberID == ann.ID {
				equal(t, "account", r.AccountID, a.ID)
				equal(t, "list", r.ListID, la.ID)
				equal(t, "list name", r.ListName, lists.MasterList)
				equal(t, "email", r.Email, "ann@example.com")
			}
		}
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Lists().RemoveEntries(ctx, lb.ID, []uuid.UUID{v.ID})
		})
		sameIDSet(t, "recipients after removal from a list", recipientIDs(recipients(f, v.ID)), []uuid.UUID{ann.ID})
		equal(t, "recipients of an unlisted vendor", len(recipients(f, f.vendors("Cobalt")[0].ID)), 0)
	}},
}

func createIncident(f *fixture, in vendors.Incident) error {
	return f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Incidents().Create(ctx, in) })
}

func incidentIDs(ins []vendors.Incident) []uuid.UUID {
	return idsOf(ins, func(in vendors.Incident) uuid.UUID { return in.ID })
}

var incidentCases = []testCase{
	{"Create then Get and ListByVendor newest first", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta")
		older, newer := f.newIncident(vs[0].ID, "1"), f.newIncident(vs[0].ID, "2")
		newer.Backfilled = true
		for _, in := range []vendors.Incident{newer, older, f.newIncident(vs[1].ID, "3")} {
			if err := createIncident(f, in); err != nil {
				t.Fatal(err)
			}
		}
		got := load(f, func(ctx context.Context, tx stores.Tx) (vendors.Incident, error) {
			return tx.Incidents().Get(ctx, newer.ID)
		})
		equal(t, "vendor", got.VendorID, vs[0].ID)
		equal(t, "title", got.Title, newer.Title)
		equal(t, "severity", got.Severity, "high")
		equal(t, "status", got.Status, "open")
		equal(t, "source", got.Source, "feed")
		equal(t, "external id", got.ExternalID, "2")
		equal(t, "backfilled", got.Backfilled, true)
		sameStrings(t, "impacted data", got.PotentiallyImpactedData, []string{"email"})
		sameTime(t, "published_at", got.PublishedAt, newer.PublishedAt)
		list := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
			return tx.Incidents().ListByVendor(ctx, vs[0].ID)
		})
		sameIDs(t, "by vendor", incidentIDs(list), []uuid.UUID{newer.ID, older.ID})
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (vendors.Incident, error) {
			return tx.Incidents().Get(ctx, newID())
		})
		wantErr(t, "Get absent", err, core.ErrNotFound)
	}},
	{"Create refuses a second incident with the same vendor, source and external id", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta")
		first := f.newIncident(vs[0].ID, "1")
		if err := createIncident(f, first); err != nil {
			t.Fatal(err)
		}
		wantErr(t, "same key", createIncident(f, f.newIncident(vs[0].ID, "1")), core.ErrConflict)
		for name, in := range map[string]vendors.Incident{
			"other vendor":      f.newIncident(vs[1].ID, "1"),
			"other external id": f.newIncident(vs[0].ID, "2"),
		} {
			if err := createIncident(f, in); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		otherSource := f.newIncident(vs[0].ID, "1")
		otherSource.Source = "manual"
		if err := createIncident(f, otherSource); err != nil {
			t.Fatalf("other source: %v", err)
		}
	}},
	{"Merge inserts only new incidents and returns them", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		old := f.newIncident(v.ID, "1")
		if err := createIncident(f, old); err != nil {
			t.Fatal(err)
		}
		fresh := []vendors.Incident{f.newIncident(v.ID, "2"), f.newIncident(v.ID, "3")}
		var got []vendors.Incident
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			got, err = tx.Incidents().Merge(ctx, []vendors.Incident{f.newIncident(v.ID, "1"), fresh[0], fresh[1]})
			return err
		})
		sameIDSet(t, "inserted", incidentIDs(got), incidentIDs(fresh))
		all := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
			return tx.Incidents().ListByVendor(ctx, v.ID)
		})
		sameIDSet(t, "stored", incidentIDs(all), []uuid.UUID{old.ID, fresh[0].ID, fresh[1].ID})
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			got, err = tx.Incidents().Merge(ctx, fresh)
			return err
		})
		equal(t, "inserted on re-run", len(got), 0)
	}},
	{"Recent and Latest read the newest incidents of several vendors", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta", "Gamma", "Quiet")
		var made []vendors.Incident // oldest first: each newIncident is published a tick later
		for _, x := range []struct {
			v  vendors.Vendor
			id string
		}{{vs[0], "a1"}, {vs[1], "b1"}, {vs[0], "a2"}, {vs[2], "c1"}, {vs[1], "b2"}} {
			in := f.newIncident(x.v.ID, x.id)
			if err := createIncident(f, in); err != nil {
				t.Fatal(err)
			}
			made = append(made, in)
		}
		ids := []uuid.UUID{vs[0].ID, vs[1].ID, vs[3].ID}
		recent := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
			return tx.Incidents().Recent(ctx, ids, 3)
		})
		sameIDs(t, "recent 3", incidentIDs(recent), []uuid.UUID{made[4].ID, made[2].ID, made[1].ID})
		all := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
			return tx.Incidents().Recent(ctx, ids, 100)
		})
		sameIDs(t, "recent all", incidentIDs(all), []uuid.UUID{made[4].ID, made[2].ID, made[1].ID, made[0].ID})
		latest := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
			return tx.Incidents().Latest(ctx, append(ids, vs[2].ID))
		})
		sameIDSet(t, "latest", incidentIDs(latest), []uuid.UUID{made[2].ID, made[4].ID, made[3].ID})
		for _, empty := range []func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error){
			func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
				return tx.Incidents().Recent(ctx, nil, 5)
			},
			func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
				return tx.Incidents().Latest(ctx, nil)
			},
			func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
				return tx.Incidents().Recent(ctx, []uuid.UUID{vs[3].ID}, 5)
			},
		} {
			if got := load(f, empty); got == nil || len(got) != 0 {
				t.Fatalf("want an empty, non-nil answer, got %v", got)
			}
		}
	}},
}

// lease is the delivery lease the suite claims with.
const lease = time.Minute

// claimAt claims key at the given time, in a unit of work of its own.
func claimAt(f *fixture, key string, at time.Time) mailonce.Delivery {
	f.t.Helper()
	var d mailonce.Delivery
	f.write(func(ctx context.Context, tx stores.Tx) (err error) {
		d, err = tx.Deliveries().Claim(ctx, key, at, lease)
		return err
	})
	return d
}

// claimDelivery claims key a second after the last time the fixture used.
func claimDelivery(f *fixture, key string) mailonce.Delivery {
	f.t.Helper()
	return claimAt(f, key, f.tick())
}

func markSent(f *fixture, key string, at time.Time) error {
	return f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Deliveries().MarkSent(ctx, key, at) })
}

func release(f *fixture, key string) {
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Deliveries().Release(ctx, key) })
}

var deliveryCases = []testCase{
	{"a new key is claimed once; a second claim within the lease is busy", func(t *testing.T, f *fixture) {
		first := claimDelivery(f, "alert:1:ann")
		equal(t, "first claim", first.State, mailonce.DeliveryClaimed)
		sameTime(t, "first claim's time", first.ClaimedAt, f.now)
		second := claimDelivery(f, "alert:1:ann")
		equal(t, "second claim", second.State, mailonce.DeliveryBusy)
		sameTime(t, "busy with the first claim's time", second.ClaimedAt, first.ClaimedAt)
		equal(t, "other key", claimDelivery(f, "alert:1:bob").State, mailonce.DeliveryClaimed)
		equal(t, "just inside the lease", claimAt(f, "alert:1:ann", first.ClaimedAt.Add(lease-time.Second)).State, mailonce.DeliveryBusy)
	}},
	{"a claim never marked sent is taken over once the lease is over", func(t *testing.T, f *fixture) {
		first := claimDelivery(f, "alert:1:ann")
		over := first.ClaimedAt.Add(lease)
		took := claimAt(f, "alert:1:ann", over)
		equal(t, "claim at the end of the lease", took.State, mailonce.DeliveryClaimed)
		sameTime(t, "the take-over's time", took.ClaimedAt, over)
		// The take-over is a claim of its own, with a lease of its own.
		again := claimAt(f, "alert:1:ann", over.Add(time.Second))
		equal(t, "claim after the take-over", again.State, mailonce.DeliveryBusy)
		sameTime(t, "busy with the take-over's time", again.ClaimedAt, over)
		equal(t, "claim a lease after the take-over", claimAt(f, "alert:1:ann", over.Add(lease)).State, mailonce.DeliveryClaimed)
	}},
	{"a key marked sent stays sent: no take-over, no release", func(t *testing.T, f *fixture) {
		first := claimDelivery(f, "alert:1:ann")
		sentAt := f.tick()
		if err := markSent(f, "alert:1:ann", sentAt); err != nil {
			t.Fatal(err)
		}
		if err := markSent(f, "alert:1:ann", f.tick()); err != nil {
			t.Fatalf("marking it sent again: %v", err)
		}
		release(f, "alert:1:ann")
		got := claimAt(f, "alert:1:ann", first.ClaimedAt.Add(10*lease))
		equal(t, "claim long after the send", got.State, mailonce.DeliverySent)
		sameTime(t, "sent at the first mark", got.SentAt, sentAt)
		sameTime(t, "claimed at", got.ClaimedAt, first.ClaimedAt)
	}},
	{"Release lets the next claim send at once", func(t *testing.T, f *fixture) {
		claimDelivery(f, "alert:1:ann")
		release(f, "alert:1:ann")
		equal(t, "claim after release", claimDelivery(f, "alert:1:ann").State, mailonce.DeliveryClaimed)
		equal(t, "claim after re-claim", claimDelivery(f, "alert:1:ann").State, mailonce.DeliveryBusy)
		release(f, "alert:1:nobody") // an unknown key is no error
	}},
	{"marking an unknown key sent is not found", func(t *testing.T, f *fixture) {
		wantErr(t, "MarkSent", markSent(f, "alert:1:nobody", f.tick()), core.ErrNotFound)
	}},
	{"a claim in a failed unit of work is forgotten", func(t *testing.T, f *fixture) {
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			if _, err := tx.Deliveries().Claim(ctx, "alert:1:ann", f.now, lease); err != nil {
				return err
			}
			return errBoom
		})
		wantErr(t, "InTx", err, errBoom)
		equal(t, "claim after rollback", claimDelivery(f, "alert:1:ann").State, mailonce.DeliveryClaimed)
	}},
	{"a mark in a failed unit of work is forgotten", func(t *testing.T, f *fixture) {
		first := claimDelivery(f, "alert:1:ann")
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Deliveries().MarkSent(ctx, "alert:1:ann", f.tick()); err != nil {
				return err
			}
			return errBoom
		})
		wantErr(t, "InTx", err, errBoom)
		equal(t, "claim after the lease", claimAt(f, "alert:1:ann", first.ClaimedAt.Add(lease)).State, mailonce.DeliveryClaimed)
	}},
}
