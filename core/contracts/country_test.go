package contracts

import "testing"

func TestParseCountry(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"", "", true},
		{"DE", "DE", true},
		{" gb ", "GB", true},
		{"us", "US", true},
		{"IE", "IE", true},
		{"EU", "", false},  // a grouping, not a country
		{"ZZ", "", false},  // unknown region
		{"UK", "", false},  // reserved, not the code of the United Kingdom
		{"DEU", "", false}, // alpha-3
		{"001", "", false}, // UN M.49 world
		{"D", "", false},
	} {
		got, err := ParseCountry(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseCountry(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
