package assessments_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// TestOversizeEvidenceIsDeleted: an uploaded object over the cap is
// deleted from the store and its record stays pending, with nothing in the
// audit log; one within the cap is recorded uploaded once however often
// it is read.
func TestOversizeEvidenceIsDeleted(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	approvedSlack(t, f, clock{}.Now())
	a := f.assessment(f.slack.ID)
	audited := func() int { return f.audited(a.ID) }
	before := audited()

	big, err := f.s.UploadURL(ctx, f.owner, f.ref, lists.MasterRef, a.ID, "dump.zip", "application/zip")
	if err != nil {
		t.Fatal(err)
	}
	f.blobs.objects[big.Document.ObjectKey] = assessments.MaxDocumentSize + 1
	ds, err := f.s.Documents(ctx, f.viewr, f.ref, a.ID)
	if err != nil || len(ds) != 1 || ds[0].Status != assessments.DocumentPending {
		t.Fatalf("documents %+v, %v; want the oversize one pending", ds, err)
	}
	if _, ok := f.blobs.objects[big.Document.ObjectKey]; ok {
		t.Fatal("the oversize object was kept")
	}
	if audited() != before {
		t.Fatalf("an oversize upload was audited: %d events", audited()-before)
	}

	ok, err := f.s.UploadURL(ctx, f.owner, f.ref, lists.MasterRef, a.ID, "soc2.pdf", "application/pdf")
	if err != nil {
		t.Fatal(err)
	}
	f.blobs.objects[ok.Document.ObjectKey] = assessments.MaxDocumentSize
	for range 2 {
		if _, err := f.s.Documents(ctx, f.viewr, f.ref, a.ID); err != nil {
			t.Fatal(err)
		}
	}
	if audited() != before+1 {
		t.Fatalf("%d audit events after two reads of one upload, want 1", audited()-before)
	}
}

// TestNewNamesMissingDependencies: a service without its blob store,
// mailer or signer is refused at wiring, naming each.
func TestNewNamesMissingDependencies(t *testing.T) {
	t.Parallel()
	_, err := assessments.NewService(assessments.Deps{})
	for _, dep := range []string{"Store", "Blobs", "Mailer", "Signer"} {
		if err == nil || !strings.Contains(err.Error(), dep) {
			t.Errorf("New without %s: %v", dep, err)
		}
	}
}

// TestDeleteAssessmentQueuesItsFiles: deleting an assessment by vendor
// within a named list takes its evidence files with it, through one
// blob-delete job naming each file; a viewer cannot delete.
func TestDeleteAssessmentQueuesItsFiles(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	approvedSlack(t, f, clock{}.Now())
	a := f.assessment(f.slack.ID)
	var keys []string
	for _, name := range []string{"soc2.pdf", "dpa.pdf"} {
		up, err := f.s.UploadURL(ctx, f.owner, f.ref, lists.MasterRef, a.ID, name, "application/pdf")
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, up.Document.ObjectKey)
	}
	sel := assessments.VendorSel{VendorID: f.slack.ID}
	if _, err := f.s.DeleteAssessment(ctx, f.viewr, f.ref, lists.MasterRef, uuid.Nil, sel); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("a viewer deleted: %v", err)
	}
	f.clearOutbox()
	got, err := f.s.DeleteAssessment(ctx, f.owner, f.ref, lists.MasterRef, uuid.Nil, sel)
	if err != nil || got.ID != a.ID {
		t.Fatalf("delete: %+v, %v", got, err)
	}
	queued := f.outbox()
	if len(queued) != 1 || queued[0].Kind != outbox.KindBlobDelete {
		t.Fatalf("outbox %+v, want one blob delete", queued)
	}
	bd, ok := queued[0].Payload.(outbox.BlobDelete)
	if !ok || !slices.Equal(bd.Keys, keys) {
		t.Fatalf("blob delete %+v, want %v", queued[0].Payload, keys)
	}
}
