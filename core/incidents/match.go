package incidents

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// The rules by which an item matches a vendor.
const (
	RuleKEVVendor    = "kev_vendor_project" // KEV vendorProject equals a name of the vendor
	RuleBreachDomain = "breach_domain"      // the breach's domain is the vendor's or a subdomain
	RuleFilingFiler  = "filing_filer"       // an item 1.05 filing by the vendor
	RuleNewsName     = "news_named"         // a security story names the vendor
)

// Match is the evidence that an item concerns a vendor.
type Match struct {
	Rule        string  `json:"rule"`
	MatchedText string  `json:"matched_text"`
	Confidence  float64 `json:"confidence"`
}

// VendorMatch is one vendor an item concerns, with the evidence.
type VendorMatch struct {
	VendorID uuid.UUID
	Vendor   string
	Match    Match
	// AffectedService is the KEV entry's product, empty for other sources.
	AffectedService string
}

// Result is what the matcher makes of one item: the vendors it concerns,
// and apart from them the near misses, for a person to confirm or dismiss.
type Result struct {
	Matches  []VendorMatch
	Possible []VendorMatch
}

// The confidences of each kind of evidence.
const (
	confExact     = 0.95 // KEV vendor, exact breach domain, 1.05 filer
	confSubdomain = 0.9  // breach on a subdomain of the vendor's
	confNamed     = 0.9  // a name that is no ordinary word, with a security term
	confSignal    = 0.8  // an ambiguous name with a second signal and a security term
	confNoTerm    = 0.5  // possible: named, but no security term
	confNoSignal  = 0.4  // possible: an ambiguous name with a security term, no second signal
)

// Matcher applies the matching rule to items against a fixed directory.
// Build it again when the directory's names change.
type Matcher struct {
	cands    []Candidate
	byName   map[string][]int32 // FoldName of canonical, aliases, legal name
	byDomain map[string][]int32
	index    NameIndex
}

// NewMatcher folds the candidates' names and builds the name index with
// build.
func NewMatcher(cands []Candidate, build BuildNameIndex) (*Matcher, error) {
	m := &Matcher{
		cands:    cands,
		byName:   make(map[string][]int32, len(cands)*2),
		byDomain: make(map[string][]int32, len(cands)),
	}
	add := func(idx map[string][]int32, key string, i int32) {
		if key == "" || slices.Contains(idx[key], i) {
			return
		}
		idx[key] = append(idx[key], i)
	}
	for i, c := range cands {
		n := int32(i)
		add(m.byName, FoldName(c.CanonicalName), n)
		for _, a := range c.Aliases {
			add(m.byName, FoldName(a), n)
		}
		add(m.byName, FoldName(c.LegalName), n)
		add(m.byDomain, normalizeDomain(c.Domain), n)
	}
	names := make([]string, 0, len(m.byName))
	for name := range m.byName {
		names = append(names, name)
	}
	slices.Sort(names)
	idx, err := build(names)
	if err != nil {
		return nil, fmt.Errorf("incidents: build the name index: %w", err)
	}
	m.index = idx
	return m, nil
}

func (m *Matcher) vendorMatch(i int32, rule, text string, conf float64) VendorMatch {
	c := m.cands[i]
	return VendorMatch{VendorID: c.ID, Vendor: c.CanonicalName,
		Match: Match{Rule: rule, MatchedText: text, Confidence: conf}}
}

// KEV matches an entry whose vendorProject, folded, equals a vendor's
// canonical name, alias or legal name, folded; the product becomes the
// affected service.
func (m *Matcher) KEV(e KEVEntry) Result {
	var r Result
	for _, i := range m.byName[FoldName(e.VendorProject)] {
		vm := m.vendorMatch(i, RuleKEVVendor, fmt.Sprintf("vendorProject %q", e.VendorProject), confExact)
		vm.AffectedService = strings.TrimSpace(e.Product)
		r.Matches = append(r.Matches, vm)
	}
	return r
}

