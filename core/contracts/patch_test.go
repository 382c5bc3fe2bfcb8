package contracts

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
)

func TestApply(t *testing.T) {
	vendor := uuid.New()
	// Monthly from 31 January, auto-renewing: on 1 April it shows 31 March
	// to 29 April.
	c := Contract{ID: uuid.New(), Terms: Terms{VendorID: vendor, Start: day("2026-01-31"), End: day("2026-02-27"), AutoRenew: true,
		AnnualValue: "10.5", Currency: "EUR", Services: []ServiceEntry{}}}
	today := day("2026-04-01")
	shown := c.Terms
	shown.Start, shown.End = day("2026-03-31"), day("2026-04-29")
	asRead, _ := json.Marshal(shown.Input())
	var back map[string]json.RawMessage
	_ = json.Unmarshal(asRead, &back)
	back["state"] = json.RawMessage(`"notice_due"`)
	back["notice_deadline"] = json.RawMessage(`"2026-04-29"`)
	for _, tc := range []struct {
		name       string
		patch      map[string]json.RawMessage
		start, end string
		value      Amount
		field      string
	}{
		{"what GET showed keeps the stored dates", back, "2026-01-31", "2026-02-27", "10.5", ""},
		{"an empty patch keeps them too", map[string]json.RawMessage{}, "2026-01-31", "2026-02-27", "10.5", ""},
		{"a new end date is taken", map[string]json.RawMessage{"end_date": json.RawMessage(`"2026-05-31"`)}, "2026-03-31", "2026-05-31", "10.5", ""},
		{"null clears", map[string]json.RawMessage{"annual_value": json.RawMessage(`null`)}, "2026-01-31", "2026-02-27", "", ""},
		{"an exact value", map[string]json.RawMessage{"annual_value": json.RawMessage(`0.1`)}, "2026-01-31", "2026-02-27", "0.1", ""},
		{"an unknown key is named", map[string]json.RawMessage{"colour": json.RawMessage(`"red"`)}, "", "", "", "Patch.colour"},
		{"a wrong type is named", map[string]json.RawMessage{"notice_period_days": json.RawMessage(`"ten"`)}, "", "", "", "notice_period_days"},
		{"a rule is checked", map[string]json.RawMessage{"lei": json.RawMessage(`"X"`)}, "", "", "", "Contract.LEI"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Apply(c, today, tc.patch)
			if tc.field != "" {
				var ce *core.Error
				if !errors.As(err, &ce) || ce.Field != tc.field {
					t.Fatalf("error %v, want one on %s", err, tc.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Start.Format(time.DateOnly) != tc.start || got.End.Format(time.DateOnly) != tc.end || got.AnnualValue != tc.value {
				t.Fatalf("got %s..%s %q", got.Start.Format(time.DateOnly), got.End.Format(time.DateOnly), got.AnnualValue)
			}
		})
	}
}
