package memstore

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/webhooks"
)

type webhooksRepo struct{ *tx }

// attemptKey is an attempt's identity: its delivery and number.
type attemptKey struct {
	delivery uuid.UUID
	number   int
}

func cloneEndpoint(e webhooks.Endpoint) webhooks.Endpoint {
	e.Events = slices.Clone(e.Events)
	if e.DisabledAt != nil {
		at := *e.DisabledAt
		e.DisabledAt = &at
	}
	return e
}

func cloneDelivery(d webhooks.Delivery) webhooks.Delivery {
	d.Event.Data.Added = slices.Clone(d.Event.Data.Added)
	d.Event.Data.Removed = slices.Clone(d.Event.Data.Removed)
	d.Event.Data.Reasons = slices.Clone(d.Event.Data.Reasons)
	return d
}

func byCreated(a, b webhooks.Endpoint) int {
	return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), slices.Compare(a.ID[:], b.ID[:]))
}

func (r webhooksRepo) Create(_ context.Context, e webhooks.Endpoint) error {
	return r.atomic(func() error {
		if _, ok := r.d.endpoints[e.ID]; ok {
			return conflict("webhook endpoint %s exists", e.ID)
		}
		put(r.tx, r.d.endpoints, e.ID, cloneEndpoint(e))
		return nil
	})
}

func (r webhooksRepo) Get(_ context.Context, accountID, id uuid.UUID) (webhooks.Endpoint, error) {
	if err := r.readable(); err != nil {
		return webhooks.Endpoint{}, err
	}
	e, ok := r.d.endpoints[id]
	if !ok || e.AccountID != accountID {
		return webhooks.Endpoint{}, notFound("webhook endpoint", id)
	}
	return cloneEndpoint(e), nil
}

func (r webhooksRepo) List(_ context.Context, accountID uuid.UUID) ([]webhooks.Endpoint, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []webhooks.Endpoint{}
	for _, e := range r.d.endpoints {
		if e.AccountID == accountID {
			out = append(out, cloneEndpoint(e))
		}
	}
	slices.SortFunc(out, byCreated)
	return out, nil
}

func (r webhooksRepo) ForVendor(_ context.Context, vendorID uuid.UUID) ([]webhooks.Endpoint, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	carry := map[uuid.UUID]bool{}
	for _, l := range r.d.entriesByVendor.of(vendorID) {
		carry[r.d.lists[l].AccountID] = true
	}
	out := []webhooks.Endpoint{}
	for _, e := range r.d.endpoints {
		if carry[e.AccountID] {
			out = append(out, cloneEndpoint(e))
		}
	}
	slices.SortFunc(out, byCreated)
	return out, nil
}

// deleteEndpoint removes an endpoint with its deliveries and attempts.
func (t *tx) deleteEndpoint(id uuid.UUID) {
	del(t, t.d.endpoints, id)
	for did, d := range t.d.whDelivery {
		if d.EndpointID == id {
			del(t, t.d.whDelivery, did)
		}
	}
	for k, a := range t.d.whAttempts {
		if a.EndpointID == id {
			del(t, t.d.whAttempts, k)
		}
	}
}

func (r webhooksRepo) Delete(_ context.Context, accountID, id uuid.UUID) error {
	return r.atomic(func() error {
		if e, ok := r.d.endpoints[id]; !ok || e.AccountID != accountID {
			return notFound("webhook endpoint", id)
		}
		r.deleteEndpoint(id)
		return nil
	})
}

func (r webhooksRepo) Disable(_ context.Context, id uuid.UUID, now time.Time) error {
	return update(r.tx, r.d.endpoints, id, "webhook endpoint", func(e *webhooks.Endpoint) {
		if e.DisabledAt == nil {
			at := now.UTC()
			e.DisabledAt = &at
		}
	})
}

func (r webhooksRepo) AddDeliveries(_ context.Context, ds []webhooks.Delivery) ([]webhooks.Delivery, error) {
	out := []webhooks.Delivery{}
	err := r.atomic(func() error {
		for _, d := range ds {
			if _, ok := r.d.whDelivery[d.ID]; ok {
				continue
			}
			if _, ok := r.d.endpoints[d.EndpointID]; !ok {
				return notFound("webhook endpoint", d.EndpointID)
			}
			put(r.tx, r.d.whDelivery, d.ID, cloneDelivery(d))
			out = append(out, d)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (r webhooksRepo) Delivery(_ context.Context, id uuid.UUID) (webhooks.Delivery, error) {
	if err := r.readable(); err != nil {
		return webhooks.Delivery{}, err
	}
	d, ok := r.d.whDelivery[id]
	if !ok {
		return webhooks.Delivery{}, notFound("webhook delivery", id)
	}
	return cloneDelivery(d), nil
}

func (r webhooksRepo) AddAttempt(_ context.Context, a webhooks.Attempt) error {
	return r.atomic(func() error {
		if _, ok := r.d.whDelivery[a.DeliveryID]; !ok {
			return notFound("webhook delivery", a.DeliveryID)
		}
		k := attemptKey{a.DeliveryID, a.Number}
		if _, ok := r.d.whAttempts[k]; ok {
			return conflict("attempt %d of webhook delivery %s exists", a.Number, a.DeliveryID)
		}
		put(r.tx, r.d.whAttempts, k, a)
		return nil
	})
}

func (r webhooksRepo) Attempts(_ context.Context, endpointID uuid.UUID, offset, limit int) ([]webhooks.Attempt, int, error) {
	if err := r.readable(); err != nil {
		return nil, 0, err
	}
	all := []webhooks.Attempt{}
	for _, a := range r.d.whAttempts {
		if a.EndpointID == endpointID {
			all = append(all, a)
		}
	}
	slices.SortFunc(all, func(a, b webhooks.Attempt) int {
		return cmp.Or(b.At.Compare(a.At), slices.Compare(b.DeliveryID[:], a.DeliveryID[:]), cmp.Compare(b.Number, a.Number))
	})
	total := len(all)
	lo := min(max(offset, 0), total)
	hi := min(lo+max(limit, 0), total)
	return slices.Clone(all[lo:hi]), total, nil
}
