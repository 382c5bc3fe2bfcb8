package lists

import "github.com/vetted-dev/vetted/core"

// RowError reports a bad cell of a CSV import; Row is the 1-based data row.
type RowError struct {
	Row     int
	Column  string
	Message string
}

// CSVField is the request field that carries the CSV text.
const CSVField = "CSV"

// RefuseBatch refuses a CSV batch, naming every bad cell.
func RefuseBatch(errs []RowError) error {
	out := &core.Error{Kind: core.ErrInvalid, Field: CSVField,
		Detail: "the batch was not imported; fix the cells listed in errors and send it again"}
	for _, e := range errs {
		out.Errs = append(out.Errs, &core.Error{Kind: core.ErrInvalid, Field: CSVField, Row: e.Row, Column: e.Column, Detail: e.Message})
	}
	return out
}

// CellErrors returns the failures of err as bad cells of one row and column.
func CellErrors(row int, column string, err error) []RowError {
	fs := core.Failures(err)
	if len(fs) == 0 {
		return []RowError{{Row: row, Column: column, Message: err.Error()}}
	}
	out := make([]RowError, 0, len(fs))
	for _, f := range fs {
		out = append(out, RowError{Row: row, Column: column, Message: f.Detail})
	}
	return out
}
