package lists_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/lists"
)

// csvRows builds a CSV with a vendor_name,website_url header and n data rows.
func csvRows(n int) string {
	var b strings.Builder
	b.WriteString("vendor_name,website_url\n")
	for i := range n {
		fmt.Fprintf(&b, "Vendor %d,v%d.example\n", i, i)
	}
	return b.String()
}

// padTo fills the website column of the first row so text is exactly size bytes.
func padTo(t *testing.T, size int) string {
	t.Helper()
	head := "vendor_name,product_name\nAcme,"
	if size < len(head)+1 {
		t.Fatalf("size %d too small", size)
	}
	return head + strings.Repeat("p", size-len(head)-1) + "\n"
}

func TestParseCSVLimits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		text string
		rows int
		err  error
	}{
		{"exactly 1 MB", padTo(t, lists.MaxCSVBytes), 1, nil},
		{"1 MB + 1 byte", padTo(t, lists.MaxCSVBytes+1), 0, core.ErrTooLarge},
		{"500 rows", csvRows(500), 500, nil},
		{"501 rows", csvRows(501), 0, core.ErrInvalid},
		{"500 rows and blank lines", csvRows(500) + "\n,\n , \n", 500, nil},
		{"header only", "vendor_name\n", 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rows, err := lists.ParseCSV(tt.text)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("err = %v, want %v", err, tt.err)
				}
				if tt.err == core.ErrTooLarge && errors.Is(err, core.ErrInvalid) {
					t.Fatal("an oversize file must not also be ErrInvalid (413, not 422)")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != tt.rows {
				t.Fatalf("got %d rows, want %d", len(rows), tt.rows)
			}
		})
	}
}

func TestParseCSVHeader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text, msg string
	}{
		{"empty file", "", "header row"},
		{"only a BOM", "\ufeff", "header row"},
		{"no vendor_name", "website_url,product_name\nx.com,y\n", "vendor_name"},
		{"unknown column", "vendor_name,vendor_nmae\nAcme,x\n", `unknown column "vendor_nmae"`},
		{"duplicate column", "vendor_name,website_url,Website_URL\nAcme,a.com,b.com\n", `column "website_url" appears twice`},
		{"broken quotes", "vendor_name\n\"Acme\n", "not valid CSV"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := lists.ParseCSV(tt.text)
			if !errors.Is(err, core.ErrInvalid) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("err = %v, want ErrInvalid mentioning %q", err, tt.msg)
			}
		})
	}
}

func TestParseCSVRows(t *testing.T) {
	t.Parallel()
	text := "\ufeffVendor_Name , website_url,product_name,data_collected,compliance_approval_status\n" +
		"\n" +
		"Acme,acme.com,Widgets,email;name,approved\n" +
		",,,,\n" +
		"\"Globex, Inc.\",globex.com,\"Line one\nline two\",,\n" +
		"  Initech ,,,,\n"
	rows, err := lists.ParseCSV(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("got %d rows, want 3 (blank lines skipped): %+v", len(rows), rows)
	}
	for i, r := range rows {
		if r.Row != i+1 {
			t.Errorf("row %d numbered %d; data rows count from 1 without blanks", i, r.Row)
		}
	}
	if got := rows[0].Get("vendor_name"); got != "Acme" {
		t.Fatalf("BOM or header case not handled: vendor_name = %q (values %v)", got, rows[0].Values)
	}
	if !rows[0].HasAssessment() || rows[0].Get("data_collected") != "email;name" {
		t.Fatalf("row 1 = %+v, want an assessment with data_collected", rows[0])
	}
	if got, want := rows[1].Get("vendor_name"), "Globex, Inc."; got != want {
		t.Fatalf("quoted comma: %q, want %q", got, want)
	}
	if got, want := rows[1].Get("product_name"), "Line one\nline two"; got != want {
		t.Fatalf("quoted newline: %q, want %q", got, want)
	}
	if rows[1].HasAssessment() {
		t.Fatal("row 2 has no assessment column filled")
	}
	if got := rows[2].Get("vendor_name"); got != "Initech" {
		t.Fatalf("Get must trim: %q", got)
	}
	if got := rows[2].Get("product_name"); got != "" {
		t.Fatalf("an empty field reads as empty, got %q", got)
	}
}

