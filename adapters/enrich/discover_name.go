package enrich

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/vetted-dev/vetted/core/vendors"
)

// The names of website discovery: the candidate domains a vendor's name
// gives, and how closely a name on a page matches the vendor's.

// descriptiveWords are the words that end many company names but that a
// company's domain or site often leaves out ("Acme Labs" at acme.com,
// named "Acme" on its page). Legal suffixes (Inc, LLC, GmbH ...) are
// dropped before, by vendors.ParseName.
var descriptiveWords = map[string]bool{
	"labs": true, "lab": true, "technologies": true, "technology": true, "tech": true, "software": true, "systems": true,
	"solutions": true, "group": true, "holdings": true, "hq": true, "app": true, "apps": true, "ai": true, "io": true,
	"cloud": true, "digital": true, "online": true, "global": true, "international": true,
	// a name that is its domain ("Booking.com")
	"com": true, "net": true, "org": true,
}

// genericTLDs are tried for every vendor, with their weight (lower is
// more likely); the account's country TLDs come right after .com.
var genericTLDs = []struct {
	tld    string
	weight int
}{{"com", 0}, {"io", 2}, {"co", 3}, {"ai", 3}, {"dev", 4}, {"net", 4}, {"org", 4}}

const countryTLDWeight = 1

// domainPrefixes are the verbs a product adds in front of its name when
// the bare domain is taken, with their weight.
var domainPrefixes = []struct {
	prefix string
	weight int
}{{"get", 3}, {"try", 4}, {"use", 4}}

// vendorName is a vendor's name read for discovery.
type vendorName struct {
	display string
	// words are the name's words, ASCII-folded and lower-case; match the
	// same without "and" and a leading "the", for comparing with a page.
	words, match []string
	// literal is the name itself when it is a domain ("booking.com").
	literal string
	// labels are every label the candidates are made of: a redirect to one
	// of them, under any top-level domain, stays with the vendor.
	labels map[string]bool
	// german are the words with ä, ö, ü written ae, oe, ue (nil when the
	// name has none).
	german []string
}

func parseVendorName(raw string) *vendorName {
	display := strings.TrimSpace(raw)
	if n, err := vendors.ParseName(raw); err == nil {
		display = n.String()
	}
	v := &vendorName{display: display, words: nameWords(display, false), labels: map[string]bool{}}
	v.match = matchWords(v.words)
	if g := nameWords(display, true); !slices.Equal(g, v.words) {
		v.german = g
	}
	if lit := strings.ToLower(display); literalDomain.MatchString(lit) {
		v.literal = lit
	}
	return v
}

