package core_test

import (
	"errors"
	"testing"

	"github.com/vetted-dev/vetted/core"
)

func TestPlainText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
		bad            bool
	}{
		{name: "trimmed and folded", in: "  Acme \t Cloud\r\n Services ", want: "Acme Cloud Services"},
		{name: "unicode letters", in: "Prüf GmbH 東京", want: "Prüf GmbH 東京"},
		{name: "empty stays empty", in: "   ", want: ""},
		{name: "NUL", in: "a\x00b", bad: true},
		{name: "escape", in: "a\x1b[31mb", bad: true},
		{name: "DEL", in: "a\x7fb", bad: true},
		{name: "C1 NEL (white space, yet a control)", in: "a\u0085b", bad: true},
		{name: "C1 CSI", in: "a\u009bb", bad: true},
		{name: "invalid UTF-8", in: "a\xffb", bad: true},
		{name: "too long", in: "abcdef", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := core.PlainText("name", tt.in, 5*4)
			if tt.name == "too long" {
				got, err = core.PlainText("name", tt.in, 5)
			}
			if tt.bad {
				if !errors.Is(err, core.ErrInvalid) {
					t.Fatalf("PlainText(%q) = %q, %v; want ErrInvalid", tt.in, got, err)
				}
				if f := core.Failures(err); len(f) != 1 || f[0].Field != "name" {
					t.Fatalf("error does not name the field: %v", err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("PlainText(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}
