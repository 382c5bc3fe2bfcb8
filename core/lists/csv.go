package lists

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vetted-dev/vetted/core"
)

// CSV limits of import-csv: the API enforces them, and `vetted import`
// and its help read them from here.
const (
	MaxCSVBytes     = 1 << 20 // 1 MB
	MaxCSVRows      = 500
	DefaultRowLimit = 100
)

// MaxCSVSize is MaxCSVBytes for people: "1 MB".
const MaxCSVSize = "1 MB"

// maxRecordFaults bounds the faults one refusal lists.
const maxRecordFaults = 20

// CSVColumns are the columns import-csv understands; vendor_name is required.
var CSVColumns = []string{
	"vendor_name", "website_url", "product_name",
	"compliance_approval_status", "conditional_approval_condition", "sponsor_business_department",
	"sponsor_contact", "use_case", "data_collected", "compliance_comment", "tier",
	"sponsor", // the export's name for sponsor_contact
}

// ExportOnlyColumns are the columns the register export computes
// (next_review_at, review_state, rating, grade) or keeps elsewhere
// (alerts_enabled): import-csv accepts them so that an exported file
// imports as it is, and ignores their values.
var ExportOnlyColumns = []string{"next_review_at", "review_state", "rating", "grade", "alerts_enabled"}

// AssessmentColumns are the CSV columns that feed an assessment.
var AssessmentColumns = CSVColumns[3:]

// assessmentInputColumns maps the fields of an assessment's input, as the
// errors of review.Apply name them (Go-side paths, see core/errors.go), to
// the CSV column each is read from: a bad value of a row is reported at its
// cell. The sponsor column is an alias of sponsor_contact and reported as it.
var assessmentInputColumns = map[string]string{
	"Input.Status":                       "compliance_approval_status",
	"Input.ConditionalApprovalCondition": "conditional_approval_condition",
	"Input.SponsorBusinessDepartment":    "sponsor_business_department",
	"Input.SponsorContact":               "sponsor_contact",
	"Input.UseCase":                      "use_case",
	"Input.DataCollected":                "data_collected",
	"Input.ComplianceComment":            "compliance_comment",
	"Input.Tier":                         "tier",
}

// AssessmentInputColumns returns the CSV column of each field of an
// assessment's input that an import reads (a copy: keys are Go-side paths,
// "Input.Tier").
func AssessmentInputColumns() map[string]string { return maps.Clone(assessmentInputColumns) }

// AssessmentCell returns the bad cell a failure of an assessment's input
// names, in the given data row.
func AssessmentCell(row int, f *core.Error) RowError {
	col, ok := assessmentInputColumns[f.Field]
	if !ok {
		col = f.Field
	}
	return RowError{Row: row, Column: col, Message: f.Detail}
}

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
// columns are refused so that a typo never silently drops data, and so is a
// file with any record CheckRecord faults (named by data row and column).
func ParseCSV(text string) ([]CSVRow, error) {
	if len(text) > MaxCSVBytes {
		return nil, core.TooLarge(CSVField, "is %d bytes; the limit is %d bytes (%s)", len(text), MaxCSVBytes, MaxCSVSize)
	}
	text = strings.TrimPrefix(text, "\ufeff")
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, core.Invalid(CSVField, "must have a header row")
	}
	if err != nil {
		return nil, core.Invalid(CSVField, "is not valid CSV: %v", err)
	}
	known := map[string]bool{}
	for _, c := range append(slices.Clone(CSVColumns), ExportOnlyColumns...) {
		known[c] = true
	}
	var errs core.Fields
	cols := make([]string, len(header))
	seen := map[string]bool{}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		cols[i] = h
		if !known[h] {
			errs.Add(CSVField, "unknown column %q (known: %s)", h, strings.Join(CSVColumns, ", "))
		}
		if seen[h] {
			errs.Add(CSVField, "column %q appears twice", h)
		}
		seen[h] = true
	}
	if !seen["vendor_name"] {
		errs.Add(CSVField, "header must include vendor_name")
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	var (
		rows   []CSVRow
		faults []*core.Error
		n      int // data rows read, numbering them as the API reports them
	)
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, core.Invalid(CSVField, "is not valid CSV: %v", err)
		}
		if Blank(rec) {
			continue
		}
		n++
		if n > MaxCSVRows {
			return nil, core.Invalid(CSVField, "has more than %d data rows", MaxCSVRows)
		}
		for _, f := range CheckRecord(cols, rec) {
			faults = append(faults, &core.Error{Kind: core.ErrInvalid, Field: CSVField, Row: n, Column: f.Column, Detail: f.Message})
		}
		if len(faults) > 0 {
			continue // the file is refused; keep reading only to name every fault
		}
		vals := make(map[string]string, len(cols))
		for i, v := range rec {
			vals[cols[i]] = RestoreCell(v) // an exported file reads back as it was (formulacell.go)
		}
		rows = append(rows, CSVRow{Row: n, Values: vals})
	}
	if len(faults) > 0 {
		return nil, refuseRecords(faults)
	}
	return rows, nil
}

