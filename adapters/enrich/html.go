package enrich

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// meta is what a page says about itself.
type meta struct {
	Title         string
	Description   string
	OGSiteName    string
	OGDescription string
	OGImage       string
	Icons         []icon
	Links         []link
	Orgs          []org
	// Insecure is the active content the page loads over plain http
	// (activeHTTP).
	Insecure []string
	// Text is the page's visible text, whitespace collapsed.
	Text string
}

type icon struct {
	Rel  string // "apple-touch-icon", "icon", "shortcut icon", ...
	Href string // absolute
}

type link struct {
	Href string // absolute http(s)
	Text string // lower-case, collapsed
}

// org is a JSON-LD Organization (or subtype), reduced to what we keep.
type org struct {
	Name        string
	AltNames    []string
	LegalName   string // the first legalName, among AltNames too
	Description string
	FoundedYear *int
	Employees   *int
	Address     string
	Email       string
	SameAs      []string
	Logo        string
}

// parseHTML reads a page; base is the URL it was fetched from (a <base>
// element overrides it). Malformed HTML never fails: the parser recovers
// as browsers do.
func parseHTML(body []byte, base *url.URL) meta {
	var m meta
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		return m
	}
	var text strings.Builder
	var ldBlocks []string
	var walk func(n *html.Node, inBody bool)
	walk = func(n *html.Node, inBody bool) {
		if n.Type == html.ElementNode {
			m.insecure(n, base)
			switch n.DataAtom {
			case atom.Base:
				if b := resolve(base, attr(n, "href")); b != nil {
					base = b
				}
			case atom.Title:
				if m.Title == "" {
					m.Title = collapse(nodeText(n))
				}
				return
			case atom.Meta:
				m.addMeta(n)
			case atom.Link:
				rel := strings.ToLower(attr(n, "rel"))
				if strings.Contains(rel, "icon") {
					if u := resolve(base, attr(n, "href")); u != nil {
						m.Icons = append(m.Icons, icon{Rel: rel, Href: u.String()})
					}
				}
			case atom.A:
				if u := resolve(base, attr(n, "href")); u != nil {
					m.Links = append(m.Links, link{Href: u.String(), Text: strings.ToLower(collapse(nodeText(n)))})
				}
			case atom.Script:
				if strings.EqualFold(strings.TrimSpace(attr(n, "type")), "application/ld+json") {
					ldBlocks = append(ldBlocks, nodeText(n))
				}
				return
			case atom.Style, atom.Noscript, atom.Template:
				return
			case atom.Body:
				inBody = true
			}
		}
		if n.Type == html.TextNode && inBody {
			text.WriteString(n.Data)
			text.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inBody)
		}
	}
	walk(doc, false)
	m.Text = collapse(text.String())
	if u := resolve(base, m.OGImage); u != nil {
		m.OGImage = u.String()
	} else {
		m.OGImage = ""
	}
	for _, b := range ldBlocks {
		m.Orgs = append(m.Orgs, parseLD(b, base)...)
	}
	return m
}

func (m *meta) addMeta(n *html.Node) {
	key := strings.ToLower(attr(n, "property"))
	if key == "" {
		key = strings.ToLower(attr(n, "name"))
	}
	val := collapse(attr(n, "content"))
	if val == "" {
		return
	}
	set := func(dst *string) {
		if *dst == "" {
			*dst = val
		}
	}
	switch key {
	case "description":
		set(&m.Description)
	case "og:site_name":
		set(&m.OGSiteName)
	case "og:description":
		set(&m.OGDescription)
	case "og:image", "og:image:url", "og:image:secure_url":
		set(&m.OGImage)
	}
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, name) {
			return a.Val
		}
	}
	return ""
}

func nodeText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// resolve makes ref absolute against base and keeps only http(s) URLs.
func resolve(base *url.URL, ref string) *url.URL {
	ref = strings.TrimSpace(ref)
	if ref == "" || base == nil {
		return nil
	}
	u, err := base.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil
	}
	u.Fragment = ""
	return u
}

// orgTypes are schema.org types that describe a company.
var orgTypes = map[string]bool{
	"organization": true, "corporation": true, "onlinebusiness": true, "onlinestore": true,
	"localbusiness": true, "ngo": true, "educationalorganization": true, "governmentorganization": true,
}

// parseLD reads one JSON-LD block: an object, an array, or an @graph.
func parseLD(raw string, base *url.URL) []org {
	var v any
	if err := json.Unmarshal([]byte(strings.TrimSpace(raw)), &v); err != nil {
		return nil
	}
	var out []org
	var visit func(any)
	visit = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				visit(e)
			}
		case map[string]any:
			if g, ok := x["@graph"]; ok {
				visit(g)
			}
			if isOrg(x["@type"]) {
				out = append(out, toOrg(x, base))
			}
		}
	}
	visit(v)
	return out
}

