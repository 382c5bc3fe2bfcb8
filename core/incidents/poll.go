package incidents

import (
	"context"
	"errors"
	"time"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
)

// pollChunk is how many items one unit of work stores: a source of
// thousands of entries (a breach list) is not one long transaction.
const pollChunk = 200

// Poll reads every configured source once (the KindPollIncidents job): each
// through its conditional-GET validators, its items matched to the
// directory, merged into the incidents of their events and, past the
// source's first poll, alerted. A source that fails is logged once,
// counted, kept in its state, and leaves the others working; Poll fails
// only when the directory cannot be read or ctx ends.
func (s *Service) Poll(ctx context.Context) error {
	if len(s.d.Sources) == 0 {
		return nil
	}
	var m *Matcher
	for _, ep := range s.d.Sources {
		if err := ctx.Err(); err != nil {
			return err
		}
		if m == nil {
			var err error
			if m, err = s.currentMatcher(ctx); err != nil {
				return err
			}
		}
		if err := s.pollSource(ctx, m, ep); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.d.Log.Warn("incident source poll failed", "source", ep.String(), "err", err)
		}
	}
	return nil
}

// pollSource reads and stores one source.
func (s *Service) pollSource(ctx context.Context, m *Matcher, ep Endpoint) error {
	key := ep.String()
	var st SourceState
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		st, err = tx.Sources().Get(ctx, key)
		return err
	})
	switch {
	case errors.Is(err, core.ErrNotFound):
		st = SourceState{Key: key}
	case err != nil:
		return err
	}
	batch, rerr := s.d.Reader.Read(ctx, ep, st.Validators)
	st.LastPolledAt = s.d.Now()
	switch {
	case rerr != nil:
		s.d.Metrics.SourceFetched(ep.Kind, FetchError)
		st.LastResult, st.LastError = FetchError, rerr.Error()
		if err := s.saveState(ctx, st); err != nil {
			return errors.Join(rerr, err)
		}
		return rerr
	case batch.NotModified:
		s.d.Metrics.SourceFetched(ep.Kind, FetchNotModified)
		st.LastResult, st.LastError = FetchNotModified, ""
		return s.saveState(ctx, st)
	}
	s.d.Metrics.SourceFetched(ep.Kind, FetchOK)
	items := itemsOf(batch, s.d.Now())
	// The first poll of a source reads its history: what it holds is
	// recorded as backfilled and alerts nobody.
	backfill := !st.Polled
	for start := 0; start < len(items); start += pollChunk {
		chunk := items[start:min(start+pollChunk, len(items))]
		if err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
			for _, it := range chunk {
				if err := s.store(ctx, tx, m, it, backfill); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
	}
	st.Polled, st.Validators, st.LastResult, st.LastError = true, batch.Validators, FetchOK, ""
	return s.saveState(ctx, st)
}

func (s *Service) saveState(ctx context.Context, st SourceState) error {
	return s.d.Write(ctx, func(ctx context.Context, tx Tx) error { return tx.Sources().Save(ctx, st) })
}

// matchedItem is an item with what the matcher made of it.
type matchedItem struct {
	item
	result func(*Matcher) Result
}

// itemsOf makes the items of a batch, each with its rule.
func itemsOf(b Batch, now time.Time) []matchedItem {
	out := make([]matchedItem, 0, b.Len())
	for _, n := range b.News {
		out = append(out, matchedItem{newsItem(n, now), func(m *Matcher) Result { return m.News(n) }})
	}
	for _, e := range b.KEV {
		out = append(out, matchedItem{kevItem(e, now), func(m *Matcher) Result { return m.KEV(e) }})
	}
	for _, br := range b.Breaches {
		out = append(out, matchedItem{breachItem(br, now), func(m *Matcher) Result { return m.Breach(br) }})
	}
	for _, f := range b.Filings {
		out = append(out, matchedItem{filingItem(f, now), func(m *Matcher) Result { return m.Filing(f) }})
	}
	return out
}

// store matches one item and stores what it gives: each matched vendor's
// incident (merged into the incident of the same event when there is one)
// and each near miss as a possible match.
func (s *Service) store(ctx context.Context, tx Tx, m *Matcher, it matchedItem, backfill bool) error {
	r := it.result(m)
	for _, vm := range r.Matches {
		if _, _, err := s.record(ctx, tx, it.item, vm, backfill); err != nil {
			return err
		}
	}
	for _, vm := range r.Possible {
		d := s.draft(it.item, vm, backfill)
		p := PossibleMatch{ID: s.d.IDs.New(), Key: vm.VendorID.String() + "|" + d.Source + "|" + d.ExternalID, VendorName: vm.Vendor,
			Draft: d, Status: PossiblePending, CreatedAt: s.d.Now()}
		if _, err := tx.Possible().Add(ctx, p); err != nil {
			if errors.Is(err, core.ErrNotFound) {
				continue // the vendor left the directory since the matcher was built
			}
			return err
		}
	}
	return nil
}

// draft is the incident an item makes for one vendor, with its evidence.
func (s *Service) draft(it item, vm VendorMatch, backfill bool) vendors.Incident {
	d := it.draft
	d.ID, d.VendorID, d.CreatedAt, d.Backfilled = s.d.IDs.New(), vm.VendorID, s.d.Now(), backfill
	match := vendors.IncidentMatch(vm.Match)
	d.Match = &match
	if vm.AffectedService != "" {
		d.AffectedService = vm.AffectedService
	}
	d.PotentiallyImpactedData = append([]string{}, d.PotentiallyImpactedData...)
	d.Sources = []vendors.IncidentItem{{Source: d.Source, URL: d.URL, PublishedAt: d.PublishedAt}}
	d.Keys = append(append([]string{}, it.keys...), keySource+string(it.source))
	return d
}

// record makes the vendor's incident of an item, or merges the item into
// the incident of its event. It returns the incident and whether it is new;
// a new live incident is announced (alerts and incident.created), a merge
// never is: one event alerts once.
func (s *Service) record(ctx context.Context, tx Tx, it item, vm VendorMatch, backfill bool) (vendors.Incident, bool, error) {
	same, err := tx.Incidents().WithKeys(ctx, vm.VendorID, it.keys)
	if err != nil {
		return vendors.Incident{}, false, err
	}
	var found *vendors.Incident
	for i := range same {
		if sameEvent(same[i], it.keys, it.draft.PublishedAt) && (found == nil || same[i].CreatedAt.Before(found.CreatedAt)) {
			found = &same[i]
		}
	}
	if found != nil {
		if absorb(found, it, vm) {
			if err := tx.Incidents().Update(ctx, *found); err != nil {
				return vendors.Incident{}, false, err
			}
		}
		return *found, false, nil
	}
	in, err := vendors.NewIncident(s.draft(it, vm, backfill))
	if err != nil {
		// An item the source gave without a usable title: nothing a
		// person could act on.
		s.d.Log.Info("incident item skipped", "source", it.source, "url", it.draft.URL, "err", err)
		return vendors.Incident{}, false, nil
	}
	ins, err := tx.Incidents().Merge(ctx, []vendors.Incident{in})
	if errors.Is(err, core.ErrNotFound) {
		return vendors.Incident{}, false, nil // the vendor left the directory since
	}
	if err != nil || len(ins) == 0 {
		return in, false, err // the same (source, external id) is stored: nothing new
	}
	if !in.Backfilled {
		v, err := tx.Vendors().Get(ctx, in.VendorID)
		if err != nil {
			return in, true, err
		}
		if err := s.announce(ctx, tx, v, in); err != nil {
			return in, true, err
		}
	}
	return in, true, nil
}
