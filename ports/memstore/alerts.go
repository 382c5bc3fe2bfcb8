package memstore

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/vendors"
)

type subscribers struct{ *tx }

func (r subscribers) List(_ context.Context, listID uuid.UUID) ([]alerts.Subscriber, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []alerts.Subscriber{}
	for _, id := range r.d.subscribersByList.of(listID) {
		out = append(out, cloneSubscriber(r.d.subscribers[id]))
	}
	slices.SortFunc(out, func(a, b alerts.Subscriber) int { return cmp.Compare(a.Email, b.Email) })
	return out, nil
}

func (r subscribers) Get(_ context.Context, id uuid.UUID) (alerts.Subscriber, error) {
	return lookup(r.tx, r.d.subscribers, id, "subscriber", cloneSubscriber)
}

func (r subscribers) GetByEmail(ctx context.Context, listID uuid.UUID, email string) (alerts.Subscriber, error) {
	if err := r.readable(); err != nil {
		return alerts.Subscriber{}, err
	}
	id, ok := r.d.subscriberByEmail[named{listID, strings.ToLower(email)}]
	if !ok {
		return alerts.Subscriber{}, notFound("subscriber", email)
	}
	return r.Get(ctx, id)
}

func (r subscribers) Save(_ context.Context, s alerts.Subscriber) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.lists, s.ListID, "list"); err != nil {
			return err
		}
		s = cloneSubscriber(s)
		s.Email = strings.ToLower(s.Email)
		s.IsMember = false // filled in by the service on every read
		key := named{s.ListID, s.Email}
		if id, ok := r.d.subscriberByEmail[key]; ok && id != s.ID {
			return conflict("list %s already has subscriber %q", s.ListID, s.Email)
		}
		if old, ok := r.d.subscribers[s.ID]; ok {
			del(r.tx, r.d.subscriberByEmail, named{old.ListID, old.Email})
			r.d.subscribersByList.remove(r.tx, old.ListID, s.ID)
		}
		put(r.tx, r.d.subscribers, s.ID, s)
		put(r.tx, r.d.subscriberByEmail, key, s.ID)
		r.d.subscribersByList.add(r.tx, s.ListID, s.ID)
		return nil
	})
}

