package vendors

import (
	"strings"

	"github.com/vetted-dev/vetted/core"
)

// VendorRef is a vendor named in a request: a name and an optional website.
type VendorRef struct {
	Name       Name
	WebsiteURL string // normalized (NormalizeWebsite), or empty
	Domain     string // the website's registrable domain, or empty
	// Given is the name as the request gave it, spaces collapsed: what a
	// list shows for the vendor, while Name is what it is matched on.
	Given string
}

// ParseRefs validates the vendors of a save-vendors body, dropping duplicates
// (same canonical name, case-insensitive; the first website wins).
func ParseRefs(names, websites []string) ([]VendorRef, error) {
	var errs core.Fields
	seen := map[string]int{}
	out := make([]VendorRef, 0, len(names))
	for i, raw := range names {
		n, err := ParseName(raw)
		if err != nil {
			errs.AddErr(core.Nest(err, core.Index("Vendors", i)))
			continue
		}
		w, d := "", ""
		if i < len(websites) && websites[i] != "" {
			w, d, err = NormalizeWebsite(websites[i])
			if err != nil {
				errs.AddErr(core.Nest(err, core.Index("Vendors", i)))
				continue
			}
		}
		if j, dup := seen[n.Key()]; dup {
			if out[j].WebsiteURL == "" {
				out[j].WebsiteURL, out[j].Domain = w, d
			}
			continue
		}
		seen[n.Key()] = len(out)
		out = append(out, VendorRef{Name: n, WebsiteURL: w, Domain: d, Given: strings.Join(strings.Fields(raw), " ")})
	}
	return out, errs.Err()
}
