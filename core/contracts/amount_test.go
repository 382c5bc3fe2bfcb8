package contracts

import (
	"encoding/json"
	"testing"
)

func TestParseAmount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Amount
		ok   bool
	}{
		{"", "", true},
		{"0", "0", true},
		{"12000.50", "12000.5", true},
		{"0.1", "0.1", true},
		{"1.2e4", "12000", true},
		{"007", "7", true},
		{"999999999999999.9999", "999999999999999.9999", true},
		{"1.23456", "", false},
		{"-1", "", false},
		{"1e15", "", false},
		{"1/3", "", false},
		{"abc", "", false},
	} {
		got, err := ParseAmount(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseAmount(%q) = %q, %v; want %q, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestAmountJSONIsAnExactNumber(t *testing.T) {
	var v struct {
		A Amount `json:"a"`
	}
	if err := json.Unmarshal([]byte(`{"a": 12345678901234.1234}`), &v); err != nil || v.A != "12345678901234.1234" {
		t.Fatalf("read %q, %v", v.A, err)
	}
	b, _ := json.Marshal(v)
	if string(b) != `{"a":12345678901234.1234}` {
		t.Fatalf("wrote %s", b)
	}
	if err := json.Unmarshal([]byte(`{"a": "12"}`), &v); err == nil {
		t.Fatal("a string was read as an amount")
	}
	if err := json.Unmarshal([]byte(`{"a": null}`), &v); err != nil || v.A != "" {
		t.Fatalf("null read as %q, %v", v.A, err)
	}
	if b, _ := json.Marshal(v); string(b) != `{"a":null}` {
		t.Fatalf("none written as %s", b)
	}
}
