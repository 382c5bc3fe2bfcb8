package lists_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/lists"
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
		got, err := lists.ParseName("product_name", tt.in)
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
	l, err := lists.New(id, acct, "  Tier  1 ", now)
	if err != nil {
		t.Fatal(err)
	}
	if l.ID != id || l.AccountID != acct || l.Name != "Tier 1" || l.VendorCount != 0 || l.CreatedAt.Location() != time.UTC || !l.CreatedAt.Equal(now) {
		t.Fatalf("New = %+v", l)
	}
	if _, err := lists.New(id, acct, "", now); !errors.Is(err, core.ErrInvalid) || !strings.Contains(err.Error(), "List.Name") {
		t.Fatalf("empty list name: err = %v, want ErrInvalid on List.Name", err)
	}
	p, err := lists.NewProduct(id, id, acct, " Slack  Enterprise ", now)
	if err != nil || p.Name != "Slack Enterprise" {
		t.Fatalf("NewProduct = %+v, %v", p, err)
	}
	if _, err := lists.NewProduct(id, id, acct, "", now); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("empty product name: err = %v, want ErrInvalid", err)
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
			added, removed, unchanged := lists.Diff(tt.current, tt.desired)
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
		q := lists.QuotaReport{Limit: tt.limit, Used: tt.used}
		if got := q.Remaining(); got != tt.want {
			t.Errorf("Remaining(limit %d, used %d) = %d, want %d", tt.limit, tt.used, got, tt.want)
		}
	}
}
