package assessments

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
)

// Deps are the ports the assessment use cases need.
type Deps struct {
	uow.Unit[Tx]
	Blobs  ports.BlobStore
	Mail   mailonce.Mail[Tx]
	Signer *signedlink.Signer
	// Lists is the lists area (lists.Service), which the CSV import adds
	// vendors and enrichment through.
	Lists ListWriter
	// PublicURL is the base URL for links in mail and feeds (no trailing slash).
	PublicURL string
	// Log receives operational messages; nil means slog.Default().
	Log *slog.Logger
}

// ListWriter is what the CSV import needs of the lists area: the vendors a
// batch names, the change it announces and the enrichment it queues, in the
// import's unit of work.
type ListWriter interface {
	EnsureVendors(ctx context.Context, tx lists.Tx, refs []vendors.VendorRef) ([]vendors.Vendor, error)
	VendorsChanged(ctx context.Context, tx lists.Tx, l lists.List, added, removed []uuid.UUID) error
	QueueEnrichment(ctx context.Context, tx lists.Tx, a accounts.Actor, accountID uuid.UUID, vs []vendors.Vendor) (lists.QuotaReport, error)
}

// Service implements the assessment use cases.
type Service struct{ d Deps }

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	missing := d.Missing()
	if d.Blobs == nil {
		missing = append(missing, "Blobs")
	}
	if d.Mail.Mailer == nil {
		missing = append(missing, "Mailer")
	}
	if d.Signer == nil {
		missing = append(missing, "Signer")
	}
	if d.Lists == nil {
		missing = append(missing, "Lists")
	}
	if len(missing) > 0 {
		return nil, errors.New("assessments: missing dependencies: " + strings.Join(missing, ", "))
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{d: d}, nil
}

// VendorSel names the vendor of an assessment: one of the three is enough;
// the first given wins in the order vendor_id, vendor_profile_id, vendor_name.
// The zero VendorSel names none.
type VendorSel struct {
	VendorID        uuid.UUID
	VendorProfileID uuid.UUID
	VendorName      *vendors.Ref
}

// ParseVendorSel reads the three selectors; only the one that wins is read.
func ParseVendorSel(vendorID, vendorProfileID, vendorName string) (VendorSel, error) {
	switch {
	case strings.TrimSpace(vendorID) != "":
		id, err := accounts.ParseID("VendorSel.VendorID", vendorID)
		return VendorSel{VendorID: id}, err
	case strings.TrimSpace(vendorProfileID) != "":
		id, err := accounts.ParseID("VendorSel.VendorProfileID", vendorProfileID)
		return VendorSel{VendorProfileID: id}, err
	case strings.TrimSpace(vendorName) != "":
		ref, err := vendors.ParseRef(vendorName)
		if err != nil {
			return VendorSel{}, err
		}
		return VendorSel{VendorName: &ref}, nil
	}
	return VendorSel{}, nil
}

// Empty reports whether v names no vendor.
func (v VendorSel) Empty() bool {
	return v.VendorID == uuid.Nil && v.VendorProfileID == uuid.Nil && v.VendorName == nil
}

// ParseAssessmentID reads an assessment-id, which routes that name one
// assessment require.
func ParseAssessmentID(raw string) (uuid.UUID, error) {
	if strings.TrimSpace(raw) == "" {
		return uuid.Nil, errNoAssessment
	}
	return accounts.ParseID("AssessmentID", raw)
}

var errNoAssessment = core.Invalid("AssessmentID", "assessment-id (or vendor-id / vendor-profile-id) is required")

func resolveVendor(ctx context.Context, tx Tx, sel VendorSel) (vendors.Vendor, error) {
	switch {
	case sel.VendorID != uuid.Nil:
		id := sel.VendorID
		v, err := tx.Vendors().Get(ctx, id)
		if errors.Is(err, core.ErrNotFound) {
			return v, core.NotFound("vendor %s is not in the directory", id)
		}
		return v, err
	case sel.VendorProfileID != uuid.Nil:
		id := sel.VendorProfileID
		p, err := tx.Profiles().GetByID(ctx, id)
		if errors.Is(err, core.ErrNotFound) {
			return vendors.Vendor{}, core.NotFound("vendor profile %s does not exist", id)
		}
		if err != nil {
			return vendors.Vendor{}, err
		}
		return tx.Vendors().Get(ctx, p.VendorID)
	case sel.VendorName != nil:
		return vendors.Resolve(ctx, tx, *sel.VendorName)
	}
	return vendors.Vendor{}, core.Invalid("VendorSel", "one of vendor_id, vendor_profile_id or vendor_name is required")
}

// AssessmentQuery filters assessment reads.
type AssessmentQuery struct {
	VendorID        *uuid.UUID
	VendorProfileID *uuid.UUID
	AssessmentID    *uuid.UUID
	// ReviewStates keeps the assessments in one of these review states
	// (each value may be a comma-separated list); none keeps all.
	ReviewStates []string
	// Sort is one of AssessmentSorts; empty is -updated_at.
	Sort string
}

// Assessments returns the assessments of a list (viewer or above).
func (s *Service) Assessments(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, q AssessmentQuery) ([]Assessment, error) {
	f := AssessmentFilter{VendorID: q.VendorID, VendorProfileID: q.VendorProfileID, ID: q.AssessmentID}
	states, sort, err := parseAssessmentView(q.ReviewStates, q.Sort)
	if err != nil {
		return nil, err
	}
	var out []Assessment
	err = s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, l, err := lists.AccountList(ctx, tx, a, ref, accounts.ReadRole, lr, false)
		if err != nil {
			return err
		}
		f.AccountID, f.ListID = acc.Account.ID, &l.ID
		if out, err = tx.Assessments().Find(ctx, f); err != nil {
			return err
		}
		return s.Schedule(ctx, tx, acc.Account.ID, out)
	})
	if err != nil {
		return nil, err
	}
	return filterAssessments(out, states, sort), nil
}

