package vendors_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
)

func TestParseRefs(t *testing.T) {
	t.Parallel()
	type ref struct{ name, website string }
	tests := []struct {
		name     string
		names    []string
		websites []string
		want     []ref
		fields   []string // field errors expected, in order
	}{
		{
			name:  "canonical names, no websites",
			names: []string{"Slack, Inc.", "Zoom Video Communications"},
			want:  []ref{{"Slack", ""}, {"Zoom Video Communications", ""}},
		},
		{
			name:     "case-insensitive dedupe, first website wins",
			names:    []string{"Slack", "SLACK LLC", "slack"},
			websites: []string{"slack.com", "https://other.example", ""},
			want:     []ref{{"Slack", "https://slack.com"}},
		},
		{
			name:     "a later website fills a missing one",
			names:    []string{"Slack", "slack"},
			websites: []string{"", "slack.com"},
			want:     []ref{{"Slack", "https://slack.com"}},
		},
		{
			name:     "fewer websites than names",
			names:    []string{"A1", "B2"},
			websites: []string{"a1.example"},
			want:     []ref{{"A1", "https://a1.example"}, {"B2", ""}},
		},
		{
			name:     "errors name their index",
			names:    []string{"Good", "", "Bad Site", strings.Repeat("x", 201)},
			websites: []string{"", "", "ftp://bad.example", ""},
			want:     []ref{{"Good", ""}},
			fields:   []string{"Vendors[1].VendorName", "Vendors[2].WebsiteURL", "Vendors[3].VendorName"},
		},
		{
			name:   "two-digit index",
			names:  []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "\x01"},
			fields: []string{"Vendors[10].VendorName"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := vendors.ParseRefs(tt.names, tt.websites)
			if len(tt.fields) > 0 {
				fs := core.Failures(err)
				if !errors.Is(err, core.ErrInvalid) || len(fs) == 0 {
					t.Fatalf("err = %v, want a validation error", err)
				}
				var fields []string
				for _, f := range fs {
					fields = append(fields, f.Field)
				}
				if !reflect.DeepEqual(fields, tt.fields) {
					t.Fatalf("error fields = %q, want %q", fields, tt.fields)
				}
				if tt.want == nil {
					return
				}
			} else if err != nil {
				t.Fatal(err)
			}
			var refs []ref
			for _, r := range got {
				refs = append(refs, ref{r.Name.String(), r.WebsiteURL})
			}
			if !reflect.DeepEqual(refs, tt.want) {
				t.Fatalf("refs = %v, want %v", refs, tt.want)
			}
		})
	}
}

func TestParseRefsErrorMessage(t *testing.T) {
	t.Parallel()
	_, err := vendors.ParseRefs([]string{" "}, nil)
	fs := core.Failures(err)
	if len(fs) != 1 || fs[0].Field != "Vendors[0].VendorName" || fs[0].Detail != "must not be empty" {
		t.Fatalf("err = %v, want Vendors[0].VendorName: must not be empty", err)
	}
}
