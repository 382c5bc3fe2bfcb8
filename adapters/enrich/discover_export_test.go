package enrich

// The names of website discovery, for the external tests.

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
