package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
)

type assessmentsRepo struct{ *tx }

func (r assessmentsRepo) Get(_ context.Context, accountID, id uuid.UUID) (assessments.Assessment, error) {
	if err := r.readable(); err != nil {
		return assessments.Assessment{}, err
	}
	a, ok := r.d.assessments[id]
	if !ok || a.AccountID != accountID {
		return assessments.Assessment{}, notFound("assessment", id)
	}
	return cloneAssessment(a), nil
}

func (r assessmentsRepo) ListByVendors(_ context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]assessments.Assessment, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []assessments.Assessment{}
	seen := map[uuid.UUID]bool{}
	for _, vid := range vendorIDs {
		if id, ok := r.d.assessmentByPair[pair{listID, vid}]; ok && !seen[id] {
			seen[id] = true
			out = append(out, cloneAssessment(r.d.assessments[id]))
		}
	}
	return out, nil
}

func (r assessmentsRepo) Find(_ context.Context, f assessments.AssessmentFilter) ([]assessments.Assessment, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	ids := r.d.assessmentsByAccount.of(f.AccountID)
	if f.ListID != nil {
		ids = r.d.assessmentsByList.of(*f.ListID)
	}
	match := func(want *uuid.UUID, got uuid.UUID) bool { return want == nil || *want == got }
	out := []assessments.Assessment{}
	for _, id := range ids {
		a := r.d.assessments[id]
		if a.AccountID != f.AccountID || !match(f.ListID, a.ListID) || !match(f.VendorID, a.VendorID) || !match(f.ID, a.ID) {
			continue
		}
		if f.VendorProfileID != nil && (a.VendorProfileID == nil || *a.VendorProfileID != *f.VendorProfileID) {
			continue
		}
		out = append(out, cloneAssessment(a))
	}
	slices.SortFunc(out, func(a, b assessments.Assessment) int {
		return cmp.Or(b.UpdatedAt.Compare(a.UpdatedAt), slices.Compare(b.ID[:], a.ID[:]))
	})
	return out, nil
}

func (r assessmentsRepo) Timings(ctx context.Context, f assessments.AssessmentFilter) ([]assessments.Timing, error) {
	as, err := r.Find(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]assessments.Timing, 0, len(as))
	for _, a := range as {
		out = append(out, assessments.TimingOf(a))
	}
	return out, nil
}

func (r assessmentsRepo) Save(_ context.Context, as []assessments.Assessment) error {
	return r.atomic(func() error {
		for _, a := range as {
			if err := requireRow(r.d.lists, a.ListID, "list"); err != nil {
				return err
			}
			k := pair{a.ListID, a.VendorID}
			if id, ok := r.d.assessmentByPair[k]; ok && id != a.ID {
				return conflict("list %s already has an assessment of vendor %s", a.ListID, a.VendorID)
			}
			if old, ok := r.d.assessments[a.ID]; ok {
				r.unindexAssessment(old)
			}
			put(r.tx, r.d.assessments, a.ID, cloneAssessment(a))
			put(r.tx, r.d.assessmentByPair, k, a.ID)
			r.d.assessmentsByList.add(r.tx, a.ListID, a.ID)
			r.d.assessmentsByAccount.add(r.tx, a.AccountID, a.ID)
		}
		return nil
	})
}

func (t *tx) unindexAssessment(a assessments.Assessment) {
	del(t, t.d.assessmentByPair, pair{a.ListID, a.VendorID})
	t.d.assessmentsByList.remove(t, a.ListID, a.ID)
	t.d.assessmentsByAccount.remove(t, a.AccountID, a.ID)
}

func (r assessmentsRepo) Delete(_ context.Context, accountID, id uuid.UUID) error {
	return r.atomic(func() error {
		if a, ok := r.d.assessments[id]; !ok || a.AccountID != accountID {
			return notFound("assessment", id)
		}
		r.deleteAssessment(id)
		return nil
	})
}

// deleteAssessment removes an assessment with its audit events and documents.
func (t *tx) deleteAssessment(id uuid.UUID) {
	a, ok := t.d.assessments[id]
	if !ok {
		return
	}
	for _, e := range t.d.eventsByAssessment.of(id) {
		del(t, t.d.events, e)
		t.d.eventsByAssessment.remove(t, id, e)
	}
	for _, d := range t.d.documentsByAssessment.of(id) {
		t.deleteDocument(d)
	}
	t.unindexAssessment(a)
	del(t, t.d.assessments, id)
}

