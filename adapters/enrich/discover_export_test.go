package enrich

import "net/url"

// The names and page markers of website discovery, for the external tests.

// DiscoveryCandidates are the domains Discover would try for name, most
// likely first.
func DiscoveryCandidates(name string, limit int, countryTLDs ...string) []string {
	var out []string
	for _, c := range parseVendorName(name).candidates(DiscoverPrefs{CountryTLDs: countryTLDs}, limit) {
		out = append(out, c.domain)
	}
	return out
}

// CompareNames scores a name found on a page against a vendor's name.
func CompareNames(vendor, page string) float64 {
	score, _ := compareNames(parseVendorName(vendor).match, pageWords(page))
	return score
}

// PageVerdict is what discovery makes of a page before reading its names
// for vendor: for_sale, parked, generic_page, or "".
func PageVerdict(vendor, body string) string {
	v := parseVendorName(vendor)
	v.candidates(DiscoverPrefs{}, DefaultDiscoverCandidates) // its labels
	m := parseHTML([]byte(body), &url.URL{Scheme: "https", Host: "candidate.test", Path: "/"})
	if verdict, _ := parkedPage([]byte(body), m, v); verdict != "" {
		return string(verdict)
	}
	if genericPage(m, strongGeneric) != "" {
		return string(VerdictGenericPage)
	}
	return ""
}
