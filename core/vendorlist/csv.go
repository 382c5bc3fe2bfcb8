package vendorlist

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"

	"github.com/vetted-dev/vetted/core"
)

// CSV limits of import-csv.
const (
	MaxCSVBytes     = 1 << 20 // 1 MB
	MaxCSVRows      = 500
	DefaultRowLimit = 100
)

// CSVColumns are the columns import-csv understands; vendor_name is required.
var CSVColumns = []string{
	"vendor_name", "website_url", "product_name",
	"compliance_approval_status", "conditional_approval_condition", "sponsor_business_department",
	"sponsor_contact", "use_case", "data_collected", "compliance_comment",
}

// AssessmentColumns are the CSV columns that feed an assessment.
var AssessmentColumns = CSVColumns[3:]

// CSVRow is one data row; Row is 1-based and counts data rows only.
type CSVRow struct {
	Row    int
	Values map[string]string
}

// Get returns the trimmed value of a column.
func (r CSVRow) Get(col string) string { return strings.TrimSpace(r.Values[col]) }

// HasAssessment reports whether any assessment column is filled.
func (r CSVRow) HasAssessment() bool {
	for _, c := range AssessmentColumns {
		if r.Get(c) != "" {
			return true
		}
	}
	return false
}

// ParseCSV checks the size and row limits and parses the whole file. Unknown
// columns are refused so that a typo never silently drops data.
func ParseCSV(text string) ([]CSVRow, error) {
	if len(text) > MaxCSVBytes {
		return nil, core.TooLarge("csv", "is %d bytes; the limit is %d bytes (1 MB)", len(text), MaxCSVBytes)
	}
	text = strings.TrimPrefix(text, "\ufeff")
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, core.Invalid("csv", "must have a header row")
	}
	if err != nil {
		return nil, core.Invalid("csv", "is not valid CSV: %v", err)
	}
	known := map[string]bool{}
	for _, c := range CSVColumns {
		known[c] = true
	}
	var errs core.Fields
	cols := make([]string, len(header))
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		cols[i] = h
		if !known[h] {
			errs.Add("csv", "unknown column %q (known: %s)", h, strings.Join(CSVColumns, ", "))
		}
		if seen[h] {
			errs.Add("csv", "column %q appears twice", h)
		}
		seen[h] = true
	}
	if !seen["vendor_name"] {
		errs.Add("csv", "header must include vendor_name")
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var rows []CSVRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, core.Invalid("csv", "is not valid CSV: %v", err)
		}
		empty := true
		for _, v := range rec {
			if strings.TrimSpace(v) != "" {
				empty = false
			}
		}
		if empty {
			continue
		}
		if len(rows) >= MaxCSVRows {
			return nil, core.Invalid("csv", "has more than %d data rows", MaxCSVRows)
		}
		vals := make(map[string]string, len(cols))
		for i, v := range rec {
			if i < len(cols) {
				vals[cols[i]] = v
			}
		}
		rows = append(rows, CSVRow{Row: len(rows) + 1, Values: vals})
	}
	return rows, nil
}

// Batch selects rows [offset, offset+limit) and reports whether more follow.
func Batch(rows []CSVRow, offset, limit int) (batch []CSVRow, next int, more bool, err error) {
	if offset < 0 {
		return nil, 0, false, core.Invalid("row_offset", "must be 0 or more")
	}
	if limit == 0 {
		limit = DefaultRowLimit
	}
	if limit < 1 || limit > MaxCSVRows {
		return nil, 0, false, core.Invalid("row_limit", "must be between 1 and %d", MaxCSVRows)
	}
	if offset > len(rows) {
		return nil, 0, false, core.Invalid("row_offset", "is past the last row (%d rows)", len(rows))
	}
	end := offset + limit
	if end > len(rows) {
		end = len(rows)
	}
	return rows[offset:end], end, end < len(rows), nil
}
