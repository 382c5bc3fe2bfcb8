package vendors_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
)

func TestParseAliases(t *testing.T) {
	t.Parallel()
	many := make([]string, vendors.MaxAliases+1)
	for i := range many {
		many[i] = strings.Repeat("a", i+1)
	}
	tooMany, _ := json.Marshal(many)
	fifty, _ := json.Marshal(many[:vendors.MaxAliases])
	for _, c := range []struct {
		name, in string
		want     []string // nil: refused
	}{
		{"null clears", `null`, []string{}},
		{"an empty array clears", `[]`, []string{}},
		{"trimmed, inner space collapsed", `["  Okta,  Inc. ", "Auth0"]`, []string{"Okta, Inc.", "Auth0"}},
		{"duplicates folded for case, the first kept", `["Twilio Segment", "twilio  segment", "SEGMENT", "Segment"]`, []string{"Twilio Segment", "SEGMENT"}},
		{"at most 200 characters", `["` + strings.Repeat("x", vendors.MaxAliasLen) + `"]`, []string{strings.Repeat("x", vendors.MaxAliasLen)}},
		{"at most 50 aliases", string(fifty), many[:vendors.MaxAliases]},
		{"over 200 characters", `["` + strings.Repeat("x", vendors.MaxAliasLen+1) + `"]`, nil},
		{"over 50 aliases", string(tooMany), nil},
		{"empty", `["Okta", ""]`, nil},
		{"blank", `["   "]`, nil},
		{"a control character", `["Ok\u0000ta"]`, nil},
		{"not a string", `["Okta", 7]`, nil},
		{"a null item", `[null]`, nil},
		{"not an array", `"Okta"`, nil},
		{"an object", `{"a":"b"}`, nil},
	} {
		got, err := vendors.ParseAliases(json.RawMessage(c.in))
		if c.want == nil {
			if !errors.Is(err, core.ErrInvalid) {
				t.Errorf("%s: %s gave %q, %v; want a validation error", c.name, c.in, got, err)
				continue
			}
			for _, f := range core.Failures(err) {
				if f.Field != "Patch.aliases" {
					t.Errorf("%s: the error names %q, want Patch.aliases", c.name, f.Field)
				}
			}
			continue
		}
		if err != nil || got == nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %s gave %q, %v; want %q", c.name, c.in, got, err, c.want)
		}
	}
}
