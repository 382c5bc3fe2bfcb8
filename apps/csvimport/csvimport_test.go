package csvimport_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/csvimport"
)

// writeCSV writes a header and n rows made by row(i) (i from 1).
func writeCSV(t testing.TB, header string, n int, row func(i int) string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(header + "\n")
	for i := 1; i <= n; i++ {
		b.WriteString(row(i) + "\n")
	}
	p := filepath.Join(t.TempDir(), "vendors.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

type setup struct {
	env     *apitest.Env
	account string
	token   string
}

func newSetup(t testing.TB) setup {
	e := apitest.New(t)
	acc := e.NewAccount(t, "Acme", "owner@acme.test")
	return setup{env: e, account: acc, token: e.Token("owner@acme.test")}
}

func (s setup) opts(file string) csvimport.Options {
	return csvimport.Options{File: file, BaseURL: s.env.URL, Token: s.token, Account: s.account, Client: s.env.Client}
}

func (s setup) vendorCount(t testing.TB, list string) int {
	t.Helper()
	var out struct {
		Vendors []struct {
			VendorName string `json:"vendor_name"`
		} `json:"vendors"`
	}
	apitest.Must(t, s.env.Do(t, http.MethodGet, "/vendor-lists?account-id="+s.account+"&vendor-list="+list, s.token, nil), http.StatusOK).JSON(t, &out)
	return len(out.Vendors)
}

func TestImportSplitsALongFileAndIsIdempotent(t *testing.T) {
	t.Parallel()
	s := newSetup(t)
	file := writeCSV(t, "vendor_name,product_name", 1234, func(i int) string { return fmt.Sprintf("Vendor %04d,Product %d", i, i) })
	var progress []int
	o := s.opts(file)
	o.Progress = func(done, total int) {
		if total != 1234 {
			t.Errorf("progress total %d, want 1234", total)
		}
		progress = append(progress, done)
	}
	sum, err := csvimport.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Rows != 1234 || sum.Requests != 3 || sum.VendorsAdded != 1234 || sum.ProductsAdded != 1234 {
		t.Fatalf("summary %+v; want 1234 rows in 3 requests, all added", sum)
	}
	if fmt.Sprint(progress) != "[500 1000 1234]" {
		t.Errorf("progress %v, want [500 1000 1234]", progress)
	}
	if n := s.vendorCount(t, "master-list"); n != 1234 {
		t.Fatalf("master-list has %d vendors, want 1234", n)
	}
	again, err := csvimport.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if again.VendorsAdded != 0 || again.ProductsAdded != 0 {
		t.Fatalf("second import %+v; want nothing added", again)
	}
}

func TestImportOverOneMegabyteSplitsByBytes(t *testing.T) {
	t.Parallel()
	s := newSetup(t)
	comment := strings.Repeat("x", 2500)
	file := writeCSV(t, "vendor_name,compliance_comment", 450, func(i int) string { return fmt.Sprintf("Big %03d,%s", i, comment) })
	if fi, _ := os.Stat(file); fi.Size() <= csvimport.MaxBytes {
		t.Fatalf("test file is %d bytes; it must be over 1 MB", fi.Size())
	}
	sum, err := csvimport.Run(context.Background(), s.opts(file))
	if err != nil {
		t.Fatal(err)
	}
	// 450 rows are within the row limit of one request; only the byte
	// limit splits them.
	if sum.Requests != 2 || sum.VendorsAdded != 450 || sum.AssessmentsUpserted != 450 {
		t.Fatalf("summary %+v; want 450 vendors and assessments in 2 requests", sum)
	}
}

func TestImportQuotingSurvivesRequests(t *testing.T) {
	t.Parallel()
	s := newSetup(t)
	file := writeCSV(t, "\ufeffvendor_name,product_name", 3, func(i int) string {
		return fmt.Sprintf("\"Quote \"\"%d\"\", Inc\",\"line one\nline two\"", i)
	})
	o := s.opts(file)
	o.MaxRows = 2
	o.List = "Imported"
	apitest.Must(t, s.env.Do(t, http.MethodPost, "/vendor-lists?account-id="+s.account+"&vendor-list=Imported", s.token, nil), http.StatusCreated)
	sum, err := csvimport.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Requests != 2 || sum.VendorsAdded != 3 {
		t.Fatalf("summary %+v; want 3 vendors in 2 requests", sum)
	}
	if n := s.vendorCount(t, "Imported"); n != 3 {
		t.Fatalf("list Imported has %d vendors, want 3", n)
	}
}

func TestImportDryRunAndRefusedBatchAndResume(t *testing.T) {
	t.Parallel()
	s := newSetup(t)
	bad := 700
	row := func(i int) string {
		status := "approved"
		if i == bad {
			status = "perhaps"
		}
		return fmt.Sprintf("Vendor %04d,%s", i, status)
	}
	file := writeCSV(t, "vendor_name,compliance_approval_status", 1100, row)

	o := s.opts(file)
	o.DryRun = true
	sum, err := csvimport.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Errors) != 1 || sum.Errors[0].Row != bad || sum.Errors[0].Column != "compliance_approval_status" {
		t.Fatalf("dry run errors %+v; want one at data row %d", sum.Errors, bad)
	}
	if n := s.vendorCount(t, "master-list"); n != 0 {
		t.Fatalf("a dry run wrote %d vendors", n)
	}

	o.DryRun = false
	_, err = csvimport.Run(context.Background(), o)
	var be *csvimport.BatchError
	if !errors.As(err, &be) || be.Status != http.StatusUnprocessableEntity || be.FirstRow != 501 || be.Resume != 500 {
		t.Fatalf("err = %v; want a 422 for the batch from row 501, resumable at 500", err)
	}
	// The refused cell is named by its row in the file, not in the batch.
	if len(be.Cells) != 1 || be.Cells[0].Row != bad || be.Cells[0].Column != "compliance_approval_status" || be.Cells[0].Message == "" {
		t.Fatalf("refused cells %+v; want row %d, compliance_approval_status", be.Cells, bad)
	}
	if want := fmt.Sprintf("row %d, column compliance_approval_status: ", bad); strings.Count(be.Error(), want) != 1 {
		t.Fatalf("error does not name the cell once (%q):\n%s", want, be.Error())
	}
	if n := s.vendorCount(t, "master-list"); n != 500 {
		t.Fatalf("after the refused batch the list has %d vendors, want the first 500", n)
	}

	fixed := writeCSV(t, "vendor_name,compliance_approval_status", 1100, func(i int) string { return fmt.Sprintf("Vendor %04d,approved", i) })
	o.File, o.FromRow = fixed, be.Resume
	sum, err = csvimport.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Skipped != 500 || sum.VendorsAdded != 600 || sum.Requests != 2 {
		t.Fatalf("resumed summary %+v; want 500 skipped, 600 added in 2 requests", sum)
	}
}

func TestImportRejectsBadInput(t *testing.T) {
	t.Parallel()
	s := newSetup(t)
	empty := filepath.Join(t.TempDir(), "empty.csv")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	huge := writeCSV(t, "vendor_name,compliance_comment", 1, func(int) string { return "X," + strings.Repeat("y", csvimport.MaxBytes) })
	unknown := writeCSV(t, "vendor_name,colour", 1, func(int) string { return "X,red" })
	tests := []struct {
		name string
		edit func(*csvimport.Options)
		want string
	}{
		{"missing file", func(o *csvimport.Options) { o.File = filepath.Join(t.TempDir(), "nope.csv") }, "no such file"},
		{"empty file", func(o *csvimport.Options) { o.File = empty }, "header"},
		{"row over 1 MB", func(o *csvimport.Options) { o.File = huge }, "alone is"},
		{"unknown column", func(o *csvimport.Options) { o.File = unknown }, "colour"},
		{"bad token", func(o *csvimport.Options) { o.File = unknown; o.Token = "nope" }, "401"},
		{"no account", func(o *csvimport.Options) { o.Account = "" }, "account"},
		{"bad base URL", func(o *csvimport.Options) { o.BaseURL = "localhost:8080" }, "base URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := s.opts(unknown)
			tt.edit(&o)
			_, err := csvimport.Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// A file the API would refuse for its shape or encoding is refused before
// anything is sent, naming every such row (and cell) by its row in the file.
func TestImportRefusesRaggedAndNonUTF8FilesBeforeSending(t *testing.T) {
	t.Parallel()
	s := newSetup(t)
	tests := []struct {
		name  string
		row   func(i int) string
		cells []csvimport.RowError
	}{
		{"latin-1", func(i int) string {
			if i == 620 {
				return "Soci\xe9t\xe9,Caf\xe9"
			}
			return fmt.Sprintf("Vendor %04d,Product %d", i, i)
		}, []csvimport.RowError{{Row: 620, Column: "vendor_name"}, {Row: 620, Column: "product_name"}}},
		{"ragged", func(i int) string {
			switch i {
			case 3:
				return fmt.Sprintf("Vendor %04d", i)
			case 900:
				return fmt.Sprintf("Vendor %04d,Product,extra", i)
			}
			return fmt.Sprintf("Vendor %04d,Product %d", i, i)
		}, []csvimport.RowError{{Row: 3}, {Row: 900}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeCSV(t, "vendor_name,product_name", 1000, tt.row)
			sum, err := csvimport.Run(context.Background(), s.opts(file))
			var fe *csvimport.FileError
			if !errors.As(err, &fe) {
				t.Fatalf("Run = %+v, %v; want a FileError", sum, err)
			}
			var got []csvimport.RowError
			for _, c := range fe.Errors {
				if c.Message == "" {
					t.Fatalf("fault without a message: %+v", c)
				}
				got = append(got, csvimport.RowError{Row: c.Row, Column: c.Column})
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.cells) {
				t.Fatalf("faults %+v, want %+v", got, tt.cells)
			}
			if sum.Requests != 0 {
				t.Fatalf("%d requests sent for a refused file", sum.Requests)
			}
			if n := s.vendorCount(t, "master-list"); n != 0 {
				t.Fatalf("a refused file wrote %d vendors", n)
			}
		})
	}
}

// The summary adds up what became of the custom vendors: queued, and saved
// but not queued over the account's quota (500), with the quota left.
func TestImportReportsTheEnrichmentQuota(t *testing.T) {
	t.Parallel()
	s := newSetup(t)
	file := writeCSV(t, "vendor_name", 620, func(i int) string { return fmt.Sprintf("Quota Vendor %04d", i) })
	sum, err := csvimport.Run(context.Background(), s.opts(file))
	if err != nil {
		t.Fatal(err)
	}
	en := sum.Enrichment
	if en.Queued != 500 || en.NotQueued["quota_exceeded"] != 120 || len(en.Errors) != 120 || en.NotQueuedTotal() != 120 {
		t.Fatalf("enrichment %+v; want 500 queued and 120 quota_exceeded", en)
	}
	if en.Quota.Limit != 500 || en.Quota.Used != 500 || en.Quota.Remaining != 0 {
		t.Fatalf("quota %+v; want 500 of 500 used", en.Quota)
	}
	if en.Errors[0].VendorName == "" || en.Errors[0].Code != "quota_exceeded" || en.Errors[0].Message == "" {
		t.Fatalf("first error %+v", en.Errors[0])
	}
}

// A dry run spends the quota as the real import will across its batches
// (each batch of a dry run is rolled back, so the next starts from the
// quota as it was): 620 custom vendors in batches of 150, some repeated in
// a later batch, are 500 queued and 120 not queued either way, with the
// same quota left and the same vendors named.
func TestImportDryRunSpendsTheQuotaAcrossBatches(t *testing.T) {
	t.Parallel()
	name := func(i int) string { return fmt.Sprintf("Quota Vendor %04d", i) }
	file := writeCSV(t, "vendor_name,product_name", 700, func(i int) string {
		if i > 620 { // a vendor of an earlier batch again, with a product
			return name(i-620) + ",Suite"
		}
		return name(i) + ","
	})
	run := func(dry bool) csvimport.Summary {
		s := newSetup(t)
		o := s.opts(file)
		o.MaxRows, o.DryRun = 150, dry
		sum, err := csvimport.Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	dry, real := run(true), run(false)
	if real.Enrichment.Queued != 500 || real.Enrichment.NotQueuedTotal() != 120 {
		t.Fatalf("the real import: %+v", real.Enrichment)
	}
	d, r := dry.Enrichment, real.Enrichment
	if d.Queued != r.Queued || d.NotQueued["quota_exceeded"] != r.NotQueued["quota_exceeded"] || d.Quota != r.Quota || dry.EnrichmentQueued != real.EnrichmentQueued {
		t.Fatalf("dry run: queued %d, not queued %v, quota %+v (total %d); the real import: queued %d, not queued %v, quota %+v (total %d)",
			d.Queued, d.NotQueued, d.Quota, dry.EnrichmentQueued, r.Queued, r.NotQueued, r.Quota, real.EnrichmentQueued)
	}
	for i := range r.Errors {
		if d.Errors[i].VendorName != r.Errors[i].VendorName {
			t.Fatalf("not queued #%d: dry run %q, real %q", i, d.Errors[i].VendorName, r.Errors[i].VendorName)
		}
	}
}
