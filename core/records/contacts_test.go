package records_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/records"
)

// fields names the fields an error refuses, in order.
// fields are the fields of err's failures as the client wrote them: a
// member of the merge patch is named under "Patch.", which the API drops
// (and refuses without, TestWireNamesCoverTheCore); any other field is
// returned as it is.
func fields(err error) []string {
	var out []string
	for _, f := range core.Failures(err) {
		name, ok := strings.CutPrefix(f.Field, "Patch.")
		if !ok && f.Field != "Note.Text" {
			name = "!" + f.Field // a record field not under Patch.: wrong
		}
		out = append(out, name)
	}
	return out
}

func TestNormalizeContacts(t *testing.T) {
	ok := records.Contact{Name: " Sam  Lee ", Email: "Sam@Zeta.Example", Role: "security"}
	many := make([]records.Contact, records.MaxContacts+1)
	for i := range many {
		many[i] = ok
	}
	for _, c := range []struct {
		name   string
		in     []records.Contact
		fields []string
	}{
		{"none", nil, nil},
		{"every role", []records.Contact{{Name: "a", Email: "a@z.example", Role: "security"}, {Name: "b", Email: "b@z.example", Role: "privacy"},
			{Name: "c", Email: "c@z.example", Role: "account"}, {Name: "d", Email: "d@z.example", Role: "legal"}}, nil},
		{"cleaned", []records.Contact{ok}, nil},
		{"the maximum", many[:records.MaxContacts], nil},
		{"one too many", many, []string{"contacts"}},
		{"no name", []records.Contact{{Name: "  ", Email: "a@z.example", Role: "legal"}}, []string{"contacts[0].name"}},
		{"name too long", []records.Contact{{Name: strings.Repeat("x", records.MaxContactName+1), Email: "a@z.example", Role: "legal"}}, []string{"contacts[0].name"}},
		{"control character", []records.Contact{{Name: "a\x00b", Email: "a@z.example", Role: "legal"}}, []string{"contacts[0].name"}},
		{"bad address", []records.Contact{ok, {Name: "b", Email: "b@zeta", Role: "legal"}}, []string{"contacts[1].email"}},
		{"no address", []records.Contact{{Name: "b", Role: "legal"}}, []string{"contacts[0].email"}},
		{"unknown role", []records.Contact{{Name: "b", Email: "b@z.example", Role: "sales"}}, []string{"contacts[0].role"}},
		{"role case matters", []records.Contact{{Name: "b", Email: "b@z.example", Role: "Legal"}}, []string{"contacts[0].role"}},
		{"every field of two", []records.Contact{{Email: "x", Role: ""}, {Name: "n", Email: "y", Role: "z"}},
			[]string{"contacts[0].name", "contacts[0].email", "contacts[0].role", "contacts[1].email", "contacts[1].role"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := records.NormalizeContacts(c.in)
			if strings.Join(fields(err), ",") != strings.Join(c.fields, ",") {
				t.Fatalf("fields = %v, want %v (%v)", fields(err), c.fields, err)
			}
			if err != nil {
				if !errors.Is(err, core.ErrInvalid) {
					t.Fatalf("err = %v, want invalid", err)
				}
				return
			}
			if len(got) != len(c.in) || got == nil {
				t.Fatalf("got %v", got)
			}
		})
	}
	got, _ := records.NormalizeContacts([]records.Contact{ok})
	if got[0] != (records.Contact{Name: "Sam Lee", Email: "sam@zeta.example", Role: "security"}) {
		t.Fatalf("cleaned = %+v", got[0])
	}
}