// UpsertAssessment creates or updates the assessment of a vendor on a list
// (member or above). The vendor is put on the list if it is not there yet.
// Only real changes are saved and audited; created tells whether it is new.
func (s *Service) UpsertAssessment(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, sel VendorSel, in Input) (Assessment, bool, error) {
	var (
		out     Assessment
		created bool
	)
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, l, err := lists.AccountList(ctx, tx, a, ref, accounts.WriteRole, lr, false)
		if err != nil {
			return err
		}
		v, err := resolveVendor(ctx, tx, sel)
		if err != nil {
			return err
		}
		// The entry exists, and upsert locks it before it reads the
		// assessment: a concurrent upsert of the same one waits there, then
		// finds what this one saved and updates it (no 409 for the loser of
		// a race).
		if err := tx.Lists().AddEntries(ctx, l.ID, []uuid.UUID{v.ID}, s.d.Now()); err != nil {
			return err
		}
		saved, before, err := s.upsert(ctx, tx, a, acc.Account.ID, l, []Request{{Vendor: v, Input: in}})
		if err != nil {
			return err
		}
		created = len(before) == 0
		// The answer is the row upsert saved, or, when the input changed
		// nothing, the row it read: never read back.
		switch {
		case len(saved) == 1:
			out = saved[0]
		case len(before) == 1:
			out = before[0]
		default:
			return errors.New("upsert assessment: nothing saved or read")
		}
		return s.scheduleOne(ctx, tx, &out)
	})
	return out, created, err
}

// DeleteAssessment deletes an assessment named by assessment-id, or by
// vendor-id / vendor-profile-id within a list, with its audit events and
// documents (their files are deleted through the outbox).
func (s *Service) DeleteAssessment(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, assessmentID uuid.UUID, sel VendorSel) (Assessment, error) {
	var out Assessment
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.WriteRole)
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
			return s.d.Emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: keys})
		}
		return nil
	})
	return out, err
}

// readableAssessment finds an assessment by id in an account the actor may
// read (viewer or above): the audit log and the documents read through it.
func (s *Service) readableAssessment(ctx context.Context, tx Tx, a accounts.Actor, ref accounts.AccountRef, assessmentID uuid.UUID) (Assessment, error) {
	acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
	if err != nil {
		return Assessment{}, err
	}
	return s.findAssessment(ctx, tx, acc.Account.ID, lists.ListRef{}, assessmentID, VendorSel{})
}

func (s *Service) findAssessment(ctx context.Context, tx Tx, accountID uuid.UUID, lr lists.ListRef, assessmentID uuid.UUID, sel VendorSel) (Assessment, error) {
	if assessmentID != uuid.Nil {
		id := assessmentID
		asm, err := tx.Assessments().Get(ctx, accountID, id)
		if errors.Is(err, core.ErrNotFound) {
			return asm, core.NotFound("assessment %s", id)
		}
		return asm, err
	}
	if sel.Empty() {
		return Assessment{}, errNoAssessment
	}
	f := AssessmentFilter{AccountID: accountID}
	if !lr.Empty() {
		l, err := lists.Resolve(ctx, tx, accountID, lr, false)
		if err != nil {
			return Assessment{}, err
		}
		f.ListID = &l.ID
	}
	v, err := resolveVendor(ctx, tx, sel)
	if err != nil {
		return Assessment{}, err
	}
	f.VendorID = &v.ID
	found, err := tx.Assessments().Find(ctx, f)
	if err != nil {
		return Assessment{}, err
	}
	switch len(found) {
	case 0:
		return Assessment{}, core.NotFound("no assessment of vendor %s", v.Name)
	case 1:
		return found[0], nil
	}
	return Assessment{}, core.Invalid("ListRef", "the vendor is assessed on several lists; name the list or use assessment-id")
}

// Audit paging bounds.
const (
	DefaultAuditLimit = 20
	MaxAuditLimit     = 100
)

// AuditPage is one page of an assessment's audit log.
type AuditPage struct {
	Events []AuditEvent
	Page   int
	Limit  int
	Total  int
}

// AuditLog returns a page of the approval audit of an assessment, newest
// first. page starts at 1; limit defaults to 20 and may be at most 100.
func (s *Service) AuditLog(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, assessmentID uuid.UUID, page, limit int) (AuditPage, error) {
	var errs core.Fields
	if page == 0 {
		page = 1
	}
	if limit == 0 {
		limit = DefaultAuditLimit
	}
	if page < 1 {
		errs.Add("Page", "must be 1 or more")
	}
	if limit < 1 || limit > MaxAuditLimit {
		errs.Add("Limit", "must be between 1 and %d", MaxAuditLimit)
	}
	if err := errs.Err(); err != nil {
		return AuditPage{}, err
	}
	out := AuditPage{Page: page, Limit: limit}
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		asm, err := s.readableAssessment(ctx, tx, a, ref, assessmentID)
		if err != nil {
			return err
		}
		out.Events, out.Total, err = tx.Assessments().Events(ctx, asm.ID, (page-1)*limit, limit)
		return err
	})
	return out, err
}
