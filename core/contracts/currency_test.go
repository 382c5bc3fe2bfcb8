package contracts

import "testing"

func TestParseCurrency(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"", "", true},
		{"EUR", "EUR", true},
		{" usd ", "USD", true},
		{"jpy", "JPY", true},
		{"CHF", "CHF", true},
		{"XXX", "", false}, // ParseISO accepts it; it means "no currency": refused below
		{"EURO", "", false},
		{"EU", "", false},
		{"ABC", "", false},
		{"€", "", false},
	} {
		got, err := ParseCurrency(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseCurrency(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
