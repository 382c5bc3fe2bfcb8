package contracts

import (
	"strings"

	"github.com/vetted-dev/vetted/core"
	"golang.org/x/text/currency"
)

// ParseCurrency checks an ISO 4217 currency code (three letters, any case,
// one the standard lists, golang.org/x/text/currency) and returns it upper
// case; empty means none and is allowed.
func ParseCurrency(raw string) (string, error) {
	s := strings.ToUpper(strings.TrimSpace(raw))
	if s == "" {
		return "", nil
	}
	if len(s) != 3 {
		return "", core.Invalid("Contract.Currency", "must be an ISO 4217 code such as EUR or USD")
	}
	u, err := currency.ParseISO(s)
	if err != nil || notMoney[s] {
		return "", core.Invalid("Contract.Currency", "%q is not an ISO 4217 currency code", s)
	}
	return u.String(), nil
}

// notMoney are the codes ISO 4217 lists that name no money a contract is
// paid in: "no currency" and the testing code.
var notMoney = map[string]bool{"XXX": true, "XTS": true}