// Breach matches an entry whose domain is a vendor's registrable domain or
// a subdomain of it. An entry without a domain matches nothing.
func (m *Matcher) Breach(b Breach) Result {
	var r Result
	d := normalizeDomain(b.Domain)
	for cur := d; cur != ""; {
		conf := confExact
		if cur != d {
			conf = confSubdomain
		}
		for _, i := range m.byDomain[cur] {
			r.Matches = append(r.Matches, m.vendorMatch(i, RuleBreachDomain, fmt.Sprintf("domain %q", b.Domain), conf))
		}
		_, rest, ok := strings.Cut(cur, ".")
		if !ok || !strings.Contains(rest, ".") {
			break // no single-label suffix: "com" is nobody's domain
		}
		cur = rest
	}
	return r
}

// normalizeDomain lowers a domain and drops a leading "www." and a trailing
// dot.
func normalizeDomain(d string) string {
	d = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
	return strings.TrimPrefix(d, "www.")
}

// Filing matches a filing that reports item 1.05 and whose filer, folded,
// is a vendor's legal name, canonical name or alias, folded.
func (m *Matcher) Filing(f Filing) Result {
	var r Result
	if !slices.ContainsFunc(f.Items, isItem105) {
		return r
	}
	filer, _, _ := strings.Cut(f.FilerName, " /") // EDGAR's state marker: "Clorox Co /DE/"
	for _, i := range m.byName[FoldName(filer)] {
		r.Matches = append(r.Matches, m.vendorMatch(i, RuleFilingFiler, fmt.Sprintf("filer %q, item 1.05", f.FilerName), confExact))
	}
	return r
}

// isItem105 reports an 8-K item number 1.05, written "1.05" or "Item 1.05".
func isItem105(item string) bool {
	item = strings.TrimSpace(strings.ToLower(item))
	return strings.TrimSpace(strings.TrimPrefix(item, "item")) == "1.05"
}

// News matches the vendors a story names as the subject of a security
// event. A vendor is named when the index finds one of its names as whole
// words of the title or summary, other than as a tool of the attack
// (toolBefore, toolAfter) or as the story's source (sourceBefore,
// sourceAfter) unless the story names one of its products. A name in
// ambiguousNames also needs a second signal: the vendor's domain, its legal
// name, one of its products, a possessive ("Box's") or a speech verb ("Zoom
// said"). The story needs a security term (securityTerms). A vendor named
// but missing only the security term, or only the second signal, is a
// possible match.
func (m *Matcher) News(n NewsItem) Result {
	var r Result
	text := FoldText(n.Title + " \n " + n.Summary)
	hits := m.index.Find(text)
	if len(hits) == 0 {
		return r
	}
	term := firstPhrase(text, securityTerms)
	type named struct {
		strong bool   // a non-ambiguous name, not incidental
		weak   string // an ambiguous name, not incidental
		signal string // the second signal seen
		name   string // the name that counts
	}
	seen := map[int32]*named{}
	var order []int32
	for _, h := range hits {
		r := role(text, h.Start, h.End)
		if r == roleTool {
			continue
		}
		for _, i := range m.byName[h.Name] {
			if r == roleSource && m.namesProduct(text, i, h.Name) == "" {
				continue
			}
			v := seen[i]
			if v == nil {
				v = &named{}
				seen[i] = v
				order = append(order, i)
			}
			switch {
			case !ambiguousNames[h.Name]:
				if !v.strong {
					v.strong, v.name = true, h.Name
				}
			case v.signal == "":
				v.weak = h.Name
				v.signal = m.secondSignal(text, i, h)
			}
		}
	}
	for _, i := range order {
		v := seen[i]
		switch {
		case v.strong && term != "":
			r.Matches = append(r.Matches, m.vendorMatch(i, RuleNewsName,
				fmt.Sprintf("named %q; security term %q", v.name, term), confNamed))
		case v.signal != "" && term != "":
			r.Matches = append(r.Matches, m.vendorMatch(i, RuleNewsName,
				fmt.Sprintf("named %q with %s; security term %q", v.weak, v.signal, term), confSignal))
		case v.strong || v.signal != "":
			name := v.name
			if name == "" {
				name = v.weak
			}
			r.Possible = append(r.Possible, m.vendorMatch(i, RuleNewsName,
				fmt.Sprintf("named %q; no security term", name), confNoTerm))
		case term != "":
			r.Possible = append(r.Possible, m.vendorMatch(i, RuleNewsName,
				fmt.Sprintf("named %q, an ordinary word, without a second signal; security term %q", v.weak, term), confNoSignal))
		}
	}
	return r
}

