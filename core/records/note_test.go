package records_test

import (
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core/records"
)

func TestNormalizeNoteText(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
		bad            bool
	}{
		{"plain", "Renewal call done.", "Renewal call done.", false},
		{"trimmed, lines kept", "  one\r\ntwo\rthree\n\tfour  ", "one\ntwo\nthree\n\tfour", false},
		{"empty", "", "", true},
		{"blank", " \n\t ", "", true},
		{"control character", "a\x07b", "", true},
		{"invalid UTF-8", "a\xffb", "", true},
		{"the maximum", strings.Repeat("é", records.MaxNoteLength), strings.Repeat("é", records.MaxNoteLength), false},
		{"one too many", strings.Repeat("é", records.MaxNoteLength+1), "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := records.NormalizeNoteText(c.in)
			if (err != nil) != c.bad {
				t.Fatalf("err = %v, want bad %v", err, c.bad)
			}
			if c.bad {
				if f := fields(err); len(f) != 1 || f[0] != "Note.Text" {
					t.Fatalf("fields = %v, want text", f)
				}
				return
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}
