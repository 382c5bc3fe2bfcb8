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
)

type clock struct{}

func (clock) Now() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }

// TestConditionalApprovalAcrossRows: a conditional approval needs a
// condition; in a CSV import the rows of one vendor merge in order (later
// ones winning), so the condition may come on an earlier row, and a row
// that leaves it missing is refused naming its cell.
func TestConditionalApprovalAcrossRows(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	by := accounts.Actor{Email: "ann@acme.test"}
	// upsert runs one batch in a unit of work that commits whatever
	// Upsert answers, so what it saved on a refusal would stay.
	upsert := func(rs ...assessments.Request) (saved []assessments.Assessment, err error) {
		t.Helper()
		f.write(func(ctx context.Context, tx assessments.Tx) error {
			saved, err = f.s.Upsert(ctx, tx, by, f.acc.ID, f.list, rs)
			return nil
		})
		return saved, err
	}
	stored := func() []assessments.Assessment {
		var as []assessments.Assessment
		f.read(func(ctx context.Context, tx assessments.Tx) (err error) {
			as, err = tx.Assessments().ListByVendors(ctx, f.list.ID, []uuid.UUID{f.slack.ID})
			return err
		})
		return as
	}
	slack := f.slack

	_, err := upsert(assessments.Request{Row: 3, Vendor: slack, Input: assessments.Input{Status: statusOf("conditional approval")}})
	fs := core.Failures(err)
	if !errors.Is(err, core.ErrInvalid) || len(fs) == 0 || fs[0].Field != lists.CSVField || fs[0].Row != 3 || fs[0].Column != "conditional_approval_condition" {
		t.Fatalf("a condition missing: %v %+v", err, fs)
	}
	if len(stored()) != 0 {
		t.Fatal("a refused batch saved")
	}

	saved, err := upsert(
		assessments.Request{Row: 3, Vendor: slack, Input: assessments.Input{ConditionalApprovalCondition: ptr("SSO enforced")}},
		assessments.Request{Row: 4, Vendor: slack, Input: assessments.Input{Status: statusOf("conditional approval")}},
	)
	if err != nil || len(saved) != 1 {
		t.Fatalf("two rows of one vendor: %v, saved %d", err, len(saved))
	}
	got := f.assessment(slack.ID)
	if got.Status != assessments.ConditionalApproval || got.ConditionalApprovalCondition != "SSO enforced" || got.LastReviewedAt.IsZero() ||
		got.CreatedBy != "ann@acme.test" || f.audited(got.ID) != 1 {
		t.Fatalf("saved %+v, %d events", got, f.audited(got.ID))
	}

	// The same change again saves nothing and audits nothing.
	saved, err = upsert(assessments.Request{Vendor: slack, Input: assessments.Input{ConditionalApprovalCondition: ptr("SSO enforced")}})
	if err != nil || len(saved) != 0 || f.audited(got.ID) != 1 {
		t.Fatalf("no change: %v, saved %d, %d events", err, len(saved), f.audited(got.ID))
	}

	// Through the API (row 0) a failure names the field, not a cell.
	_, err = upsert(assessments.Request{Vendor: slack, Input: assessments.Input{SponsorContact: ptr("not an address")}})
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
