package enrich

import (
	"slices"

	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
)

// legalName is the company's legal name as its home page states it: the
// JSON-LD Organization's legalName, else the organization of the site's
// certificate (OV and EV certificates carry one; DV certificates, most of
// the web's, none). The certificate's organization counts only when it
// begins with the vendor's name, word for word, once both lose their
// legal suffixes and punctuation ("Progress Software Corporation" for
// Progress, "Okta, Inc." for Okta): a site served under its host's or its
// CDN's certificate would otherwise give the vendor its host's legal name,
// and with it that company's filings. Empty when the page gives none.
func legalName(v vendors.Vendor, o org, page *Page) string {
	if n := plainName(o.LegalName); n != "" {
		return n
	}
	if page == nil || page.TLS == nil || len(page.TLS.PeerCertificates) == 0 {
		return ""
	}
	own := pageWords(v.Name.String())
	for _, certOrg := range page.TLS.PeerCertificates[0].Subject.Organization {
		n := plainName(certOrg)
		if words := pageWords(n); len(own) > 0 && len(words) >= len(own) && slices.Equal(words[:len(own)], own) {
			return n
		}
	}
	return ""
}

// plainName is s as plain text (trimmed, inner white space collapsed),
// or empty when it is not or is longer than a vendor name may be.
func plainName(s string) string {
	n, err := core.PlainText("LegalName", s, vendors.MaxNameLen)
	if err != nil {
		return ""
	}
	return n
}
