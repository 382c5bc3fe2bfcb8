package sqlstore

import (
	"slices"
	"testing"
	"time"
)

func TestStatusesScan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		src  any
		want []string
		bad  bool
	}{
		{"NULL", nil, []string{}, false},
		{"empty array", "[]", []string{}, false},
		{"PostgreSQL's spacing, as bytes", []byte(`["done", null, "failed"]`), []string{"done", "", "failed"}, false},
		{"SQLite's, as text", `["done",null,"failed"]`, []string{"done", "", "failed"}, false},
		{"escapes", `["a\"b", "c\\d", "\u00e9"]`, []string{`a"b`, `c\d`, "é"}, false},
		{"spaces around", " [ \"x\" ] ", []string{"x"}, false},
		{"not an array", `{"a":1}`, nil, true},
		{"a number", `[1]`, nil, true},
		{"unterminated string", `["abc`, nil, true},
		{"unterminated array", `["abc"`, nil, true},
		{"missing comma", `["a" "b"]`, nil, true},
		{"not text", 42, nil, true},
	}
	var s dbStatuses // reused across rows, as the list read does
	for _, c := range cases {
		err := s.Scan(c.src)
		if c.bad {
			if err == nil {
				t.Fatalf("%s: scanned %q, want an error", c.name, s)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal([]string(s), c.want) {
			t.Fatalf("%s: got %q, want %q", c.name, s, c.want)
		}
	}
}

func TestTimeScan(t *testing.T) {
	t.Parallel()
	want := time.Date(2026, 11, 24, 23, 30, 1, 123456789, time.UTC)
	for _, src := range []any{want.In(time.FixedZone("x", 3600)), "2026-11-24T23:30:01.123456789Z", []byte("2026-11-24T23:30:01.123456789Z")} {
		var got dbTime
		if err := got.Scan(src); err != nil {
			t.Fatalf("%T: %v", src, err)
		}
		if !got.Equal(want) || got.Location() != time.UTC {
			t.Fatalf("%T: got %v, want %v in UTC", src, got.Time, want)
		}
	}
	var z dbTime
	if err := z.Scan(nil); err != nil || !z.IsZero() {
		t.Fatalf("NULL: %v %v", z.Time, err)
	}
	for _, bad := range []any{"yesterday", 7} {
		if err := z.Scan(bad); err == nil {
			t.Fatalf("%v scanned as a time", bad)
		}
	}
}
