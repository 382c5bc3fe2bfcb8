package contracts

import (
	"errors"
	"slices"
	"testing"

	"github.com/vetted-dev/vetted/core"
)

func TestParseServices(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     []ServiceEntry
		want   []ServiceEntry
		fields []string
	}{
		{"none", nil, []ServiceEntry{}, nil},
		{"every type", func() []ServiceEntry {
			var s []ServiceEntry
			for _, t := range ServiceTypes {
				s = append(s, ServiceEntry{Name: "x", Type: t})
			}
			return s
		}(), nil, nil},
		{"trimmed and lower-cased", []ServiceEntry{{Name: "  Cloud   hosting ", Type: " IaaS"}}, []ServiceEntry{{Name: "Cloud hosting", Type: "iaas"}}, nil},
		{"unknown type", []ServiceEntry{{Name: "a", Type: "saas"}, {Name: "b", Type: "cloud"}}, nil, []string{"Contract.Services[1].Type"}},
		{"no name", []ServiceEntry{{Name: " ", Type: "saas"}}, nil, []string{"Contract.Services[0].Name"}},
		{"too many", make([]ServiceEntry, MaxServices+1), nil, []string{"Contract.Services"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseServices(tc.in)
			var fields []string
			var ce *core.Error
			if errors.As(err, &ce) {
				if len(ce.Errs) == 0 {
					fields = []string{ce.Field}
				}
				for _, e := range ce.Errs {
					fields = append(fields, e.Field)
				}
			}
			if !slices.Equal(fields, tc.fields) {
				t.Fatalf("fields %v, want %v (%v)", fields, tc.fields, err)
			}
			if tc.want != nil && !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
