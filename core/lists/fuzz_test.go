package lists_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/lists"
)

// Any text either parses into at most 500 rows of known columns that batch
// cleanly, or is refused as invalid or too large; nothing else happens.
func FuzzParseCSV(f *testing.F) {
	for _, s := range []string{
		"vendor_name\nSlack\n",
		"vendor_name,website_url,product_name\nZoom,zoom.us,Meetings\nZoom,,Phone\n",
		"\ufeffVendor_Name , use_case\n\"Acme, Inc\",\"multi\nline\"\n",
		"vendor_name,vendor_name\nx,y\n",
		"website_url\nx.example\n",
		"vendor_name,unknown\nx,1\n",
		"vendor_name\n\"unterminated\n",
		"",
		"vendor_name,compliance_approval_status,data_collected\nA,approved,email;name\n\n\n",
	} {
		f.Add(s, 0, 100)
	}
	f.Fuzz(func(t *testing.T, text string, offset, limit int) {
		rows, err := lists.ParseCSV(text)
		if err != nil {
			if !errors.Is(err, core.ErrInvalid) && !errors.Is(err, core.ErrTooLarge) {
				t.Fatalf("ParseCSV: %v is neither invalid nor too large", err)
			}
			return
		}
		if len(rows) > lists.MaxCSVRows {
			t.Fatalf("%d rows passed the 500-row limit", len(rows))
		}
		known := strings.Join(lists.CSVColumns, ",")
		for i, r := range rows {
			if r.Row != i+1 {
				t.Fatalf("row %d numbered %d", i, r.Row)
			}
			for col := range r.Values {
				if !strings.Contains(","+known+",", ","+col+",") {
					t.Fatalf("unknown column %q passed", col)
				}
			}
		}
		batch, next, more, err := lists.Batch(rows, offset, limit)
		if err != nil {
			if !errors.Is(err, core.ErrInvalid) {
				t.Fatalf("Batch: %v", err)
			}
			return
		}
		if next != offset+len(batch) || more != (next < len(rows)) || len(batch) > lists.MaxCSVRows {
			t.Fatalf("Batch(%d rows, %d, %d) = %d rows, next %d, more %v", len(rows), offset, limit, len(batch), next, more)
		}
	})
}