func (r assessmentsRepo) AppendEvents(_ context.Context, es []assessments.AuditEvent) error {
	return r.atomic(func() error {
		for _, e := range es {
			if err := requireRow(r.d.assessments, e.AssessmentID, "assessment"); err != nil {
				return err
			}
			if _, ok := r.d.events[e.ID]; ok {
				return conflict("audit event %s exists", e.ID)
			}
			put(r.tx, r.d.events, e.ID, cloneEvent(e))
			r.d.eventsByAssessment.add(r.tx, e.AssessmentID, e.ID)
		}
		return nil
	})
}

func (r assessmentsRepo) Events(_ context.Context, assessmentID uuid.UUID, offset, limit int) ([]assessments.AuditEvent, int, error) {
	if err := r.readable(); err != nil {
		return nil, 0, err
	}
	all := make([]assessments.AuditEvent, 0, len(r.d.eventsByAssessment[assessmentID]))
	for _, id := range r.d.eventsByAssessment.of(assessmentID) {
		all = append(all, r.d.events[id])
	}
	slices.SortFunc(all, func(a, b assessments.AuditEvent) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), slices.Compare(b.ID[:], a.ID[:]))
	})
	page := []assessments.AuditEvent{}
	for i := max(offset, 0); i < len(all) && (limit <= 0 || len(page) < limit); i++ {
		page = append(page, cloneEvent(all[i]))
	}
	return page, len(all), nil
}

type documents struct{ *tx }

func (r documents) Create(_ context.Context, d assessments.Document) error {
	return r.atomic(func() error {
		if err := requireRow(r.d.assessments, d.AssessmentID, "assessment"); err != nil {
			return err
		}
		if _, ok := r.d.documents[d.ID]; ok {
			return conflict("document %s exists", d.ID)
		}
		put(r.tx, r.d.documents, d.ID, d)
		r.d.documentsByAssessment.add(r.tx, d.AssessmentID, d.ID)
		r.d.documentsByAccount.add(r.tx, d.AccountID, d.ID)
		return nil
	})
}

func (r documents) Get(_ context.Context, accountID, id uuid.UUID) (assessments.Document, error) {
	if err := r.readable(); err != nil {
		return assessments.Document{}, err
	}
	d, ok := r.d.documents[id]
	if !ok || d.AccountID != accountID {
		return assessments.Document{}, notFound("document", id)
	}
	return d, nil
}

func (r documents) ListByAssessment(_ context.Context, assessmentID uuid.UUID) ([]assessments.Document, error) {
	return r.listBy(r.d.documentsByAssessment, assessmentID)
}

func (r documents) ListByAccount(_ context.Context, accountID uuid.UUID) ([]assessments.Document, error) {
	return r.listBy(r.d.documentsByAccount, accountID)
}

// listBy returns the documents under a parent, oldest first.
func (r documents) listBy(ix index[uuid.UUID, uuid.UUID], parent uuid.UUID) ([]assessments.Document, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []assessments.Document{}
	for _, id := range ix.of(parent) {
		out = append(out, r.d.documents[id])
	}
	slices.SortFunc(out, func(a, b assessments.Document) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), slices.Compare(a.ID[:], b.ID[:]))
	})
	return out, nil
}

func (r documents) Update(_ context.Context, d assessments.Document) error {
	return update(r.tx, r.d.documents, d.ID, "document", func(cur *assessments.Document) {
		cur.Status, cur.SizeBytes, cur.SHA256 = d.Status, d.SizeBytes, d.SHA256
	})
}

func (r documents) Delete(_ context.Context, accountID, id uuid.UUID) error {
	return r.atomic(func() error {
		if d, ok := r.d.documents[id]; !ok || d.AccountID != accountID {
			return notFound("document", id)
		}
		r.deleteDocument(id)
		return nil
	})
}

func (t *tx) deleteDocument(id uuid.UUID) {
	d, ok := t.d.documents[id]
	if !ok {
		return
	}
	t.d.documentsByAssessment.remove(t, d.AssessmentID, id)
	t.d.documentsByAccount.remove(t, d.AccountID, id)
	del(t, t.d.documents, id)
}