var (
	literalDomain = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)*\.[a-z]{2,}$`)
	// countryTLD is a preference's suffix ("de", "co.uk"); anything else
	// is ignored rather than asked of DNS.
	countryTLD = regexp.MustCompile(`^[a-z]{2,}(\.[a-z]{2,})?$`)
)

// candidate is a domain to try.
type candidate struct {
	domain string
}

// candidates are the domains to try, most likely first, at most limit:
// the name's words joined, without its descriptive last words, hyphenated,
// and behind get/try/use, each under .com, the account's country TLDs,
// .io, .co, .ai, .dev, .net and .org, ordered by the sum of the form's and
// the TLD's weights. A name that is itself a domain comes first.
func (v *vendorName) candidates(prefs DiscoverPrefs, limit int) []candidate {
	if len(v.words) == 0 {
		return nil // no letter or digit a domain could hold
	}
	type form struct {
		label  string
		weight int
	}
	var forms []form
	add := func(words []string, sep string, weight int) {
		label := strings.Join(words, sep)
		if !validLabel(label) {
			return
		}
		v.labels[label] = true
		for _, f := range forms {
			if f.label == label {
				return
			}
		}
		forms = append(forms, form{label, weight})
	}
	core, tail := splitDescriptive(v.words)
	add(v.words, "", 0)
	if len(tail) > 0 {
		add(core, "", 1)
	}
	if v.german != nil {
		gcore, _ := splitDescriptive(v.german)
		add(gcore, "", 2)
	}
	add(v.words, "-", 2)
	if len(tail) > 0 {
		add(core, "-", 3)
	}
	for _, p := range domainPrefixes {
		add(append([]string{p.prefix}, core...), "", p.weight)
	}
	type tld struct {
		name   string
		weight int
	}
	tlds := []tld{{genericTLDs[0].tld, genericTLDs[0].weight}}
	for _, c := range prefs.CountryTLDs {
		c = strings.ToLower(strings.Trim(strings.TrimSpace(c), "."))
		if countryTLD.MatchString(c) && !slices.ContainsFunc(tlds, func(t tld) bool { return t.name == c }) {
			tlds = append(tlds, tld{c, countryTLDWeight})
		}
	}
	for _, g := range genericTLDs[1:] {
		if !slices.ContainsFunc(tlds, func(t tld) bool { return t.name == g.tld }) {
			tlds = append(tlds, tld{g.tld, g.weight})
		}
	}
	type ranked struct {
		domain               string
		weight, form, tldPos int
	}
	var all []ranked
	for fi, f := range forms {
		for ti, t := range tlds {
			all = append(all, ranked{f.label + "." + t.name, f.weight + t.weight, fi, ti})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		if a.weight != b.weight {
			return a.weight - b.weight
		}
		if a.form != b.form {
			return a.form - b.form
		}
		return a.tldPos - b.tldPos
	})
	var out []candidate
	if v.literal != "" {
		out = append(out, candidate{v.literal})
		label, _, _ := strings.Cut(registrable(v.literal), ".")
		v.labels[label] = true
	}
	for _, r := range all {
		if len(out) >= limit {
			break
		}
		if r.domain != v.literal {
			out = append(out, candidate{r.domain})
		}
	}
	return out[:min(len(out), limit)]
}

// validLabel reports whether s can be a DNS label of a host name.
func validLabel(s string) bool {
	return s != "" && len(s) <= 63 && s[0] != '-' && s[len(s)-1] != '-'
}

// related reports whether host stays with the vendor when a candidate
// domain redirects to it: the same registrable domain, or one made of a
// label the vendor's candidates use ("acme.io" to "acme.com" or
// "getacme.com").
func (v *vendorName) related(host, domain string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == domain || strings.HasSuffix(host, "."+domain) || registrable(host) == registrable(domain) {
		return true
	}
	label, _, _ := strings.Cut(registrable(host), ".")
	return v.labels[label]
}

// splitDescriptive splits the descriptive words off the end of a name,
// keeping at least one word.
func splitDescriptive(words []string) (core, tail []string) {
	i := len(words)
	for i > 1 && descriptiveWords[words[i-1]] {
		i--
	}
	return words[:i], words[i:]
}

// nameWords are the words of a name, ASCII-folded and lower-case;
// apostrophes join ("McDonald's" is mcdonalds), every other character
// that is not a letter or digit separates. german writes ä, ö and ü as ae,
// oe and ue, as German domains do.
func nameWords(s string, german bool) []string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '\'' || r == '’':
		case r < 0x80:
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				b.WriteRune(r)
			} else {
				b.WriteByte(' ')
			}
		case german && (r == 'ä' || r == 'ö' || r == 'ü'):
			b.WriteString(foldRune(r) + "e")
		default:
			if f := foldRune(r); f != "" {
				b.WriteString(f)
			} else {
				b.WriteByte(' ')
			}
		}
	}
	return strings.Fields(b.String())
}

// matchWords leaves out the words that names drop or spell differently
// ("and" for "&", a leading "the").
func matchWords(words []string) []string {
	out := make([]string, 0, len(words))
	for i, w := range words {
		if w == "and" || (i == 0 && w == "the" && len(words) > 1) {
			continue
		}
		out = append(out, w)
	}
	return out
}

// folds maps the accented Latin letters of company names to ASCII.
var folds = func() map[rune]string {
	m := map[rune]string{}
	for ascii, letters := range map[string]string{
		"a": "àáâãäåāăą", "ae": "æ", "c": "çćĉċč", "d": "ďđð", "e": "èéêëēĕėęě", "g": "ĝğġģ", "h": "ĥħ",
		"i": "ìíîïĩīĭįı", "j": "ĵ", "k": "ķ", "l": "ĺļľŀł", "n": "ñńņň", "o": "òóôõöøōŏő", "oe": "œ", "r": "ŕŗř",
		"s": "śŝşšș", "ss": "ß", "t": "ţťŧț", "th": "þ", "u": "ùúûüũūŭůűų", "w": "ŵ", "y": "ýÿŷ", "z": "źżž",
	} {
		for _, r := range letters {
			m[r] = ascii
		}
	}
	return m
}()

// foldRune is r in ASCII, or "" when it has no ASCII form (it then
// separates words).
func foldRune(r rune) string { return folds[r] }

// Name match scores, before the weight of where the name was found.
const (
	scoreExact    = 1.0  // the same words
	scoreSpacing  = 0.95 // the same letters, spaced or hyphenated differently
	scoreSuffix   = 0.85 // the same but for descriptive last words one side lacks
	scorePartial  = 0.35 // one name is the other with more words ("Acme" and "Acme Rockets")
	scoreOneWord  = 0.3  // the same length but for one word ("Vertex Labs" and "Vertex Software")
	scoreLookLike = 0.3  // a letter or two apart ("Kestrel" and "Kestral")
	// titleWeight: a title says more than the name (a tagline, a page
	// name), so a name from it counts slightly less.
	titleWeight = 0.95
	// corroboration is added for each other place that names the vendor
	// (at least scoreSuffix).
	corroboration = 0.05
)

// nameKind says how a page's name relates to the vendor's.
type nameKind int

const (
	kindNone nameKind = iota
	kindLookLike
	kindOneWord
	kindLonger
	kindShorter
	kindSuffix
	kindSpacing
	kindExact
)

// compareNames scores page (a name's match words) against the vendor's.
func compareNames(vendor, page []string) (float64, nameKind) {
	if len(page) == 0 || len(vendor) == 0 {
		return 0, kindNone
	}
	if slices.Equal(vendor, page) {
		return scoreExact, kindExact
	}
	vj, pj := strings.Join(vendor, ""), strings.Join(page, "")
	if vj == pj {
		return scoreSpacing, kindSpacing
	}
	vc, vt := splitDescriptive(vendor)
	pc, pt := splitDescriptive(page)
	if strings.Join(vc, "") == strings.Join(pc, "") {
		if len(vt) == 0 || len(pt) == 0 {
			return scoreSuffix, kindSuffix
		}
		return scoreOneWord, kindOneWord
	}
	switch {
	case len(page) > len(vendor) && containsRun(page, vendor):
		return scorePartial, kindLonger
	case len(vendor) > len(page) && containsRun(vendor, page):
		return scorePartial, kindShorter
	}
	if d := levenshtein(vj, pj); d <= max(1, min(len(vj), len(pj))/5) {
		return scoreLookLike, kindLookLike
	}
	if len(vendor) == len(page) && len(vendor) > 1 {
		diff := 0
		for i := range vendor {
			if vendor[i] != page[i] {
				diff++
			}
		}
		if diff == 1 {
			return scoreOneWord, kindOneWord
		}
	}
	return 0, kindNone
}

// containsRun reports whether sub occurs in words as consecutive words.
func containsRun(words, sub []string) bool {
	for i := 0; i+len(sub) <= len(words); i++ {
		if slices.Equal(words[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// levenshtein is the edit distance of two ASCII strings.
func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// pageName is the closest a page came to naming the vendor.
type pageName struct {
	NameMatch
	confidence float64
	kind       nameKind
	// named is how many places on the page (title, og:site_name, JSON-LD,
	// certificate) gave a name at all.
	named int
}

// titleSeparators split a title into its parts ("Acme | Pricing",
// "Acme — Rockets for all", "Acme: home").
var titleSeparators = regexp.MustCompile(`\s*[|·•»]\s*|\s+[-–—:]+\s+|:\s+`)

// bestName finds where the page names the vendor most closely: its
// title (and each part of it), og:site_name, the JSON-LD Organization
// names and the certificate's organization. A name that is only the
// domain itself (a parked page's title) does not count.
func (v *vendorName) bestName(m meta, p *Page, domain string) pageName {
	type found struct {
		source MatchSource
		text   string
	}
	var names []found
	if m.Title != "" {
		names = append(names, found{MatchTitle, m.Title})
		if parts := titleSeparators.Split(m.Title, -1); len(parts) > 1 {
			for _, part := range parts[:min(len(parts), 6)] {
				names = append(names, found{MatchTitle, part})
			}
		}
	}
	names = append(names, found{MatchSiteName, m.OGSiteName})
	for _, o := range m.Orgs {
		names = append(names, found{MatchJSONLD, o.Name})
		for _, alt := range o.AltNames {
			names = append(names, found{MatchJSONLD, alt})
		}
	}
	if p.TLS != nil && len(p.TLS.PeerCertificates) > 0 {
		for _, org := range p.TLS.PeerCertificates[0].Subject.Organization {
			names = append(names, found{MatchCertificate, org})
		}
	}
	own := map[string]bool{hostWords(nameWords(domain, false)): true, hostWords(nameWords(p.URL.Hostname(), false)): true}
	var best pageName
	strong := map[MatchSource]bool{}
	sources := map[MatchSource]bool{}
	for _, n := range names {
		words := pageWords(n.text)
		if len(words) == 0 || own[hostWords(words)] {
			continue
		}
		sources[n.source] = true
		score, kind := compareNames(v.match, words)
		if score >= scoreSuffix {
			strong[n.source] = true
		}
		if n.source == MatchTitle {
			score *= titleWeight
		}
		if score > best.confidence || best.Text == "" && kind == kindNone {
			best = pageName{NameMatch: NameMatch{Source: n.source, Text: n.text}, confidence: score, kind: kind}
		}
	}
	if best.confidence >= scoreSuffix*titleWeight {
		best.confidence = min(1, best.confidence+corroboration*float64(len(strong)-1))
	}
	best.confidence = float64(int(best.confidence*100+0.5)) / 100
	best.named = len(sources)
	return best
}

// pageWords are the match words of a name found on a page, without its
// legal suffix and a leading "Welcome to".
func pageWords(text string) []string {
	text = strings.TrimSpace(text)
	if n, err := vendors.ParseName(text); err == nil {
		text = n.String()
	}
	words := nameWords(text, false)
	if len(words) > 2 && words[0] == "welcome" && words[1] == "to" {
		words = words[2:]
	}
	return matchWords(words)
}

// hostWords joins the words of a host name without a leading www, so
// that a page whose name is only its own host is recognised.
func hostWords(words []string) string {
	if len(words) > 1 && words[0] == "www" {
		words = words[1:]
	}
	return strings.Join(words, "")
}

// describe is the reason of a verdict on the page's names.
func (b pageName) describe(vendor string) string {
	where := fmt.Sprintf("%s %q", b.Source, b.Text)
	switch b.kind {
	case kindExact:
		return fmt.Sprintf("the %s names %s (confidence %.2f)", where, vendor, b.confidence)
	case kindSpacing:
		return fmt.Sprintf("the %s names %s, spaced differently (confidence %.2f)", where, vendor, b.confidence)
	case kindSuffix:
		return fmt.Sprintf("the %s names %s but for a descriptive word (confidence %.2f)", where, vendor, b.confidence)
	case kindLonger:
		return fmt.Sprintf("the %s has words %s lacks: another company's name (confidence %.2f)", where, vendor, b.confidence)
	case kindShorter:
		return fmt.Sprintf("the %s lacks words of %s (confidence %.2f)", where, vendor, b.confidence)
	case kindOneWord:
		return fmt.Sprintf("the %s differs from %s by a word (confidence %.2f)", where, vendor, b.confidence)
	case kindLookLike:
		return fmt.Sprintf("the %s is a look-alike of %s, not the same name (confidence %.2f)", where, vendor, b.confidence)
	}
	if b.named == 0 {
		return "the page gives no name: no title, og:site_name, JSON-LD Organization or certificate organization"
	}
	return fmt.Sprintf("the page does not name %s: its %s is the closest", vendor, where)
}

// Page markers of parked and for-sale domains: phrases, and the hosts of
// the parking and marketplace services a page loads or links to.
var (
	forSalePhrases = []string{"domain is for sale", "domain may be for sale", "domain name is for sale", "buy this domain",
		"make an offer on this domain", "this domain is available for purchase", "purchase this domain", "inquire about this domain"}
	parkedPhrases = []string{"this domain is parked", "domain parking", "parked free", "parked domain"}
	forSaleHosts  = []string{"dan.com", "afternic.com", "hugedomains.com", "sedo.com", "undeveloped.com", "brandbucket.com",
		"squadhelp.com", "atom.com", "efty.com", "buydomains.com"}
	parkingHosts = []string{"parkingcrew.net", "sedoparking.com", "bodis.com", "above.com", "parklogic.com", "domainsponsor.com",
		"cashparking.com", "skenzo.com", "rookmedia.net"}
	markerHosts = regexp.MustCompile(`(?:^|[^a-z0-9.-])(?:[a-z0-9-]+\.)*(` +
		strings.ReplaceAll(strings.Join(append(slices.Clone(forSaleHosts), parkingHosts...), "|"), ".", `\.`) + `)(?:[^a-z0-9-]|$)`)
)

// parkedPage says whether a page is a parking or for-sale page, and why.
// A marker that is the vendor's own name does not count (a parking
// company's own site names itself).
func parkedPage(body []byte, m meta, v *vendorName) (CandidateVerdict, string) {
	text := strings.ToLower(m.Title + " " + m.Text)
	for _, p := range forSalePhrases {
		if strings.Contains(text, p) {
			return VerdictForSale, fmt.Sprintf("the page offers the domain for sale (%q)", p)
		}
	}
	hosts := map[string]bool{}
	for _, sub := range markerHosts.FindAllSubmatch(bytes.ToLower(body), -1) {
		host := string(sub[1])
		if label, _, _ := strings.Cut(host, "."); !v.labels[label] {
			hosts[host] = true
		}
	}
	for _, h := range forSaleHosts {
		if hosts[h] {
			return VerdictForSale, fmt.Sprintf("the page links to the domain marketplace %s", h)
		}
	}
	for _, h := range parkingHosts {
		if hosts[h] {
			return VerdictParked, fmt.Sprintf("the page loads or links to the parking service %s", h)
		}
	}
	for _, p := range parkedPhrases {
		if strings.Contains(text, p) {
			return VerdictParked, fmt.Sprintf("the page says the domain is parked (%q)", p)
		}
	}
	return "", ""
}

// Generic pages: the default pages of web servers and hosting panels,
// refused whatever else they say, and placeholders, refused unless they
// name the vendor.
var (
	strongGeneric = []string{"welcome to nginx", "welcome to openresty", "welcome to caddy", "apache2 ubuntu default page",
		"apache2 debian default page", "test page for the apache http server", "test page for the nginx http server",
		"it works!", "iis windows server", "internet information services", "default web site page",
		"future home of something quite cool", "domain default page", "web server's default page", "index of /",
		"site not found", "account suspended", "this account has been suspended"}
	placeholders = []string{"coming soon", "under construction", "launching soon"}
)

// genericPage returns the first marker of the page's title or the start
// of its text, or "".
func genericPage(m meta, markers []string) string {
	title := strings.ToLower(m.Title)
	text := strings.ToLower(m.Text[:min(len(m.Text), 300)])
	for _, mk := range markers {
		if strings.Contains(title, mk) || strings.HasPrefix(text, mk) || strings.Contains(text, mk) && len(m.Text) < 300 {
			return mk
		}
	}
	return ""
}
