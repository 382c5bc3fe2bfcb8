package notice_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/notice"
	"github.com/vetted-dev/vetted/ports"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	a, b := uuid.New(), uuid.New()
	many := make([]uuid.UUID, 300)
	for i := range many {
		many[i] = uuid.New()
	}
	for _, tt := range []struct {
		in      ports.Changed
		payload string
		want    ports.Changed
	}{
		{ports.Changed{Vendors: []uuid.UUID{a, b}}, a.String() + "," + b.String(), ports.Changed{Vendors: []uuid.UUID{a, b}}},
		{ports.Changed{All: true}, "*", ports.Changed{All: true}},
		{ports.Changed{Data: true}, "+", ports.Changed{Data: true}},
		{ports.Changed{Data: true, Vendors: []uuid.UUID{a}}, "+" + a.String(), ports.Changed{Data: true, Vendors: []uuid.UUID{a}}},
		{ports.Changed{Data: true, All: true}, "+*", ports.Changed{Data: true, All: true}},
		{ports.Changed{Data: true, Vendors: many}, "+*", ports.Changed{Data: true, All: true}},
	} {
		p := notice.Encode(tt.in)
		if p != tt.payload || len(p) > notice.MaxLen {
			t.Errorf("Encode(%+v) = %.60q, want %.60q", tt.in, p, tt.payload)
		}
		got, ok, err := notice.Decode(p)
		if err != nil || !ok || got.All != tt.want.All || got.Data != tt.want.Data || !slices.Equal(got.Vendors, tt.want.Vendors) {
			t.Errorf("Decode(%.60q) = %+v, %v, %v; want %+v", p, got, ok, err, tt.want)
		}
	}
}

func TestDecodePingAndGarbage(t *testing.T) {
	t.Parallel()
	if _, ok, err := notice.Decode(""); ok || err != nil {
		t.Errorf("a ping: ok %v, err %v", ok, err)
	}
	for _, p := range []string{"nonsense", "+not-a-uuid", strings.Repeat(",", 3)} {
		got, ok, err := notice.Decode(p)
		if err == nil || !ok || !got.All || !got.Data {
			t.Errorf("Decode(%q) = %+v, %v, %v; want an error read as everything changed", p, got, ok, err)
		}
	}
}
