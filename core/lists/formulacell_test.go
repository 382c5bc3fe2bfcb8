package lists_test

import (
	"testing"

	"github.com/vetted-dev/vetted/core/lists"
)

func TestFormulaCells(t *testing.T) {
	for _, c := range []struct{ value, written string }{
		{`=HYPERLINK("http://evil.test","click")`, `'=HYPERLINK("http://evil.test","click")`},
		{"+cmd", "'+cmd"},
		{"-1", "'-1"},
		{"@SUM(1)", "'@SUM(1)"},
		{"\t=1+1", "'\t=1+1"},
		{"\r=1+1", "'\r=1+1"},
		// A value that already starts with quotes before a formula
		// character gets one more, so that it reads back as it was.
		{"'=x", "''=x"},
		{"''+x", "'''+x"},
		// Anything else is written as it is.
		{"", ""},
		{"Slack", "Slack"},
		{"'tis", "'tis"},
		{"'", "'"},
		{"''", "''"},
		{"a=b", "a=b"},
		{" =x", " =x"},
		{"2027-05-22T09:00:00Z", "2027-05-22T09:00:00Z"},
	} {
		if got := lists.NeutralizeCell(c.value); got != c.written {
			t.Errorf("NeutralizeCell(%q) = %q, want %q", c.value, got, c.written)
		}
		if got := lists.RestoreCell(c.written); got != c.value {
			t.Errorf("RestoreCell(%q) = %q, want %q", c.written, got, c.value)
		}
	}
	// A quote before a formula character in a file written by hand is
	// read as the spreadsheet convention it is: the text after it.
	if got := lists.RestoreCell("'-5"); got != "-5" {
		t.Errorf("RestoreCell('-5) = %q", got)
	}
	rec := lists.NeutralizeRecord([]string{"=1", "x", "@y"})
	if rec[0] != "'=1" || rec[1] != "x" || rec[2] != "'@y" {
		t.Errorf("NeutralizeRecord = %q", rec)
	}
}

// FuzzFormulaCells: every value reads back as it was written, and no
// written cell starts with a formula character.
func FuzzFormulaCells(f *testing.F) {
	for _, s := range []string{"=1", "'=1", "''", "-", "x", "\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		w := lists.NeutralizeCell(v)
		if got := lists.RestoreCell(w); got != v {
			t.Fatalf("%q written %q reads back %q", v, w, got)
		}
		if w != "" && (w[0] == '=' || w[0] == '+' || w[0] == '-' || w[0] == '@' || w[0] == '\t' || w[0] == '\r') {
			t.Fatalf("%q written %q", v, w)
		}
	})
}
