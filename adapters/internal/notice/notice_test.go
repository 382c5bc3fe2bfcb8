package notice_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/notice"
	"github.com/vetted-dev/vetted/ports/stores"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	a, b := uuid.New(), uuid.New()
	many := make([]uuid.UUID, 300)
	for i := range many {
		many[i] = uuid.New()
	}
	for _, tt := range []struct {
		in      stores.Changed
		payload string
		want    stores.Changed
	}{
		{stores.Changed{Vendors: []uuid.UUID{a, b}}, a.String() + "," + b.String(), stores.Changed{Vendors: []uuid.UUID{a, b}}},
		{stores.Changed{All: true}, "*", stores.Changed{All: true}},
		{stores.Changed{Data: true}, "+", stores.Changed{Data: true}},
		{stores.Changed{Data: true, Vendors: []uuid.UUID{a}}, "+" + a.String(), stores.Changed{Data: true, Vendors: []uuid.UUID{a}}},
		{stores.Changed{Data: true, All: true}, "+*", stores.Changed{Data: true, All: true}},
		{stores.Changed{Data: true, Vendors: many}, "+*", stores.Changed{Data: true, All: true}},
		// One account's data only.
		{stores.Changed{Data: true, Accounts: []uuid.UUID{a}}, "+@" + a.String() + ";", stores.Changed{Data: true, Accounts: []uuid.UUID{a}}},
		{stores.Changed{Data: true, Accounts: []uuid.UUID{a, b}, Vendors: []uuid.UUID{b}}, "+@" + a.String() + "," + b.String() + ";" + b.String(),
			stores.Changed{Data: true, Accounts: []uuid.UUID{a, b}, Vendors: []uuid.UUID{b}}},
		{stores.Changed{Data: true, Accounts: []uuid.UUID{a}, All: true}, "+@" + a.String() + ";*", stores.Changed{Data: true, Accounts: []uuid.UUID{a}, All: true}},
		// Too many accounts to name: any account's data.
		{stores.Changed{Data: true, Accounts: many}, "+", stores.Changed{Data: true}},
		// Accounts without Data say nothing.
		{stores.Changed{Accounts: []uuid.UUID{a}, Vendors: []uuid.UUID{b}}, b.String(), stores.Changed{Vendors: []uuid.UUID{b}}},
	} {
		p := notice.Encode(tt.in)
		if p != tt.payload || len(p) > notice.MaxLen {
			t.Errorf("Encode(%+v) = %.60q, want %.60q", tt.in, p, tt.payload)
		}
		got, ok, err := notice.Decode(p)
		if err != nil || !ok || got.All != tt.want.All || got.Data != tt.want.Data || !slices.Equal(got.Vendors, tt.want.Vendors) ||
			!slices.Equal(got.Accounts, tt.want.Accounts) {
			t.Errorf("Decode(%.60q) = %+v, %v, %v; want %+v", p, got, ok, err, tt.want)
		}
	}
}

func TestDecodePingAndGarbage(t *testing.T) {
	t.Parallel()
	if _, ok, err := notice.Decode(""); ok || err != nil {
		t.Errorf("a ping: ok %v, err %v", ok, err)
	}
	for _, p := range []string{"nonsense", "+not-a-uuid", strings.Repeat(",", 3), "+@" + uuid.NewString(), "+@nope;", "+@;"} {
		got, ok, err := notice.Decode(p)
		if err == nil || !ok || !got.All || !got.Data {
			t.Errorf("Decode(%q) = %+v, %v, %v; want an error read as everything changed", p, got, ok, err)
		}
	}
}