func isOrg(t any) bool {
	for _, s := range strs(t) {
		if orgTypes[strings.ToLower(s)] {
			return true
		}
	}
	return false
}

func toOrg(x map[string]any, base *url.URL) org {
	o := org{
		Name:        str(x["name"]),
		Description: collapse(str(x["description"])),
		Email:       strings.TrimPrefix(str(x["email"]), "mailto:"),
		Address:     address(x["address"]),
	}
	legal := strs(x["legalName"])
	o.AltNames = append(strs(x["alternateName"]), legal...)
	if len(legal) > 0 {
		o.LegalName = legal[0]
	}
	if y := yearRe.FindString(str(x["foundingDate"])); y != "" {
		n, _ := strconv.Atoi(y)
		o.FoundedYear = &n
	}
	o.Employees = employees(x["numberOfEmployees"])
	for _, s := range strs(x["sameAs"]) {
		if u := resolve(base, s); u != nil {
			o.SameAs = append(o.SameAs, u.String())
		}
	}
	logo := x["logo"]
	if m, ok := logo.(map[string]any); ok {
		logo = m["url"]
	}
	if u := resolve(base, str(logo)); u != nil {
		o.Logo = u.String()
	}
	return o
}

var yearRe = regexp.MustCompile(`\b(1[6-9]\d\d|20\d\d)\b`)

// employees reads a number, a numeric string ("1,200", "500+") or a
// QuantitativeValue (value, else the upper or lower bound).
func employees(v any) *int {
	switch x := v.(type) {
	case float64:
		n := int(x)
		return &n
	case string:
		digits := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			if r == ',' || r == '.' || r == ' ' || r == '+' {
				return -1
			}
			return '|'
		}, x)
		first, _, _ := strings.Cut(digits, "|")
		if n, err := strconv.Atoi(first); err == nil {
			return &n
		}
	case map[string]any:
		for _, k := range []string{"value", "maxValue", "minValue"} {
			if n := employees(x[k]); n != nil {
				return n
			}
		}
	}
	return nil
}

// address renders a PostalAddress (or a plain string) as "City, Region,
// Country".
func address(v any) string {
	switch x := v.(type) {
	case string:
		return collapse(x)
	case []any:
		if len(x) > 0 {
			return address(x[0])
		}
	case map[string]any:
		var parts []string
		for _, k := range []string{"addressLocality", "addressRegion", "addressCountry"} {
			val := x[k]
			if m, ok := val.(map[string]any); ok {
				val = m["name"]
			}
			if s := collapse(str(val)); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", ")
	}
	return ""
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case []any:
		if len(x) > 0 {
			return str(x[0])
		}
	}
	return ""
}

func strs(v any) []string {
	switch x := v.(type) {
	case string:
		if s := strings.TrimSpace(x); s != "" {
			return []string{s}
		}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
		return out
	}
	return nil
}

// loadingRels are the <link> relations whose target the browser loads as
// active (blockable) content; canonical, alternate and other links load
// nothing, and icons are images (upgradable, not blocked).
var loadingRels = map[string]bool{"stylesheet": true, "preload": true, "modulepreload": true, "manifest": true, "import": true}

// insecure records an element that loads active content over plain http
// (W3C Mixed Content): <script src>, <iframe src>, or <link href> of a
// relation that loads something, resolved against the page (or its
// <base>), so a scheme-relative //host/x.js stays on https. Plain <a>
// links do not count, nor does what a <template> holds (the walk skips
// it). Each is kept once, as "<element> URL".
func (m *meta) insecure(n *html.Node, base *url.URL) {
	ref, what := "", ""
	switch n.DataAtom {
	case atom.Script:
		ref, what = attr(n, "src"), "<script src>"
	case atom.Iframe:
		ref, what = attr(n, "src"), "<iframe src>"
	case atom.Link:
		for rel := range strings.FieldsSeq(strings.ToLower(attr(n, "rel"))) {
			if loadingRels[rel] {
				ref, what = attr(n, "href"), "<link rel="+rel+" href>"
				break
			}
		}
	default:
		return
	}
	if u := resolve(base, ref); u != nil && u.Scheme == "http" {
		if e := what + " " + u.String(); !slices.Contains(m.Insecure, e) {
			m.Insecure = append(m.Insecure, e)
		}
	}
}

// activeHTTP lists the active content a page loads over plain http (see
// meta.insecure).
func activeHTTP(body []byte, base *url.URL) []string { return parseHTML(body, base).Insecure }
