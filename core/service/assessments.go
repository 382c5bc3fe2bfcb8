package service

import (
	"context"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/account"
	"github.com/vetted-dev/vetted/core/directory"
	"github.com/vetted-dev/vetted/core/outbox"
	"github.com/vetted-dev/vetted/core/review"
	"github.com/vetted-dev/vetted/ports"
)

// VendorSel names the vendor of an assessment: one of the three is enough;
// the first given wins in the order vendor_id, vendor_profile_id, vendor_name.
type VendorSel struct {
	VendorID        string
	VendorProfileID string
	VendorName      string
}

func (v VendorSel) empty() bool {
	return strings.TrimSpace(v.VendorID) == "" && strings.TrimSpace(v.VendorProfileID) == "" && strings.TrimSpace(v.VendorName) == ""
}

func resolveVendor(ctx context.Context, tx ports.Tx, sel VendorSel) (directory.Vendor, error) {
	switch {
	case strings.TrimSpace(sel.VendorID) != "":
		id, err := parseID("vendor_id", sel.VendorID)
		if err != nil {
			return directory.Vendor{}, err
		}
		v, err := tx.Vendors().Get(ctx, id)
		if errors.Is(err, core.ErrNotFound) {
			return v, core.NotFound("vendor %s is not in the directory", id)
		}
		return v, err
	case strings.TrimSpace(sel.VendorProfileID) != "":
		id, err := parseID("vendor_profile_id", sel.VendorProfileID)
		if err != nil {
			return directory.Vendor{}, err
		}
		p, err := tx.Profiles().GetByID(ctx, id)
		if errors.Is(err, core.ErrNotFound) {
			return directory.Vendor{}, core.NotFound("vendor profile %s does not exist", id)
		}
		if err != nil {
			return directory.Vendor{}, err
		}
		return tx.Vendors().Get(ctx, p.VendorID)
	case strings.TrimSpace(sel.VendorName) != "":
		return findVendor(ctx, tx, sel.VendorName)
	}
	return directory.Vendor{}, core.Invalid("vendor_id", "one of vendor_id, vendor_profile_id or vendor_name is required")
}

// AssessmentQuery filters assessment reads.
type AssessmentQuery struct {
	VendorID        string
	VendorProfileID string
	AssessmentID    string
	// ReviewStates keeps the assessments in one of these review states
	// (each value may be a comma-separated list); none keeps all.
	ReviewStates []string
	// Sort is one of AssessmentSorts; empty is -updated_at.
	Sort string
}

// Assessments returns the assessments of a list (viewer or above).
func (s *Service) Assessments(ctx context.Context, a Actor, ref string, lr ListRef, q AssessmentQuery) ([]review.Assessment, error) {
	f := ports.AssessmentFilter{}
	states, sort, err := parseAssessmentView(q.ReviewStates, q.Sort)
	if err != nil {
		return nil, err
	}
	for _, x := range []struct {
		field, raw string
		dst        **uuid.UUID
	}{{"vendor-id", q.VendorID, &f.VendorID}, {"vendor-profile-id", q.VendorProfileID, &f.VendorProfileID}, {"assessment-id", q.AssessmentID, &f.ID}} {
		if strings.TrimSpace(x.raw) == "" {
			continue
		}
		id, err := parseID(x.field, x.raw)
		if err != nil {
			return nil, err
		}
		*x.dst = &id
	}
	var out []review.Assessment
	err = s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, l, err := s.listAccess(ctx, tx, a, ref, account.ReadRole, lr, false)
		if err != nil {
			return err
		}
		f.AccountID, f.ListID = acc.Account.ID, &l.ID
		if out, err = tx.Assessments().Find(ctx, f); err != nil {
			return err
		}
		p, _, err := policyOf(ctx, tx, acc.Account.ID)
		schedule(out, p, s.now())
		return err
	})
	if err != nil {
		return nil, err
	}
	return filterAssessments(out, states, sort), nil
}

// UpsertAssessment creates or updates the assessment of a vendor on a list
// (member or above). The vendor is put on the list if it is not there yet.
// Only real changes are saved and audited; created tells whether it is new.
func (s *Service) UpsertAssessment(ctx context.Context, a Actor, ref string, lr ListRef, sel VendorSel, in review.Input) (review.Assessment, bool, error) {
	var (
		out     review.Assessment
		created bool
	)
	err := s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, l, err := s.listAccess(ctx, tx, a, ref, account.WriteRole, lr, false)
		if err != nil {
			return err
		}
		v, err := resolveVendor(ctx, tx, sel)
		if err != nil {
			return err
		}
		// The entry exists and is locked before the assessment is read: a
		// concurrent upsert of the same one waits here, then finds what
		// this one saved and updates it (no 409 for the loser of a race).
		if err := tx.Lists().AddEntries(ctx, l.ID, []uuid.UUID{v.ID}, s.now()); err != nil {
			return err
		}
		if err := tx.Lists().LockEntries(ctx, l.ID, []uuid.UUID{v.ID}); err != nil {
			return err
		}
		before, err := tx.Assessments().ListByVendors(ctx, l.ID, []uuid.UUID{v.ID})
		if err != nil {
			return err
		}
		created = len(before) == 0
		if _, err := s.upsertAssessments(ctx, tx, a, acc.Account.ID, l, []assessmentChange{{vendor: v, input: in}}); err != nil {
			return err
		}
		after, err := tx.Assessments().ListByVendors(ctx, l.ID, []uuid.UUID{v.ID})
		if err != nil {
			return err
		}
		if len(after) != 1 {
			return errors.New("upsert assessment: not stored")
		}
		out = after[0]
		return s.scheduleOne(ctx, tx, &out)
	})
	return out, created, err
}

