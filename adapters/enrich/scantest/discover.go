package scantest

import (
	"encoding/json"
	"html"
)

// The sites of the discovery world: a vendor's own site, and the pages a
// domain that is not a vendor's shows (a parking or for-sale page, a
// server's default page, a redirect elsewhere). Each is a plain HTTPS site
// with a certificate from the test CA, so only its page (or its zone) tells
// it apart.

// Company is a vendor's own site: a home page with head in its <head>
// (a title, OpenGraph tags, JSON-LD) and a short body.
func Company(domain, head string) Site {
	return Site{Domain: domain, Home: "<!doctype html><html><head>" + head + "</head><body><h1>Welcome</h1>" +
		"<p>Products, pricing and the people behind them.</p><a href=\"/legal/privacy\">Privacy</a></body></html>"}
}

// ParkedNS is a domain delegated to the name servers of a parking service
// (ns1. and ns2. of parking), whatever its page says: here it names the
// domain's obvious owner, so that only the zone gives it away.
func ParkedNS(domain, parking, head string) Site {
	s := Company(domain, head)
	s.NS = []string{"ns1." + parking, "ns2." + parking}
	return s
}

// ParkingPage is a parked domain's page of advertising links, with the
// parking service's script and no name but the domain's.
func ParkingPage(domain string) Site {
	return Site{Domain: domain, NS: []string{"ns1." + domain, "ns2." + domain}, Home: `<!doctype html><html><head><title>` + domain + `</title>
<script src="https://www.parkingcrew.net/js/parking.2.js"></script></head><body><h1>` + domain + `</h1>
<h2>Related Searches</h2><ul><li><a href="/search?q=insurance">Insurance</a></li><li><a href="/search?q=loans">Loans</a></li></ul>
</body></html>`}
}

// ForSale is a domain offered for sale through a marketplace.
func ForSale(domain string) Site {
	return Site{Domain: domain, Home: `<!doctype html><html><head><title>` + domain + ` is for sale</title></head><body>
<h1>The domain name ` + domain + ` is for sale!</h1><p>Buy this domain today with a secure transfer.</p>
<a href="https://dan.com/buy-domain/` + domain + `">Buy now</a> <a href="https://dan.com/make-offer/` + domain + `">Make an offer</a>
</body></html>`}
}

// NginxDefault is the page a fresh nginx install serves.
func NginxDefault(domain string) Site {
	return Site{Domain: domain, Headers: map[string]string{"Server": "nginx/1.24.0"}, Home: `<!DOCTYPE html>
<html><head><title>Welcome to nginx!</title></head><body><h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and working. Further configuration is required.</p>
<p><em>Thank you for using nginx.</em></p></body></html>`}
}

// ComingSoon is a placeholder page that names no one.
func ComingSoon(domain string) Site {
	return Site{Domain: domain, Home: `<!doctype html><html><head><title>Coming Soon</title></head><body>
<h1>Something great is coming soon</h1><p>Our website is under construction.</p></body></html>`}
}

// RedirectTo is a domain that sends every visitor to target (a URL).
func RedirectTo(domain, target string) Site {
	return Site{Domain: domain, Redirect: target}
}

// Title is a <head> with a title only.
func Title(title string) string { return "<title>" + html.EscapeString(title) + "</title>" }

// SiteName is a <head> with a title and og:site_name.
func SiteName(title, siteName string) string {
	return Title(title) + `<meta property="og:site_name" content="` + html.EscapeString(siteName) + `">`
}

// OrgLD is a <head> with a title and a JSON-LD Organization named name.
func OrgLD(title, name string) string {
	ld, err := json.Marshal(struct {
		Context string `json:"@context"`
		Type    string `json:"@type"`
		Name    string `json:"name"`
		URL     string `json:"url"`
	}{"https://schema.org", "Organization", name, "/"})
	if err != nil {
		panic(err) // strings always marshal
	}
	return Title(title) + `<script type="application/ld+json">` + string(ld) + `</script>`
}

