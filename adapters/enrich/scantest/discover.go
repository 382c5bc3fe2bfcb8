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
