package assessments_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// TestImportCSV: a dry run writes nothing; an import adds the vendors it names (with their website's
// domain), one product per product_name and the assessment columns' reviews,
// and queues their enrichment; again it adds nothing; a bad cell refuses
// the batch naming the cell, which a dry run reports instead; a CSV without
// a header is invalid.
func TestImportCSV(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	csv := "vendor_name,website_url,product_name,compliance_approval_status\n" +
		"Acme,https://acme.test,Chat,approved\n" +
		"Acme,,Mail,\n" +
		"Beta,,,\n"
	// A dry run reports what the import would do and writes nothing.
	dry, err := f.s.ImportCSV(ctx, f.owner, f.ref, lists.ListRef{}, assessments.ImportInput{CSV: csv, DryRun: true})
	if err != nil || !dry.DryRun || dry.VendorsAdded != 2 || dry.ProductsAdded != 2 || dry.AssessmentsUpserted != 1 {
		t.Fatalf("dry run: %+v, %v", dry, err)
	}
	f.read(func(ctx context.Context, tx assessments.Tx) error {
		if es, err := tx.Lists().Entries(ctx, f.list.ID); err != nil || len(es) != 0 {
			t.Errorf("a dry run left %+v on the list (%v)", es, err)
		}
		return nil
	})
	res, err := f.s.ImportCSV(ctx, f.owner, f.ref, lists.ListRef{}, assessments.ImportInput{CSV: csv})
	if err != nil {
		t.Fatal(err)
	}
	if res.RowsTotal != 3 || res.VendorsAdded != 2 || res.ProductsAdded != 2 || res.AssessmentsUpserted != 1 ||
		len(res.CustomVendors) != 2 || res.Quota.Queued != 2 || res.HasMore {
		t.Fatalf("import: %+v", res)
	}
	var acme vendors.Vendor
	var entries []lists.Entry
	var reviews []assessments.Assessment
	f.read(func(ctx context.Context, tx assessments.Tx) (err error) {
		if acme, err = tx.Vendors().GetByName(ctx, "Acme"); err != nil {
			return err
		}
		if entries, err = tx.Lists().Entries(ctx, f.list.ID); err != nil {
			return err
		}
		reviews, err = tx.Assessments().ListByVendors(ctx, f.list.ID, []uuid.UUID{acme.ID})
		return err
	})
	if acme.Domain != "acme.test" || acme.WebsiteURL == "" {
		t.Fatalf("the directory's Acme %+v, want its website's domain acme.test", acme)
	}
	if len(entries) != 2 || len(reviews) != 1 || reviews[0].Status != assessments.Approved {
		t.Fatalf("the list holds %+v with reviews %+v", entries, reviews)
	}
	// Again: nothing new.
	res, err = f.s.ImportCSV(ctx, f.owner, f.ref, lists.ListRef{}, assessments.ImportInput{CSV: csv})
	if err != nil || res.VendorsAdded != 0 || res.ProductsAdded != 0 {
		t.Fatalf("import again: %+v, %v", res, err)
	}
	// A bad cell refuses the batch naming the cell; a dry run reports it.
	bad := "vendor_name,tier\nAcme,ultra\n"
	_, err = f.s.ImportCSV(ctx, f.owner, f.ref, lists.ListRef{}, assessments.ImportInput{CSV: bad})
	if fs := core.Failures(err); len(fs) != 1 || fs[0].Field != lists.CSVField || fs[0].Row != 1 || fs[0].Column != "tier" {
		t.Fatalf("a bad cell: %v %+v", err, fs)
	}
	res, err = f.s.ImportCSV(ctx, f.owner, f.ref, lists.ListRef{}, assessments.ImportInput{CSV: bad, DryRun: true})
	if err != nil || !res.DryRun || len(res.Errors) != 1 || res.Errors[0].Column != "tier" {
		t.Fatalf("dry run: %+v, %v", res, err)
	}
	if _, err := f.s.ImportCSV(ctx, f.owner, f.ref, lists.ListRef{}, assessments.ImportInput{CSV: "nope"}); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("no header: %v", err)
	}
}