// DeleteAssessment deletes an assessment named by assessment-id, or by
// vendor-id / vendor-profile-id within a list, with its audit events and
// documents (their files are deleted through the outbox).
func (s *Service) DeleteAssessment(ctx context.Context, a Actor, ref string, lr ListRef, assessmentID string, sel VendorSel) (review.Assessment, error) {
	var out review.Assessment
	err := s.write(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.access(ctx, tx, a, ref, account.WriteRole)
		if err != nil {
			return err
		}
		if out, err = s.findAssessment(ctx, tx, acc.Account.ID, lr, assessmentID, sel); err != nil {
			return err
		}
		if err := s.scheduleOne(ctx, tx, &out); err != nil {
			return err
		}
		docs, err := tx.Documents().ListByAssessment(ctx, out.ID)
		if err != nil {
			return err
		}
		if err := tx.Assessments().Delete(ctx, acc.Account.ID, out.ID); err != nil {
			return err
		}
		var keys []string
		for _, d := range docs {
			keys = append(keys, d.ObjectKey)
		}
		if len(keys) > 0 {
			return s.emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: keys})
		}
		return nil
	})
	return out, err
}

func (s *Service) findAssessment(ctx context.Context, tx ports.Tx, accountID uuid.UUID, lr ListRef, assessmentID string, sel VendorSel) (review.Assessment, error) {
	if strings.TrimSpace(assessmentID) != "" {
		id, err := parseID("assessment-id", assessmentID)
		if err != nil {
			return review.Assessment{}, err
		}
		asm, err := tx.Assessments().Get(ctx, accountID, id)
		if errors.Is(err, core.ErrNotFound) {
			return asm, core.NotFound("assessment %s", id)
		}
		return asm, err
	}
	if sel.empty() {
		return review.Assessment{}, core.Invalid("assessment-id", "assessment-id (or vendor-id / vendor-profile-id) is required")
	}
	f := ports.AssessmentFilter{AccountID: accountID}
	if !lr.empty() {
		l, err := s.resolveList(ctx, tx, accountID, lr, false)
		if err != nil {
			return review.Assessment{}, err
		}
		f.ListID = &l.ID
	}
	v, err := resolveVendor(ctx, tx, sel)
	if err != nil {
		return review.Assessment{}, err
	}
	f.VendorID = &v.ID
	found, err := tx.Assessments().Find(ctx, f)
	if err != nil {
		return review.Assessment{}, err
	}
	switch len(found) {
	case 0:
		return review.Assessment{}, core.NotFound("no assessment of vendor %s", v.Name)
	case 1:
		return found[0], nil
	}
	return review.Assessment{}, core.Invalid("vendor-list-id", "the vendor is assessed on several lists; name the list or use assessment-id")
}

// Audit paging bounds.
const (
	DefaultAuditLimit = 20
	MaxAuditLimit     = 100
)

// AuditPage is one page of an assessment's audit log.
type AuditPage struct {
	Events []review.AuditEvent
	Page   int
	Limit  int
	Total  int
}

// AuditLog returns a page of the approval audit of an assessment, newest
// first. page starts at 1; limit defaults to 20 and may be at most 100.
func (s *Service) AuditLog(ctx context.Context, a Actor, ref, assessmentID string, page, limit int) (AuditPage, error) {
	var errs core.Fields
	if page == 0 {
		page = 1
	}
	if limit == 0 {
		limit = DefaultAuditLimit
	}
	if page < 1 {
		errs.Add("page", "must be 1 or more")
	}
	if limit < 1 || limit > MaxAuditLimit {
		errs.Add("limit", "must be between 1 and %d", MaxAuditLimit)
	}
	if err := errs.Err(); err != nil {
		return AuditPage{}, err
	}
	out := AuditPage{Page: page, Limit: limit}
	err := s.d.Store.View(ctx, func(ctx context.Context, tx ports.Tx) error {
		acc, err := s.access(ctx, tx, a, ref, account.ReadRole)
		if err != nil {
			return err
		}
		asm, err := s.findAssessment(ctx, tx, acc.Account.ID, ListRef{}, assessmentID, VendorSel{})
		if err != nil {
			return err
		}
		out.Events, out.Total, err = tx.Assessments().Events(ctx, asm.ID, (page-1)*limit, limit)
		return err
	})
	return out, err
}
