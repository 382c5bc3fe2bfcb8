package contracts

import (
	"math/big"
	"strings"

	"github.com/vetted-dev/vetted/core"
)

// Bounds of an annual value: at most MaxAmountScale digits after the point
// (ISO 4217 minor units go to 4, e.g. CLF) and less than 10^15.
const MaxAmountScale = 4

var amountLimit = new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(15), nil))

// Amount is an exact, non-negative decimal number kept as its canonical
// decimal text ("12000.5": no exponent, no leading zeros, no trailing
// zeros after the point, no point when whole); "" means none. It is never
// a float, so 0.1 stays 0.1.
type Amount string

// ParseAmount reads a decimal number as JSON or a person writes it
// ("12000.50", "1.2e4", "7") and returns its canonical text; empty means
// none. Negative values, more than MaxAmountScale decimals and values of
// 10^15 or more are refused.
func ParseAmount(raw string) (Amount, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", nil
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || strings.ContainsAny(s, "/") {
		return "", core.Invalid("Contract.AnnualValue", "must be a decimal number")
	}
	if r.Sign() < 0 {
		return "", core.Invalid("Contract.AnnualValue", "must not be negative")
	}
	if r.Cmp(amountLimit) >= 0 {
		return "", core.Invalid("Contract.AnnualValue", "must be less than 10^15")
	}
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt64(10000))
	if !scaled.IsInt() {
		return "", core.Invalid("Contract.AnnualValue", "must have at most %d decimals", MaxAmountScale)
	}
	text := r.FloatString(MaxAmountScale)
	text = strings.TrimRight(text, "0")
	text = strings.TrimSuffix(text, ".")
	return Amount(text), nil
}

// MarshalJSON writes the amount as a JSON number, or null when none.
func (a Amount) MarshalJSON() ([]byte, error) {
	if a == "" {
		return []byte("null"), nil
	}
	return []byte(a), nil
}

// UnmarshalJSON reads a JSON number exactly (null for none); a string is
// refused, so the wire has one spelling.
func (a *Amount) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		*a = ""
		return nil
	}
	if s == "" || s[0] == '"' {
		return core.Invalid("Contract.AnnualValue", "must be a JSON number")
	}
	v, err := ParseAmount(s)
	if err != nil {
		return err
	}
	*a = v
	return nil
}
