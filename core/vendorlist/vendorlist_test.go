package vendorlist_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendorlist"
)

func TestParseName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		invalid  bool
	}{
		{in: "master-list", want: "master-list"},
		{in: "  Critical \t vendors ", want: "Critical vendors"},
		{in: strings.Repeat("ü", 200), want: strings.Repeat("ü", 200)},
		{in: "", invalid: true},
		{in: " \n ", invalid: true},
		{in: strings.Repeat("ü", 201), invalid: true},
	}
	for _, tt := range tests {
		got, err := vendorlist.ParseName("product_name", tt.in)
		if tt.invalid {
			if !errors.Is(err, core.ErrInvalid) || !strings.Contains(err.Error(), "product_name") {
				t.Errorf("ParseName(%q) = %q, %v; want ErrInvalid naming the field", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseName(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	id, acct := uuid.New(), uuid.New()
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.FixedZone("X", 5*3600))
	l, err := vendorlist.New(id, acct, "  Tier  1 ", now)
	if err != nil {
		t.Fatal(err)
	}
	if l.ID != id || l.AccountID != acct || l.Name != "Tier 1" || l.VendorCount != 0 || l.CreatedAt.Location() != time.UTC || !l.CreatedAt.Equal(now) {
		t.Fatalf("New = %+v", l)
	}
	if _, err := vendorlist.New(id, acct, "", now); !errors.Is(err, core.ErrInvalid) || !strings.Contains(err.Error(), "List.Name") {
		t.Fatalf("empty list name: err = %v, want ErrInvalid on List.Name", err)
	}
	p, err := vendorlist.NewProduct(id, id, acct, " Slack  Enterprise ", now)
	if err != nil || p.Name != "Slack Enterprise" {
		t.Fatalf("NewProduct = %+v, %v", p, err)
	}
	if _, err := vendorlist.NewProduct(id, id, acct, "", now); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("empty product name: err = %v, want ErrInvalid", err)
	}
}

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
			got, err := vendorlist.ParseRefs(tt.names, tt.websites)
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
	_, err := vendorlist.ParseRefs([]string{" "}, nil)
	fs := core.Failures(err)
	if len(fs) != 1 || fs[0].Field != "Vendors[0].VendorName" || fs[0].Detail != "must not be empty" {
		t.Fatalf("err = %v, want Vendors[0].VendorName: must not be empty", err)
	}
}

func TestDiff(t *testing.T) {
	t.Parallel()
	a, b, c, d := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	tests := []struct {
		name             string
		current, desired []uuid.UUID
		added, removed   []uuid.UUID
		unchanged        int
	}{
		{"empty", nil, nil, nil, nil, 0},
		{"all new", nil, []uuid.UUID{a, b}, []uuid.UUID{a, b}, nil, 0},
		{"all removed", []uuid.UUID{a, b}, nil, nil, []uuid.UUID{a, b}, 0},
		{"mixed", []uuid.UUID{a, b, c}, []uuid.UUID{c, d, a}, []uuid.UUID{d}, []uuid.UUID{b}, 2},
		{"same set", []uuid.UUID{a, b}, []uuid.UUID{b, a}, nil, nil, 2},
		{"duplicates in desired count once", []uuid.UUID{a}, []uuid.UUID{a, a, b, b}, []uuid.UUID{b}, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			added, removed, unchanged := vendorlist.Diff(tt.current, tt.desired)
			if !reflect.DeepEqual(added, tt.added) || !reflect.DeepEqual(removed, tt.removed) || unchanged != tt.unchanged {
				t.Fatalf("Diff = %v, %v, %d; want %v, %v, %d", added, removed, unchanged, tt.added, tt.removed, tt.unchanged)
			}
		})
	}
}

func TestQuotaRemaining(t *testing.T) {
	t.Parallel()
	tests := []struct{ limit, used, want int }{
		{500, 0, 500}, {500, 499, 1}, {500, 500, 0}, {500, 600, 0}, {0, 0, 0},
	}
	for _, tt := range tests {
		q := vendorlist.QuotaReport{Limit: tt.limit, Used: tt.used}
		if got := q.Remaining(); got != tt.want {
			t.Errorf("Remaining(limit %d, used %d) = %d, want %d", tt.limit, tt.used, got, tt.want)
		}
	}
}
