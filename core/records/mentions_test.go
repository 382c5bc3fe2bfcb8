package records_test

import (
	"slices"
	"testing"

	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/records"
)

func TestMentions(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"none", "no mention here", nil},
		{"a plain address is no mention", "write to erin@acme.example", nil},
		{"at the start", "@erin@acme.example please check", []string{"erin@acme.example"}},
		{"lower-cased", "ask @Erin@ACME.example", []string{"erin@acme.example"}},
		{"trailing punctuation", "ask @erin@acme.example. Then @bo@acme.example: ok? @cy@acme.example!", []string{"erin@acme.example", "bo@acme.example", "cy@acme.example"}},
		{"in brackets and quotes", "(@erin@acme.example), \"@bo@acme.example\"", []string{"erin@acme.example", "bo@acme.example"}},
		{"after a line break", "first\n@erin@acme.example", []string{"erin@acme.example"}},
		{"twice is once", "@erin@acme.example and @ERIN@acme.example", []string{"erin@acme.example"}},
		{"a handle is not an address", "@erin says hi", nil},
		{"no dot in the domain", "@erin@acme", nil},
		{"inside a word", "x@erin@acme.example", nil},
		{"two at signs", "@a@b@acme.example", nil},
		{"a lone at", "@ @", nil},
		{"order of first mention", "@b@acme.example @a@acme.example @b@acme.example", []string{"b@acme.example", "a@acme.example"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := records.Mentions(c.text); !slices.Equal(got, c.want) {
				t.Fatalf("Mentions(%q) = %v, want %v", c.text, got, c.want)
			}
		})
	}
}

func TestRecipients(t *testing.T) {
	members := []accounts.Member{{Email: "ann@acme.example"}, {Email: "erin@acme.example"}, {Email: "bo@acme.example"}}
	for _, c := range []struct {
		name, text, author string
		want               []string
	}{
		{"a member", "cc @erin@acme.example", "ann@acme.example", []string{"erin@acme.example"}},
		{"a non-member mails nobody", "cc @eve@other.example", "ann@acme.example", nil},
		{"the author mails nobody", "note to self @ann@acme.example", "Ann@acme.example", nil},
		{"the same address twice mails once", "@erin@acme.example @Erin@acme.example", "ann@acme.example", []string{"erin@acme.example"}},
		{"several members", "@bo@acme.example @eve@x.example @erin@acme.example", "ann@acme.example", []string{"bo@acme.example", "erin@acme.example"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := records.Recipients(c.text, c.author, members); !slices.Equal(got, c.want) {
				t.Fatalf("Recipients = %v, want %v", got, c.want)
			}
		})
	}
}