func TestBatch(t *testing.T) {
	t.Parallel()
	rows, err := lists.ParseCSV(csvRows(250))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		n             int // rows available
		offset, limit int
		first, size   int // first Row number, batch length
		next          int
		more, invalid bool
	}{
		{name: "defaults", n: 250, offset: 0, limit: 0, first: 1, size: 100, next: 100, more: true},
		{name: "second page", n: 250, offset: 100, limit: 100, first: 101, size: 100, next: 200, more: true},
		{name: "last page", n: 250, offset: 200, limit: 100, first: 201, size: 50, next: 250, more: false},
		{name: "exact end", n: 200, offset: 100, limit: 100, first: 101, size: 100, next: 200, more: false},
		{name: "max limit", n: 250, offset: 0, limit: 500, first: 1, size: 250, next: 250, more: false},
		{name: "limit 1", n: 250, offset: 249, limit: 1, first: 250, size: 1, next: 250, more: false},
		{name: "offset == len", n: 250, offset: 250, limit: 10, size: 0, next: 250, more: false},
		{name: "no rows", n: 0, offset: 0, limit: 0, size: 0, next: 0, more: false},
		{name: "negative offset", n: 250, offset: -1, limit: 10, invalid: true},
		{name: "limit 501", n: 250, offset: 0, limit: 501, invalid: true},
		{name: "negative limit", n: 250, offset: 0, limit: -5, invalid: true},
		{name: "offset past end", n: 250, offset: 251, limit: 10, invalid: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			batch, next, more, err := lists.Batch(rows[:tt.n], tt.offset, tt.limit)
			if tt.invalid {
				if !errors.Is(err, core.ErrInvalid) {
					t.Fatalf("err = %v, want ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(batch) != tt.size || next != tt.next || more != tt.more {
				t.Fatalf("Batch = %d rows, next %d, more %v; want %d, %d, %v", len(batch), next, more, tt.size, tt.next, tt.more)
			}
			if tt.size > 0 && batch[0].Row != tt.first {
				t.Fatalf("first row %d, want %d", batch[0].Row, tt.first)
			}
		})
	}
}

func TestCSVColumns(t *testing.T) {
	t.Parallel()
	if lists.CSVColumns[0] != "vendor_name" {
		t.Fatalf("vendor_name must be the first known column: %v", lists.CSVColumns)
	}
	want := []string{"compliance_approval_status", "conditional_approval_condition", "sponsor_business_department",
		"sponsor_contact", "use_case", "data_collected", "compliance_comment", "tier", "sponsor"}
	if !reflect.DeepEqual(lists.AssessmentColumns, want) {
		t.Fatalf("AssessmentColumns = %v, want %v", lists.AssessmentColumns, want)
	}
}

func TestParseCSVRefusesRaggedAndNonUTF8Rows(t *testing.T) {
	t.Parallel()
	type cell struct {
		row    int
		column string
	}
	tests := []struct {
		name  string
		text  string
		cells []cell
		msg   string
	}{
		{"fewer fields", "vendor_name,website_url,product_name\nAcme,acme.com,Widgets\nGlobex,globex.com\n", []cell{{2, ""}}, "has 2 fields; the header has 3"},
		{"more fields", "vendor_name,website_url\nAcme,acme.com\nGlobex,globex.com,extra\n", []cell{{2, ""}}, "has 3 fields; the header has 2"},
		{"latin-1 byte", "vendor_name,product_name\nAcme,Widgets\nSoci\xe9t\xe9,Caf\xe9\n", []cell{{2, "vendor_name"}, {2, "product_name"}}, "UTF-8"},
		{"replacement character", "vendor_name,product_name\nSoci\ufffdt\ufffd,Widgets\n", []cell{{1, "vendor_name"}}, "UTF-8"},
		{"blank rows are not counted", "vendor_name,product_name\n\n,\nAcme,Widgets\n,,,\nGlobex\n", []cell{{2, ""}}, "has 1 fields"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rows, err := lists.ParseCSV(tt.text)
			if !errors.Is(err, core.ErrInvalid) || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("ParseCSV = %d rows, %v; want ErrInvalid mentioning %q", len(rows), err, tt.msg)
			}
			ce, _ := core.AsError(err)
			var got []cell
			for _, e := range ce.Errs {
				if e.Field != lists.CSVField {
					t.Errorf("fault at field %q, want %q", e.Field, lists.CSVField)
				}
				got = append(got, cell{e.Row, e.Column})
			}
			if !reflect.DeepEqual(got, tt.cells) {
				t.Fatalf("faults at %v, want %v: %v", got, tt.cells, err)
			}
		})
	}
	// A long list of faults is cut, and says so.
	var b strings.Builder
	b.WriteString("vendor_name,product_name\n")
	for i := range 30 {
		fmt.Fprintf(&b, "Vendor %d\n", i)
	}
	_, err := lists.ParseCSV(b.String())
	ce, ok := core.AsError(err)
	if !ok || len(ce.Errs) != 20 || !strings.Contains(ce.Detail, "first 20 of 30") {
		t.Fatalf("30 short rows: %v", err)
	}
}

// A failure of an assessment's input on a CSV row is placed at the column
// its value was read from; the map handed out is a copy.
func TestAssessmentCell(t *testing.T) {
	f := &core.Error{Kind: core.ErrInvalid, Field: "Input.Tier", Detail: "is not a tier"}
	if got := lists.AssessmentCell(4, f); got != (lists.RowError{Row: 4, Column: "tier", Message: "is not a tier"}) {
		t.Fatalf("AssessmentCell = %+v", got)
	}
	other := &core.Error{Kind: core.ErrInvalid, Field: "Elsewhere", Detail: "x"}
	if got := lists.AssessmentCell(1, other); got.Column != "Elsewhere" {
		t.Fatalf("a field no column reads: column %q, want the field", got.Column)
	}
	cols := lists.AssessmentInputColumns()
	for path, col := range cols {
		if !slices.Contains(lists.AssessmentColumns, col) {
			t.Errorf("%s reads %q, not an assessment column", path, col)
		}
	}
	cols["Input.Tier"] = "changed"
	if lists.AssessmentInputColumns()["Input.Tier"] != "tier" {
		t.Fatal("AssessmentInputColumns handed out its own map")
	}
}
