package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"
	incidentsarea "github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/vendors"
)

// The repositories of the incidents area: the incidents' merge keys and
// search (on the directory's incidents), the state of each source, the
// possible matches and the directory as the matcher reads it.

func (r incidents) WithKeys(_ context.Context, vendorID uuid.UUID, keys []string) ([]vendors.Incident, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []vendors.Incident{}
	for _, id := range r.d.incidentsByVendor.of(vendorID) {
		in := r.d.incidents[id]
		if slices.ContainsFunc(in.Keys, func(k string) bool { return slices.Contains(keys, k) }) {
			out = append(out, cloneIncident(in))
		}
	}
	return out, nil
}

func (r incidents) Update(_ context.Context, in vendors.Incident) error {
	return update(r.tx, r.d.incidents, in.ID, "incident", func(cur *vendors.Incident) {
		cur.Severity, cur.AffectedService = in.Severity, in.AffectedService
		cur.PotentiallyImpactedData = cloneStrings(in.PotentiallyImpactedData)
		cur.Sources, cur.Keys = slices.Clone(in.Sources), cloneStrings(in.Keys)
	})
}

func (r incidents) Search(_ context.Context, q vendors.IncidentQuery) ([]vendors.Incident, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []vendors.Incident{}
	for _, in := range r.newestFirst(q.VendorIDs) {
		if len(out) >= q.Limit {
			break
		}
		if q.After != nil && !olderThan(in, *q.After) {
			continue
		}
		if len(q.Severities) > 0 && !slices.Contains(q.Severities, in.Severity) {
			continue
		}
		if len(q.Sources) > 0 && !slices.ContainsFunc(q.Sources, func(s string) bool { return slices.Contains(in.Keys, "source:"+s) }) {
			continue
		}
		out = append(out, in)
	}
	return out, nil
}

// olderThan reports whether in comes after the cursor in Recent's order.
func olderThan(in vendors.Incident, c vendors.IncidentCursor) bool {
	return cmp.Or(c.PublishedAt.Compare(in.PublishedAt), c.CreatedAt.Compare(in.CreatedAt), slices.Compare(c.ID[:], in.ID[:])) > 0
}

type sourceStates struct{ *tx }

func (r sourceStates) Get(_ context.Context, key string) (incidentsarea.SourceState, error) {
	if err := r.readable(); err != nil {
		return incidentsarea.SourceState{}, err
	}
	s, ok := r.d.sourceStates[key]
	if !ok {
		return s, notFound("source", key)
	}
	return s, nil
}

func (r sourceStates) Save(_ context.Context, s incidentsarea.SourceState) error {
	return r.atomic(func() error {
		put(r.tx, r.d.sourceStates, s.Key, s)
		return nil
	})
}

type possibleRepo struct{ *tx }

func clonePossible(p incidentsarea.PossibleMatch) incidentsarea.PossibleMatch {
	p.Draft = cloneIncident(p.Draft)
	return p
}

func (r possibleRepo) Add(_ context.Context, p incidentsarea.PossibleMatch) (bool, error) {
	added := false
	err := r.atomic(func() error {
		if _, ok := r.d.possibleByKey[p.Key]; ok {
			return nil
		}
		if err := requireRow(r.d.vendors, p.Draft.VendorID, "vendor"); err != nil {
			return err
		}
		if _, ok := r.d.possible[p.ID]; ok {
			return conflict("possible match %s exists", p.ID)
		}
		put(r.tx, r.d.possible, p.ID, clonePossible(p))
		put(r.tx, r.d.possibleByKey, p.Key, p.ID)
		added = true
		return nil
	})
	return added, err
}

func (r possibleRepo) Get(_ context.Context, id uuid.UUID) (incidentsarea.PossibleMatch, error) {
	return lookup(r.tx, r.d.possible, id, "possible match", clonePossible)
}

func (r possibleRepo) List(_ context.Context, status string, limit int) ([]incidentsarea.PossibleMatch, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []incidentsarea.PossibleMatch{}
	for _, p := range r.d.possible {
		if p.Status == status {
			out = append(out, clonePossible(p))
		}
	}
	slices.SortFunc(out, func(a, b incidentsarea.PossibleMatch) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), slices.Compare(b.ID[:], a.ID[:]))
	})
	return out[:min(len(out), max(limit, 0))], nil
}

func (r possibleRepo) Save(_ context.Context, p incidentsarea.PossibleMatch) error {
	return update(r.tx, r.d.possible, p.ID, "possible match", func(cur *incidentsarea.PossibleMatch) {
		cur.Status, cur.DecidedAt, cur.DecidedBy, cur.IncidentID = p.Status, p.DecidedAt, p.DecidedBy, p.IncidentID
	})
}

type candidates struct{ *tx }

func (r candidates) All(_ context.Context) ([]incidentsarea.Candidate, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := make([]incidentsarea.Candidate, 0, len(r.d.vendors))
	for _, v := range r.d.vendors {
		c := incidentsarea.Candidate{ID: v.ID, CanonicalName: v.Name.String(), Aliases: cloneStrings(v.Aliases), Domain: v.Domain, Products: []string{}}
		if p, ok := r.d.profiles[v.ID]; ok {
			c.Aliases = append(c.Aliases, p.Company.Alias...)
			c.LegalName = p.Company.LegalName
			if p.Company.PrimaryProduct != "" {
				c.Products = append(c.Products, p.Company.PrimaryProduct)
			}
		}
		if c.Aliases == nil {
			c.Aliases = []string{}
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b incidentsarea.Candidate) int { return cmp.Compare(a.CanonicalName, b.CanonicalName) })
	return out, nil
}

func (r candidates) Carrying(_ context.Context, vendorID uuid.UUID) ([]incidentsarea.Carrier, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []incidentsarea.Carrier{}
	for _, listID := range r.d.entriesByVendor.of(vendorID) {
		l := r.d.lists[listID]
		c := incidentsarea.Carrier{AccountID: l.AccountID, ListID: l.ID, ListName: l.Name, Products: []string{}}
		for _, pid := range r.d.productsByEntry.of(pair{listID, vendorID}) {
			c.Products = append(c.Products, r.d.products[pid].Name)
		}
		slices.Sort(c.Products)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b incidentsarea.Carrier) int {
		return cmp.Or(slices.Compare(a.AccountID[:], b.AccountID[:]), cmp.Compare(a.ListName, b.ListName))
	})
	return out, nil
}
