package contracts

import "testing"

func TestParseLEI(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"", "", true},
		{"5493001KJTIIGC8Y1R12", "5493001KJTIIGC8Y1R12", true}, // Bloomberg Finance L.P.
		{"7LTWFZYICNSX8D621K86", "7LTWFZYICNSX8D621K86", true}, // Deutsche Bank AG
		{" 7ltwfzyicnsx8d621k86 ", "7LTWFZYICNSX8D621K86", true},
		{"HWUPKR0MPOU8FGXBT394", "HWUPKR0MPOU8FGXBT394", true}, // Apple Inc.
		{"5493001KJTIIGC8Y1R13", "", false},                    // last check digit off by one
		{"5493001KJTIIGC8Y1R21", "", false},                    // check digits swapped
		{"5493001KJTIIGC8Y1R1", "", false},                     // 19 characters
		{"5493001KJTIIGC8Y1R123", "", false},                   // 21 characters
		{"5493001KJTIIGC8Y1-12", "", false},                    // not [0-9A-Z]
		{"5493001KJTIIGC8Y1RAB", "", false},                    // letters where the check digits go
	} {
		got, err := ParseLEI(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseLEI(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
