package assessments

import (
	"strings"

	"github.com/vetted-dev/vetted/core"
)

// Tier is how critical a vendor is to an organization: it sets how often the
// vendor is reviewed again. The empty tier is "not tiered".
type Tier string

// The tiers, most critical first.
const (
	Critical Tier = "critical"
	High     Tier = "high"
	Medium   Tier = "medium"
	Low      Tier = "low"
	Untiered Tier = ""
)

// TierValues lists the tiers that may be set (the empty tier clears it).
func TierValues() []string { return []string{"critical", "high", "medium", "low"} }

// ParseTier validates a tier, ignoring case and surrounding blanks; the
// empty string is Untiered.
func ParseTier(s string) (Tier, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return Untiered, nil
	}
	for _, v := range TierValues() {
		if s == v {
			return Tier(v), nil
		}
	}
	return "", core.Invalid("Input.Tier", "%q is not one of: %s (or empty: not tiered)", s, strings.Join(TierValues(), ", "))
}

// String returns the wire value ("" when not tiered).
func (t Tier) String() string { return string(t) }
