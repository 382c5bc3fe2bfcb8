package contracts

import (
	"strings"

	"github.com/vetted-dev/vetted/core"
	"golang.org/x/text/language"
)

// ParseCountry checks a governing law's country: an ISO 3166-1 alpha-2
// code of a country (golang.org/x/text/language ParseRegion, then
// IsCountry, which refuses groupings such as EU and private-use codes such
// as ZZ; UK, which ISO 3166-1 only reserves, is refused too: the United
// Kingdom is GB), returned upper case; empty means unknown and is allowed.
func ParseCountry(raw string) (string, error) {
	s := strings.ToUpper(strings.TrimSpace(raw))
	if s == "" {
		return "", nil
	}
	if len(s) != 2 {
		return "", core.Invalid("Contract.GoverningLaw", "must be an ISO 3166-1 alpha-2 country code such as DE or US")
	}
	r, err := language.ParseRegion(s)
	if err != nil || !r.IsCountry() || r.String() != s || s == "UK" {
		return "", core.Invalid("Contract.GoverningLaw", "%q is not an ISO 3166-1 alpha-2 country code", s)
	}
	return s, nil
}