// secondSignal is what in the story, besides an ambiguous name, shows it
// means vendor i, or "".
func (m *Matcher) secondSignal(text string, i int32, h NameHit) string {
	c := m.cands[i]
	if d := FoldText(normalizeDomain(c.Domain)); strings.Contains(d, " ") && containsWords(text, d) {
		return fmt.Sprintf("domain %q", c.Domain)
	}
	if legal := FoldText(c.LegalName); legal != FoldName(c.LegalName) && containsWords(text, legal) {
		return fmt.Sprintf("legal name %q", c.LegalName)
	}
	if p := m.namesProduct(text, i, h.Name); p != "" {
		return fmt.Sprintf("product %q", p)
	}
	after := strings.TrimPrefix(text[h.End:], " ")
	if after == "s" || strings.HasPrefix(after, "s ") {
		return "possessive"
	}
	next, _, _ := strings.Cut(after, " ")
	if slices.Contains(speechVerbs, next) {
		return fmt.Sprintf("%q", h.Name+" "+next)
	}
	return ""
}

// The roles a name may have in a story other than its subject.
const (
	roleSubject = iota
	roleTool    // a tool of the attack, or someone else's installation
	roleSource  // the story's source
)

// role is the role of the name at text[start:end], from the words before
// and after it (terms.go).
func role(text string, start, end int) int {
	before := strings.TrimSuffix(text[:start], " ")
	endsWith := func(w string) bool {
		rest, ok := strings.CutSuffix(before, w)
		return ok && (rest == "" || strings.HasSuffix(rest, " "))
	}
	after := strings.TrimPrefix(text[end:], " ")
	possessed, _ := strings.CutPrefix(after, "s ") // "Microsoft's researchers"
	_, skipped, _ := strings.Cut(after, " ")       // "Microsoft Teams used to"
	startsWith := func(w string, texts ...string) bool {
		for _, a := range texts {
			if rest, ok := strings.CutPrefix(a, w); ok && (rest == "" || strings.HasPrefix(rest, " ")) {
				return true
			}
		}
		return false
	}
	switch {
	case slices.ContainsFunc(toolBefore, endsWith),
		slices.ContainsFunc(toolAfter, func(w string) bool { return startsWith(w, after, possessed, skipped) }):
		return roleTool
	case slices.ContainsFunc(sourceBefore, endsWith),
		slices.ContainsFunc(sourceAfter, func(w string) bool { return startsWith(w, after, possessed) }):
		return roleSource
	}
	return roleSubject
}

// namesProduct is the first of vendor i's products the folded text names,
// other than the name itself, or "".
func (m *Matcher) namesProduct(text string, i int32, name string) string {
	for _, p := range m.cands[i].Products {
		if fp := FoldText(p); fp != "" && fp != name && containsWords(text, fp) {
			return p
		}
	}
	return ""
}

// firstPhrase is the first of phrases found in the folded text as whole
// words, or "".
func firstPhrase(text string, phrases []string) string {
	for _, p := range phrases {
		if containsWords(text, p) {
			return p
		}
	}
	return ""
}
