package assessments_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
)

// rows is the assessments of one list, and the audit events appended;
// the rest of assessments.Tx is unused by Upsert.
type rows struct {
	assessments.Tx
	asms   map[uuid.UUID]assessments.Assessment // by vendor
	events []assessments.AuditEvent
	locked []uuid.UUID
}

func (t *rows) Lists() lists.ListRepo                   { return lockOnly{t: t} }
func (t *rows) Assessments() assessments.AssessmentRepo { return asmRepo{t: t} }
func (t *rows) Profiles() vendors.ProfileRepo           { return noProfiles{} }

type lockOnly struct {
	lists.ListRepo
	t *rows
}

func (r lockOnly) LockEntries(_ context.Context, _ uuid.UUID, ids []uuid.UUID) error {
	r.t.locked = append(r.t.locked, ids...)
	return nil
}

type asmRepo struct {
	assessments.AssessmentRepo
	t *rows
}

func (r asmRepo) ListByVendors(_ context.Context, _ uuid.UUID, ids []uuid.UUID) ([]assessments.Assessment, error) {
	var out []assessments.Assessment
	for _, id := range ids {
		if a, ok := r.t.asms[id]; ok {
			out = append(out, a)
		}
	}
	return out, nil
}

func (r asmRepo) Save(_ context.Context, as []assessments.Assessment) error {
	for _, a := range as {
		r.t.asms[a.VendorID] = a
	}
	return nil
}

func (r asmRepo) AppendEvents(_ context.Context, es []assessments.AuditEvent) error {
	r.t.events = append(r.t.events, es...)
	return nil
}

type noProfiles struct{ vendors.ProfileRepo }

func (noProfiles) Get(context.Context, uuid.UUID) (vendors.Profile, error) {
	return vendors.Profile{}, core.ErrNotFound
}

type clock struct{}

func (clock) Now() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }

type ids struct{}

func (ids) New() uuid.UUID { return uuid.New() }

func service(t *testing.T) *assessments.Service {
	t.Helper()
	signer, err := signedlink.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := assessments.NewService(assessments.Deps{Unit: uow.Unit[assessments.Tx]{Store: nilStore{}, Clock: clock{}, IDs: ids{}}, Blobs: nilBlobs{}, Lists: noLists{},
		Mail: mailonce.Mail[assessments.Tx]{Mailer: nilMailer{}}, Signer: signer})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type (
	nilStore struct {
		ports.UnitOfWork[assessments.Tx]
	}
	nilBlobs  struct{ ports.BlobStore }
	nilMailer struct{ ports.Mailer }
)

// TestConditionalApprovalAcrossRows: a conditional approval needs a
// condition; in a CSV import the rows of one vendor merge in order (later
// ones winning), so the condition may come on an earlier row, and a row
// that leaves it missing is refused naming its cell.
func TestConditionalApprovalAcrossRows(t *testing.T) {
	t.Parallel()
	s := service(t)
	ctx := context.Background()
	l := lists.List{ID: uuid.New(), AccountID: uuid.New()}
	slack := vendors.Vendor{ID: uuid.New(), Name: "Slack"}
	tx := &rows{asms: map[uuid.UUID]assessments.Assessment{}}
	by := accounts.Actor{Email: "ann@acme.test"}

	_, err := s.Upsert(ctx, tx, by, l.AccountID, l, []assessments.Request{{Row: 3, Vendor: slack, Input: assessments.Input{Status: statusOf("conditional approval")}}})
	fs := core.Failures(err)
	if !errors.Is(err, core.ErrInvalid) || len(fs) == 0 || fs[0].Field != lists.CSVField || fs[0].Row != 3 || fs[0].Column != "conditional_approval_condition" {
		t.Fatalf("a condition missing: %v %+v", err, fs)
	}
	if len(tx.asms) != 0 {
		t.Fatal("a refused batch saved")
	}

	saved, err := s.Upsert(ctx, tx, by, l.AccountID, l, []assessments.Request{
		{Row: 3, Vendor: slack, Input: assessments.Input{ConditionalApprovalCondition: ptr("SSO enforced")}},
		{Row: 4, Vendor: slack, Input: assessments.Input{Status: statusOf("conditional approval")}},
	})
	if err != nil || len(saved) != 1 {
		t.Fatalf("two rows of one vendor: %v, saved %d", err, len(saved))
	}
	got := tx.asms[slack.ID]
	if got.Status != assessments.ConditionalApproval || got.ConditionalApprovalCondition != "SSO enforced" || got.LastReviewedAt.IsZero() ||
		got.CreatedBy != "ann@acme.test" || len(tx.events) != 1 {
		t.Fatalf("saved %+v, %d events", got, len(tx.events))
	}

	// The same change again saves nothing and audits nothing.
	saved, err = s.Upsert(ctx, tx, by, l.AccountID, l, []assessments.Request{{Vendor: slack, Input: assessments.Input{ConditionalApprovalCondition: ptr("SSO enforced")}}})
	if err != nil || len(saved) != 0 || len(tx.events) != 1 {
		t.Fatalf("no change: %v, saved %d, %d events", err, len(saved), len(tx.events))
	}

	// Through the API (row 0) a failure names the field, not a cell.
	_, err = s.Upsert(ctx, tx, by, l.AccountID, l, []assessments.Request{{Vendor: slack, Input: assessments.Input{SponsorContact: ptr("not an address")}}})
	if fs := core.Failures(err); len(fs) != 1 || fs[0].Field != "Input.SponsorContact" || fs[0].Row != 0 {
		t.Fatalf("an API change: %v %+v", err, fs)
	}
}

func TestReferences(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	for _, tt := range []struct {
		id, profile, name string
		want              assessments.VendorSel
		field             string
	}{
		{id.String(), "x", "y", assessments.VendorSel{VendorID: id}, ""},
		{"", id.String(), "y", assessments.VendorSel{VendorProfileID: id}, ""},
		{"nope", "", "", assessments.VendorSel{}, "VendorSel.VendorID"},
		{"", "nope", "", assessments.VendorSel{}, "VendorSel.VendorProfileID"},
		{"", "", "", assessments.VendorSel{}, ""},
	} {
		got, err := assessments.ParseVendorSel(tt.id, tt.profile, tt.name)
		if tt.field != "" {
			if e, ok := core.AsError(err); !ok || e.Field != tt.field {
				t.Errorf("%+v: %v, want %s", tt, err, tt.field)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%+v: %+v, %v", tt, got, err)
		}
	}
	if sel, err := assessments.ParseVendorSel("", "", "Slack"); err != nil || sel.VendorName == nil || sel.Empty() {
		t.Fatalf("by name: %+v, %v", sel, err)
	}
	if !(assessments.VendorSel{}).Empty() {
		t.Fatal("the zero selection is not empty")
	}
	if _, err := assessments.ParseAssessmentID(" "); !errors.Is(err, core.ErrInvalid) || !containsField(err, "AssessmentID") {
		t.Fatalf("no assessment-id: %v", err)
	}
	if got, err := assessments.ParseAssessmentID(id.String()); err != nil || got != id {
		t.Fatalf("assessment-id: %v %v", got, err)
	}
	if _, err := assessments.ParseDocumentID(""); !containsField(err, "DocumentID") {
		t.Fatalf("no document-id: %v", err)
	}
	if _, err := assessments.ParseDocumentID("nope"); !containsField(err, "DocumentID") {
		t.Fatalf("bad document-id: %v", err)
	}
}

func containsField(err error, field string) bool {
	e, ok := core.AsError(err)
	return ok && e.Field == field
}
