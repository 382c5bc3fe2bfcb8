package lists

import "strings"

// The formula-cell rule of every CSV file Vetted writes and reads.
//
// A spreadsheet opening a CSV file runs a cell that starts with =, +, -
// or @ as a formula (and a leading tab or carriage return can hide one):
// a vendor named =HYPERLINK("http://evil.test","click") would be a live
// link in the register a reviewer opens. So, as OWASP's "CSV Injection"
// page advises, every cell that starts with one of those six characters is
// written with a single quote before it, which spreadsheets show as text:
// =SUM(1) is written '=SUM(1).
//
// The import undoes exactly that, so that an exported file imports back
// with its original values: a cell that starts with a single quote and
// would have been neutralized without it loses that one quote. "Would have
// been neutralized" looks past any further leading quotes, so that a value
// which itself starts with quotes before one of the characters ('=x, a
// name nobody types but anybody may) is written with one more quote (''=x)
// and read back as it was. Every other cell, a quote before anything else
// included ('tis), is written and read as it is.

// formulaStarts are the first characters a spreadsheet may run a cell for.
const formulaStarts = "=+-@\t\r"

// needsQuote reports whether v, past its leading single quotes, starts with
// one of formulaStarts.
func needsQuote(v string) bool {
	rest := strings.TrimLeft(v, "'")
	return rest != "" && strings.IndexByte(formulaStarts, rest[0]) >= 0
}

// NeutralizeCell returns v as a CSV file Vetted writes holds it: with a
// single quote before it when, past its leading quotes, it starts with =,
// +, -, @, a tab or a carriage return.
func NeutralizeCell(v string) string {
	if needsQuote(v) {
		return "'" + v
	}
	return v
}

// NeutralizeRecord neutralizes every cell of rec in place and returns it.
func NeutralizeRecord(rec []string) []string {
	for i, v := range rec {
		rec[i] = NeutralizeCell(v)
	}
	return rec
}

// RestoreCell undoes NeutralizeCell: a cell that starts with a single
// quote and, past its leading quotes, with =, +, -, @, a tab or a carriage
// return loses its first quote; any other cell is returned as it is.
func RestoreCell(v string) string {
	if strings.HasPrefix(v, "'") && needsQuote(v) {
		return v[1:]
	}
	return v
}