// DiscoveryWorld is the loopback world of website discovery: vendors' own
// sites under .com, .io, .de, hyphenated, behind "get" and "try", and the
// decoys a guessed domain runs into. Its zone answers for these names
// only, so every other candidate is NXDOMAIN, as most guesses are.
func DiscoveryWorld() []Site {
	corvid := Company("corvid.com", SiteName("Corvid", "Corvid"))
	corvid.CertOrg = "Corvid Labs, Inc."
	plainview := Company("plainview.com", Title("Plainview"))
	plainview.TLS, plainview.HTTP = TLSNone, HTTPServe
	selfsigned := Company("selfie.com", Title("Selfie"))
	selfsigned.TLS = TLSSelfSigned
	return []Site{
		Company("zentrix.com", Title("Zentrix | Vendor risk analytics")),
		RedirectTo("quillbyte.com", "https://quillbyte.io/"),
		Company("quillbyte.io", SiteName("Home", "Quillbyte")),
		Company("blue-harbor.com", OrgLD("Shipping insights", "Blue Harbor")),
		ParkedNS("pallas.com", "sedoparking.com", Title("Pallas")),
		Company("getpallas.com", Title("Pallas — Payroll for teams")),
		corvid,
		ForSale("driftwood.com"),
		Company("trydriftwood.com", Title("Driftwood")),
		ParkingPage("marlow.com"),
		RedirectTo("halcyonpay.com", "https://megacorp-holdings.com/brands/halcyon"),
		Company("vertexlabs.io", Title("Vertex Labs")),
		Company("vertex.com", SiteName("Vertex Software | Accounting", "Vertex Software")),
		Company("orbit.com", Title("Orbit Rockets | Launch services")),
		Company("orbit.io", Title("Orbit | Observability")),
		Company("kestrel.com", SiteName("Kestral", "Kestral")),
		NginxDefault("tessellate.com"),
		ComingSoon("sundial.com"),
		plainview,
		{Domain: "slowpoke.com", DNS: DNSTimeout},
		RedirectTo("ironclad.com", "http://ironclad.com/home"),
		selfsigned,
		Company("brauhaus.de", Title("Brauhaus GmbH")),
		Company("fjordhaus.com", Title("Fjördhaus")),
	}
}

// DiscoveryVendor is a vendor of DiscoveryWorld and the website its
// discovery must find ("" when none: it needs a website).
type DiscoveryVendor struct {
	Name    string
	Website string
	// CountryTLDs are the country domains to prefer ("de" for Brauhaus).
	CountryTLDs []string
}

// DiscoveryVendors are the vendors of DiscoveryWorld with the websites
// they must get: clear picks, parked and for-sale decoys, look-alikes,
// unrelated redirects, two vendors whose names differ by one word, and
// names with no domain at all.
func DiscoveryVendors() []DiscoveryVendor {
	return []DiscoveryVendor{
		{Name: "Zentrix", Website: "https://zentrix.com/"},
		{Name: "Quillbyte", Website: "https://quillbyte.io/"},
		{Name: "Blue Harbor", Website: "https://blue-harbor.com/"},
		{Name: "Pallas", Website: "https://getpallas.com/"},
		{Name: "Corvid Labs, Inc.", Website: "https://corvid.com/"},
		{Name: "Driftwood", Website: "https://trydriftwood.com/"},
		{Name: "Brauhaus GmbH", Website: "https://brauhaus.de/", CountryTLDs: []string{"de"}},
		{Name: "Fjördhaus", Website: "https://fjordhaus.com/"},
		{Name: "Vertex Labs", Website: "https://vertexlabs.io/"},
		{Name: "Vertex Software", Website: "https://vertex.com/"},
		{Name: "Orbit", Website: "https://orbit.io/"},
		{Name: "Marlow"},
		{Name: "Halcyon Pay"},
		{Name: "Kestrel"},
		{Name: "Tessellate"},
		{Name: "Sundial"},
		{Name: "Plainview"},
		{Name: "Ironclad"},
		{Name: "Selfie"},
		{Name: "Slowpoke"},
		{Name: "Qwertyuiop Zzyzx"},
	}
}
