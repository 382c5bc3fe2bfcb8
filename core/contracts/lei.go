package contracts

import (
	"strings"

	"github.com/vetted-dev/vetted/core"
)

// ParseLEI checks a Legal Entity Identifier (ISO 17442): 20 characters of
// [0-9A-Z] whose last two are ISO 7064 MOD 97-10 check digits, so that the
// whole string, letters read as numbers (A=10 .. Z=35), is 1 modulo 97.
// Lower case is upper-cased and surrounding space trimmed; empty means
// unknown and is allowed.
func ParseLEI(raw string) (string, error) {
	s := strings.ToUpper(strings.TrimSpace(raw))
	if s == "" {
		return "", nil
	}
	if len(s) != 20 {
		return "", core.Invalid("Contract.LEI", "must be 20 characters (ISO 17442), not %d", len(s))
	}
	rem := 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A') + 10) % 97
		default:
			return "", core.Invalid("Contract.LEI", "must be letters A-Z and digits only")
		}
	}
	if s[18] < '0' || s[18] > '9' || s[19] < '0' || s[19] > '9' {
		return "", core.Invalid("Contract.LEI", "must end in two check digits")
	}
	if rem != 1 {
		return "", core.Invalid("Contract.LEI", "check digits do not match (ISO 7064 MOD 97-10)")
	}
	return s, nil
}
