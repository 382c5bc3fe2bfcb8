package records

import (
	"net/url"
	"strings"

	"github.com/vetted-dev/vetted/core"
)

// The link rule. A record keeps four links to the vendor's documents: its
// trust page, data processing agreement, terms and service level
// agreement. Each is empty or an absolute http or https URL with a host, at
// most MaxLinkLength bytes, without white space; anything else is refused
// naming the link (links.dpa).
type Links struct {
	TrustPage string
	DPA       string
	Terms     string
	SLA       string
}

// MaxLinkLength bounds a link.
const MaxLinkLength = 2000

// LinkNames are the wire names of the links, in order.
func LinkNames() []string { return []string{"trust_page", "dpa", "terms", "sla"} }

// ref returns the field of l a wire name names, or nil.
func (l *Links) ref(name string) *string {
	switch name {
	case "trust_page":
		return &l.TrustPage
	case "dpa":
		return &l.DPA
	case "terms":
		return &l.Terms
	case "sla":
		return &l.SLA
	}
	return nil
}

// NormalizeLinks checks every link (trimmed) and names each bad one.
func NormalizeLinks(in Links) (Links, error) {
	var errs core.Fields
	out := in
	for _, name := range LinkNames() {
		p := out.ref(name)
		v, err := normalizeLink(patchField("links."+name), *p)
		if err != nil {
			errs.AddErr(err)
		}
		*p = v
	}
	return out, errs.Err()
}

func normalizeLink(field, raw string) (string, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", nil
	}
	if len(s) > MaxLinkLength {
		return "", core.Invalid(field, "must be at most %d characters", MaxLinkLength)
	}
	u, err := url.Parse(s)
	if err != nil || strings.ContainsAny(s, " \t\r\n") || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return "", core.Invalid(field, "must be an http or https URL (https://vendor.example/page) or empty")
	}
	return s, nil
}