func (r subscribers) Delete(_ context.Context, listID uuid.UUID, emails []string) (int, error) {
	n := 0
	err := r.atomic(func() error {
		for _, e := range emails {
			if id, ok := r.d.subscriberByEmail[named{listID, strings.ToLower(e)}]; ok {
				r.deleteSubscriber(id)
				n++
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

func (t *tx) deleteSubscriber(id uuid.UUID) {
	s, ok := t.d.subscribers[id]
	if !ok {
		return
	}
	del(t, t.d.subscriberByEmail, named{s.ListID, s.Email})
	t.d.subscribersByList.remove(t, s.ListID, id)
	del(t, t.d.subscribers, id)
}

func (r subscribers) Recipients(_ context.Context, vendorID uuid.UUID) ([]alerts.Recipient, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []alerts.Recipient{}
	for _, listID := range r.d.entriesByVendor.of(vendorID) {
		if !r.d.entries[pair{listID, vendorID}].alerts {
			continue
		}
		l := r.d.lists[listID]
		for _, sid := range r.d.subscribersByList.of(listID) {
			if s := r.d.subscribers[sid]; s.Status == alerts.SubscriberConfirmed {
				out = append(out, alerts.Recipient{SubscriberID: s.ID, AccountID: l.AccountID,
					ListID: listID, ListName: l.Name, Email: s.Email})
			}
		}
	}
	slices.SortFunc(out, func(a, b alerts.Recipient) int {
		return cmp.Or(cmp.Compare(a.ListName, b.ListName), slices.Compare(a.ListID[:], b.ListID[:]), cmp.Compare(a.Email, b.Email))
	})
	return out, nil
}

type incidents struct{ *tx }

func incidentKeyOf(in vendors.Incident) incidentKey {
	return incidentKey{in.VendorID, in.Source, in.ExternalID}
}

func (r incidents) Create(_ context.Context, in vendors.Incident) error {
	return r.atomic(func() error {
		ok, err := r.insertIncident(in)
		if err == nil && !ok {
			err = conflict("incident %s/%s of vendor %s exists", in.Source, in.ExternalID, in.VendorID)
		}
		return err
	})
}

func (r incidents) Merge(_ context.Context, ins []vendors.Incident) ([]vendors.Incident, error) {
	out := []vendors.Incident{}
	err := r.atomic(func() error {
		for _, in := range ins {
			ok, err := r.insertIncident(in)
			if err != nil {
				return err
			}
			if ok {
				out = append(out, cloneIncident(in))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// insertIncident inserts in unless one with its key exists.
func (t *tx) insertIncident(in vendors.Incident) (bool, error) {
	if err := requireRow(t.d.vendors, in.VendorID, "vendor"); err != nil {
		return false, err
	}
	k := incidentKeyOf(in)
	if _, ok := t.d.incidentByKey[k]; ok {
		return false, nil
	}
	if _, ok := t.d.incidents[in.ID]; ok {
		return false, conflict("incident %s exists", in.ID)
	}
	put(t, t.d.incidents, in.ID, cloneIncident(in))
	put(t, t.d.incidentByKey, k, in.ID)
	t.d.incidentsByVendor.add(t, in.VendorID, in.ID)
	return true, nil
}

func (r incidents) Get(_ context.Context, id uuid.UUID) (vendors.Incident, error) {
	return lookup(r.tx, r.d.incidents, id, "incident", cloneIncident)
}

func (r incidents) ListByVendor(_ context.Context, vendorID uuid.UUID) ([]vendors.Incident, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	return r.newestFirst([]uuid.UUID{vendorID}), nil
}

func (r incidents) Recent(_ context.Context, vendorIDs []uuid.UUID, limit int) ([]vendors.Incident, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := r.newestFirst(vendorIDs)
	return out[:min(len(out), max(limit, 0))], nil
}

func (r incidents) Latest(_ context.Context, vendorIDs []uuid.UUID) ([]vendors.Incident, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []vendors.Incident{}
	seen := map[uuid.UUID]bool{}
	for _, in := range r.newestFirst(vendorIDs) {
		if !seen[in.VendorID] {
			seen[in.VendorID] = true
			out = append(out, in)
		}
	}
	return out, nil
}

// newestFirst returns copies of the incidents of the vendors, newest first.
func (r incidents) newestFirst(vendorIDs []uuid.UUID) []vendors.Incident {
	out := []vendors.Incident{}
	seen := map[uuid.UUID]bool{}
	for _, v := range vendorIDs {
		if seen[v] {
			continue
		}
		seen[v] = true
		for _, id := range r.d.incidentsByVendor.of(v) {
			out = append(out, cloneIncident(r.d.incidents[id]))
		}
	}
	slices.SortFunc(out, func(a, b vendors.Incident) int {
		return cmp.Or(b.PublishedAt.Compare(a.PublishedAt), b.CreatedAt.Compare(a.CreatedAt), slices.Compare(b.ID[:], a.ID[:]))
	})
	return out
}

// deliveryRow is a claimed delivery key; sentAt is zero until it is sent.
type deliveryRow struct{ claimedAt, sentAt time.Time }

type deliveries struct{ *tx }

func (r deliveries) Claim(_ context.Context, key string, now time.Time, lease time.Duration) (mailonce.Delivery, error) {
	var out mailonce.Delivery
	err := r.atomic(func() error {
		row, ok := r.d.deliveries[key]
		switch {
		case ok && !row.sentAt.IsZero():
			out = mailonce.Delivery{State: mailonce.DeliverySent, ClaimedAt: row.claimedAt, SentAt: row.sentAt}
		case ok && row.claimedAt.After(now.Add(-lease)):
			out = mailonce.Delivery{State: mailonce.DeliveryBusy, ClaimedAt: row.claimedAt}
		default:
			put(r.tx, r.d.deliveries, key, deliveryRow{claimedAt: now.UTC()})
			out = mailonce.Delivery{State: mailonce.DeliveryClaimed, ClaimedAt: now.UTC()}
		}
		return nil
	})
	return out, err
}

func (r deliveries) MarkSent(_ context.Context, key string, now time.Time) error {
	return r.atomic(func() error {
		row, ok := r.d.deliveries[key]
		if !ok {
			return notFound("delivery", key)
		}
		if row.sentAt.IsZero() {
			row.sentAt = now.UTC()
			put(r.tx, r.d.deliveries, key, row)
		}
		return nil
	})
}

func (r deliveries) Release(_ context.Context, key string) error {
	return r.atomic(func() error {
		if row, ok := r.d.deliveries[key]; ok && row.sentAt.IsZero() {
			del(r.tx, r.d.deliveries, key)
		}
		return nil
	})
}