// refuseRecords refuses a file whose records are not all rectangular UTF-8,
// naming up to maxRecordFaults of them.
func refuseRecords(faults []*core.Error) error {
	detail := "the file was not imported: every data row must be UTF-8 text with as many fields as the header; fix the rows listed in errors"
	if len(faults) > maxRecordFaults {
		detail += fmt.Sprintf(" (the first %d of %d faults)", maxRecordFaults, len(faults))
		faults = faults[:maxRecordFaults]
	}
	return &core.Error{Kind: core.ErrInvalid, Field: CSVField, Detail: detail, Errs: faults}
}

// RecordFault is what is wrong with one record of a CSV file; Column is the
// header name of the cell at fault, empty when the whole record is.
type RecordFault struct {
	Column  string
	Message string
}

// CheckRecord returns the faults of one data record given the header's
// fields: a record must have exactly as many fields as the header (a
// missing or extra comma would put values in the wrong columns or drop
// them), and every cell must be UTF-8 text. A cell holding U+FFFD is taken
// for text that was not UTF-8 too: it is what a decoder (a JSON one, for
// instance) leaves in place of such bytes. import-csv and `vetted import`
// both check files with it.
func CheckRecord(header, rec []string) []RecordFault {
	var out []RecordFault
	if len(rec) != len(header) {
		out = append(out, RecordFault{Message: fmt.Sprintf("has %d fields; the header has %d (%s): a row needs exactly one field per column, empty ones included",
			len(rec), len(header), strings.Join(header, ", "))})
	}
	for i, v := range rec {
		if utf8.ValidString(v) && !strings.ContainsRune(v, utf8.RuneError) {
			continue
		}
		col := fmt.Sprintf("field %d", i+1)
		if i < len(header) {
			col = strings.ToLower(strings.TrimSpace(header[i]))
		}
		out = append(out, RecordFault{Column: col, Message: "is not UTF-8 text (or holds U+FFFD, the mark of bytes that were not); save the file as UTF-8"})
	}
	return out
}

// Blank reports whether a record has no value at all; blank records are
// skipped and not counted as data rows.
func Blank(rec []string) bool {
	for _, v := range rec {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

// Batch selects rows [offset, offset+limit) and reports whether more follow.
func Batch(rows []CSVRow, offset, limit int) (batch []CSVRow, next int, more bool, err error) {
	if offset < 0 {
		return nil, 0, false, core.Invalid("RowOffset", "must be 0 or more")
	}
	if limit == 0 {
		limit = DefaultRowLimit
	}
	if limit < 1 || limit > MaxCSVRows {
		return nil, 0, false, core.Invalid("RowLimit", "must be between 1 and %d", MaxCSVRows)
	}
	if offset > len(rows) {
		return nil, 0, false, core.Invalid("RowOffset", "is past the last row (%d rows)", len(rows))
	}
	end := offset + limit
	if end > len(rows) {
		end = len(rows)
	}
	return rows[offset:end], end, end < len(rows), nil
}
