package enrich_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich"
	"github.com/vetted-dev/vetted/adapters/enrich/scantest"
	"github.com/vetted-dev/vetted/internal/testenv"
)

// discoveryWorld is the loopback world of website discovery
// (scantest.DiscoveryWorld).
func discoveryWorld() []scantest.Site { return scantest.DiscoveryWorld() }

// discoveryCase is one vendor of the truth table: the website it must
// get ("" for none), where its page names it, and the verdict (and a word
// of the reason) of candidates that must be refused or kept.
type discoveryCase struct {
	vendor  string
	prefs   enrich.DiscoverPrefs
	website string
	source  enrich.MatchSource
	// verdicts are by candidate domain; reasons are words the reason of
	// that candidate must contain.
	verdicts map[string]enrich.CandidateVerdict
	reasons  map[string]string
	// allUnresolvable: every other candidate is unresolvable.
	allUnresolvable bool
}

func discoveryTable() []discoveryCase {
	v := func(kv ...string) map[string]enrich.CandidateVerdict {
		m := map[string]enrich.CandidateVerdict{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = enrich.CandidateVerdict(kv[i+1])
		}
		return m
	}
	r := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	return []discoveryCase{
		// Clear picks.
		{vendor: "Zentrix", website: "https://zentrix.com/", source: enrich.MatchTitle,
			verdicts: v("zentrix.com", "kept"), reasons: r("zentrix.com", `title "Zentrix"`)},
		{vendor: "Quillbyte", website: "https://quillbyte.io/", source: enrich.MatchSiteName,
			// quillbyte.com redirects to quillbyte.io, one of its own names.
			verdicts: v("quillbyte.com", "kept")},
		{vendor: "Blue Harbor", website: "https://blue-harbor.com/", source: enrich.MatchJSONLD,
			verdicts: v("blueharbor.com", "unresolvable", "blueharbor.io", "unresolvable", "blue-harbor.com", "kept")},
		{vendor: "Pallas", website: "https://getpallas.com/", source: enrich.MatchTitle,
			verdicts: v("pallas.com", "parked", "pallas.io", "unresolvable", "getpallas.com", "kept"),
			reasons:  r("pallas.com", "ns1.sedoparking.com")},
		{vendor: "Corvid Labs, Inc.", website: "https://corvid.com/", source: enrich.MatchCertificate,
			verdicts: v("corvidlabs.com", "unresolvable", "corvid.com", "kept"), reasons: r("corvid.com", `"Corvid Labs, Inc."`)},
		{vendor: "Driftwood", website: "https://trydriftwood.com/", source: enrich.MatchTitle,
			verdicts: v("driftwood.com", "for_sale", "getdriftwood.com", "unresolvable", "trydriftwood.com", "kept"),
			reasons:  r("driftwood.com", "for sale")},
		{vendor: "Brauhaus GmbH", prefs: enrich.DiscoverPrefs{CountryTLDs: []string{"de"}}, website: "https://brauhaus.de/", source: enrich.MatchTitle,
			verdicts: v("brauhaus.com", "unresolvable", "brauhaus.de", "kept")},
		{vendor: "Fjördhaus", website: "https://fjordhaus.com/", source: enrich.MatchTitle, verdicts: v("fjordhaus.com", "kept")},
		// Two vendors whose names differ by one word, each on its own site.
		{vendor: "Vertex Labs", website: "https://vertexlabs.io/", source: enrich.MatchTitle,
			verdicts: v("vertexlabs.com", "unresolvable", "vertex.com", "name_mismatch", "vertexlabs.io", "kept"),
			reasons:  r("vertex.com", "differs from Vertex Labs by a word")},
		{vendor: "Vertex Software", website: "https://vertex.com/", source: enrich.MatchSiteName,
			verdicts: v("vertexsoftware.com", "unresolvable", "vertex.com", "kept")},
		// A page with a longer name ("Acme" and "Acme Rockets") is someone else's.
		{vendor: "Orbit", website: "https://orbit.io/", source: enrich.MatchTitle,
			verdicts: v("orbit.com", "name_mismatch", "orbit.io", "kept"), reasons: r("orbit.com", "words Orbit lacks")},
		// Refused, and nothing else: needs a website.
		{vendor: "Marlow", allUnresolvable: true, verdicts: v("marlow.com", "parked"), reasons: r("marlow.com", "parkingcrew.net")},
		{vendor: "Halcyon Pay", allUnresolvable: true, verdicts: v("halcyonpay.com", "unrelated_redirect"),
			reasons: r("halcyonpay.com", "megacorp-holdings.com")},
		{vendor: "Kestrel", allUnresolvable: true, verdicts: v("kestrel.com", "name_mismatch"), reasons: r("kestrel.com", "look-alike")},
		{vendor: "Tessellate", allUnresolvable: true, verdicts: v("tessellate.com", "generic_page"), reasons: r("tessellate.com", "welcome to nginx")},
		{vendor: "Sundial", allUnresolvable: true, verdicts: v("sundial.com", "generic_page"), reasons: r("sundial.com", "coming soon")},
		{vendor: "Plainview", allUnresolvable: true, verdicts: v("plainview.com", "no_https"), reasons: r("plainview.com", "connection refused")},
		{vendor: "Ironclad", allUnresolvable: true, verdicts: v("ironclad.com", "no_https"), reasons: r("ironclad.com", "not https")},
		{vendor: "Selfie", allUnresolvable: true, verdicts: v("selfie.com", "no_https"), reasons: r("selfie.com", "certificate is not valid")},
		{vendor: "Slowpoke", allUnresolvable: true, verdicts: v("slowpoke.com", "timeout"), reasons: r("slowpoke.com", "timeout")},
		{vendor: "Qwertyuiop Zzyzx", allUnresolvable: true},
	}
}

// discoverer is a Discoverer of the world, with the defaults.
func discoverer(t testing.TB, w *scantest.World, allowPrivate bool, cfg enrich.DiscoverConfig) *enrich.Discoverer {
	cfg.Scanner, cfg.Now = worldScanner(t, w, allowPrivate, 8), w.Now
	return enrich.NewDiscoverer(cfg)
}

// TestDiscoverTruthTable discovers every vendor of the table and checks
// the website chosen (or none), where the page named the vendor, and the
// verdicts and reasons of the candidates that decide it.
func TestDiscoverTruthTable(t *testing.T) {
	t.Parallel()
	w := scantest.Start(t, testenv.Clock(t), discoveryWorld()...)
	d := discoverer(t, w, true, enrich.DiscoverConfig{})
	var mu sync.Mutex
	var table []string
	t.Run("vendors", func(t *testing.T) {
		for _, c := range discoveryTable() {
			t.Run(c.vendor, func(t *testing.T) {
				t.Parallel()
				got, err := d.Discover(context.Background(), c.vendor, c.prefs)
				if err != nil {
					t.Fatal(err)
				}
				mu.Lock()
				table = append(table, fmt.Sprintf("%-18s want %-26s got %-26s %.2f %s", c.vendor, or(c.website, "none"), or(got.Website, "none"),
					got.Confidence, got.Elapsed.Round(time.Millisecond)))
				mu.Unlock()
				checkDiscovery(t, c, got)
			})
		}
	})
	slices.Sort(table)
	t.Logf("truth table (vendor, expected, got, confidence, time):\n%s", strings.Join(table, "\n"))
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

func checkDiscovery(t *testing.T, c discoveryCase, got enrich.Discovery) {
	t.Helper()
	byDomain := map[string]enrich.Candidate{}
	chosen := 0
	for _, cand := range got.Candidates {
		byDomain[cand.Domain] = cand
		if cand.Chosen {
			chosen++
		}
		if cand.Reason == "" || cand.Verdict == "" {
			t.Errorf("%s: no verdict or reason: %+v", cand.Domain, cand)
		}
	}
	dump := func() string {
		var b strings.Builder
		for _, cand := range got.Candidates {
			fmt.Fprintf(&b, "\n  %-22s %-18s %.2f %s", cand.Domain, cand.Verdict, cand.Confidence, cand.Reason)
		}
		return b.String()
	}
	if got.Website != c.website {
		t.Fatalf("website %q, want %q (confidence %.2f, %+v)%s", got.Website, c.website, got.Confidence, got.Match, dump())
	}
	if len(got.Candidates) == 0 || len(got.Candidates) > enrich.DefaultDiscoverCandidates {
		t.Errorf("%d candidates, want 1 to %d", len(got.Candidates), enrich.DefaultDiscoverCandidates)
	}
	if c.website != "" {
		if host := strings.TrimSuffix(strings.TrimPrefix(c.website, "https://"), "/"); got.Domain != host {
			t.Errorf("domain %q, want %q", got.Domain, host)
		}
		if chosen != 1 || got.Confidence < got.Threshold || got.Confidence > 1 || got.Match.Source != c.source || got.Match.Text == "" {
			t.Errorf("chosen %d, confidence %.2f (threshold %.2f), match %+v, want one chosen, matched in the %s%s",
				chosen, got.Confidence, got.Threshold, got.Match, c.source, dump())
		}
	} else if chosen != 0 || got.Confidence != 0 {
		t.Errorf("chosen %d with confidence %.2f, want none%s", chosen, got.Confidence, dump())
	}
	for domain, want := range c.verdicts {
		cand, ok := byDomain[domain]
		if !ok {
			t.Errorf("%s was not a candidate%s", domain, dump())
			continue
		}
		if cand.Verdict != want {
			t.Errorf("%s: %s (%s), want %s%s", domain, cand.Verdict, cand.Reason, want, dump())
		}
		if word := c.reasons[domain]; !strings.Contains(cand.Reason, word) {
			t.Errorf("%s: reason %q lacks %q", domain, cand.Reason, word)
		}
	}
	if c.allUnresolvable {
		if len(got.Candidates) != enrich.DefaultDiscoverCandidates {
			t.Errorf("%d candidates tried, want all %d", len(got.Candidates), enrich.DefaultDiscoverCandidates)
		}
		for _, cand := range got.Candidates {
			if _, listed := c.verdicts[cand.Domain]; !listed && cand.Verdict != enrich.VerdictUnresolvable {
				t.Errorf("%s: %s (%s), want unresolvable", cand.Domain, cand.Verdict, cand.Reason)
			}
		}
	}
}

// TestDiscoverRefusesPrivate: without AllowPrivate the fetch policy holds
// for discovery too, and the world's loopback sites are refused.
func TestDiscoverRefusesPrivate(t *testing.T) {
	t.Parallel()
	w := scantest.Start(t, testenv.Clock(t), discoveryWorld()...)
	got, err := discoverer(t, w, false, enrich.DiscoverConfig{}).Discover(context.Background(), "Zentrix", enrich.DiscoverPrefs{})
	if err != nil {
		t.Fatal(err)
	}
	checkDiscovery(t, discoveryCase{vendor: "Zentrix", allUnresolvable: true,
		verdicts: map[string]enrich.CandidateVerdict{"zentrix.com": enrich.VerdictRefused},
		reasons:  map[string]string{"zentrix.com": "loopback"}}, got)
}

// TestDiscoverBudget: a vendor's discovery ends with its budget, however
// slow the sites are, and says which candidates it could not check.
func TestDiscoverBudget(t *testing.T) {
	t.Parallel()
	w := scantest.Start(t, testenv.Clock(t), discoveryWorld()...)
	release := w.Hold()
	t.Cleanup(release)
	d := discoverer(t, w, true, enrich.DiscoverConfig{Budget: 300 * time.Millisecond})
	// The sites hold every request until the test ends: Discover returns
	// only because its budget ran out, and says so of the candidate.
	got, err := d.Discover(context.Background(), "Zentrix", enrich.DiscoverPrefs{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Found() || got.Candidates[0].Domain != "zentrix.com" || got.Candidates[0].Verdict != enrich.VerdictTimeout {
		t.Errorf("got %q, first candidate %+v, want none and zentrix.com timed out", got.Website, got.Candidates[0])
	}
}

// TestDiscoverStopsEarly: once the most likely candidate is kept, the less
// likely ones are skipped rather than fetched.
func TestDiscoverStopsEarly(t *testing.T) {
	t.Parallel()
	w := scantest.Start(t, testenv.Clock(t), discoveryWorld()...)
	got, err := discoverer(t, w, true, enrich.DiscoverConfig{PerVendor: 1}).Discover(context.Background(), "Zentrix", enrich.DiscoverPrefs{})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Found() || !got.Candidates[0].Chosen {
		t.Fatalf("got %q, want zentrix.com chosen first", got.Website)
	}
	for _, c := range got.Candidates[1:] {
		if c.Verdict != enrich.VerdictSkipped || !strings.Contains(c.Reason, "zentrix.com") {
			t.Errorf("%s: %s (%s), want skipped", c.Domain, c.Verdict, c.Reason)
		}
	}
}

// TestDiscoverSharesLimit: discoveries run side by side hold the
// scanner's slots, one per candidate being checked, so the sites never
// serve more requests at once than the scanner's limit, and every vendor
// still gets its answer.
func TestDiscoverSharesLimit(t *testing.T) {
	t.Parallel()
	w := scantest.Start(t, testenv.Clock(t), discoveryWorld()...)
	const limit = 2
	d := enrich.NewDiscoverer(enrich.DiscoverConfig{Scanner: worldScanner(t, w, true, limit), Now: w.Now})
	var wg sync.WaitGroup
	for _, c := range discoveryTable() {
		wg.Go(func() {
			got, err := d.Discover(context.Background(), c.vendor, c.prefs)
			if err != nil || got.Website != c.website {
				t.Errorf("%s: %q, %v, want %q", c.vendor, got.Website, err, c.website)
			}
		})
	}
	wg.Wait()
	if p := w.Peak(); p > limit {
		t.Errorf("%d requests at once, more than the limit of %d", p, limit)
	}
}

// TestDiscoveryCandidates: the most likely domains first, within the
// limit: the name joined, without its descriptive word, hyphenated, the
// account's country TLD right after .com, then the prefixes; a name that
// is a domain first; accented letters folded, and for German names also
// written out (ü as ue).
func TestDiscoveryCandidates(t *testing.T) {
	t.Parallel()
	got := enrich.DiscoveryCandidates("Corvid Labs, Inc.", 8, ".DE", "de", "../x")
	want := []string{"corvidlabs.com", "corvidlabs.de", "corvid.com", "corvidlabs.io", "corvid.de", "corvid-labs.com", "corvidlabs.co", "corvidlabs.ai"}
	if !slices.Equal(got, want) {
		t.Errorf("Corvid Labs: %v, want %v", got, want)
	}
	if got := enrich.DiscoveryCandidates("Pallas", 100); len(got) != 28 || got[0] != "pallas.com" || !slices.Contains(got, "usepallas.org") {
		t.Errorf("Pallas: %d candidates %v, want 4 forms under 7 TLDs", len(got), got)
	}
	if got := enrich.DiscoveryCandidates("Pallas", 24); len(got) != 24 {
		t.Errorf("Pallas: %d candidates, want the limit of 24", len(got))
	}
	if got := enrich.DiscoveryCandidates("Booking.com", 3); len(got) != 3 || got[0] != "booking.com" || slices.Contains(got[1:], "booking.com") {
		t.Errorf("Booking.com: %v, want booking.com first, once", got)
	}
	if got := enrich.DiscoveryCandidates("Müller & Söhne", 4); !slices.Equal(got, []string{"mullersohne.com", "mullersohne.io", "muellersoehne.com", "muller-sohne.com"}) {
		t.Errorf("Müller & Söhne: %v", got)
	}
	if got := enrich.DiscoveryCandidates("株式会社", 4); len(got) != 0 {
		t.Errorf("a name with no Latin letters: %v, want none", got)
	}
}

// TestCompareNames: only the same name, spelled or spaced alike or
// without a descriptive last word, reaches the threshold; a longer or
// shorter name, one word apart, or a look-alike does not.
func TestCompareNames(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		vendor, page string
		kept         bool
	}{
		{"Acme", "Acme", true},
		{"Acme", "ACME, Inc.", true},
		{"Mail Chimp", "MailChimp", true},
		{"Blue Harbor", "Blue-Harbor", true},
		{"Corvid Labs", "Corvid", true},
		{"Corvid", "Corvid Labs", true},
		{"Johnson & Johnson", "Johnson and Johnson", true},
		{"Fjördhaus", "FJORDHAUS", true},
		{"Acme", "Welcome to Acme", true},
		{"Acme", "Acme Rockets", false},
		{"Acme Rockets", "Acme", false},
		{"Vertex Labs", "Vertex Software", false},
		{"Nimbus Data", "Nimbus Health", false},
		{"Kestrel", "Kestral", false},
		{"Acme", "Acne", false},
		{"Acme", "Globex", false},
		{"Acme", "", false},
	} {
		score := enrich.CompareNames(c.vendor, c.page)
		if kept := score >= enrich.DefaultDiscoverThreshold; kept != c.kept || score < 0 || score > 1 {
			t.Errorf("%q on a page naming %q: score %.2f, kept %v, want kept %v", c.vendor, c.page, score, kept, c.kept)
		}
	}
}

// TestPageMarkers: parking and for-sale pages by their phrases and the
// services they load or link to (by host, so jordan.com is not dan.com),
// unless the service is the vendor itself; default pages by their title
// or opening words.
func TestPageMarkers(t *testing.T) {
	t.Parallel()
	page := func(title, body string) string {
		return "<html><head><title>" + title + "</title></head><body>" + body + "</body></html>"
	}
	for _, c := range []struct {
		vendor, body, want string
	}{
		{"Acme", page("Acme", `<a href="https://www.dan.com/buy-domain/acme.com">Offer</a>`), "for_sale"},
		{"Acme", page("acme.com", `<p>This domain may be for sale.</p>`), "for_sale"},
		{"Acme", page("acme.com", `<script src="//www.parkingcrew.net/js/p.js"></script>`), "parked"},
		{"Acme", page("acme.com", `<p>This domain is parked free, courtesy of a registrar.</p>`), "parked"},
		{"Acme", page("Apache2 Ubuntu Default Page: It works", `<p>It works!</p>`), "generic_page"},
		{"Acme", page("", `<h1>It works!</h1>`), "generic_page"},
		{"Acme", page("Index of /", `<a href="a.txt">a.txt</a>`), "generic_page"},
		{"Acme", page("Acme", `<a href="https://jordan.com/">Jordan</a> <a href="https://sedo.company.test/">x</a>`), ""},
		{"Sedo", page("Sedo", `<a href="https://sedo.com/search">Search domains</a>`), ""},
	} {
		if got := enrich.PageVerdict(c.vendor, c.body); got != c.want {
			t.Errorf("%s on %s: %q, want %q", c.vendor, c.body, got, c.want)
		}
	}
}

// BenchmarkDiscover discovers every vendor of the truth table, one after
// the other (time per vendor), and all of them ten times over at once
// (vendors per second through a scanner limit of 8).
//
//	go test -run '^$' -bench Discover ./enrich/
func BenchmarkDiscover(b *testing.B) {
	w := scantest.Start(b, testenv.Clock(b), discoveryWorld()...)
	d := discoverer(b, w, true, enrich.DiscoverConfig{})
	table := discoveryTable()
	b.Run("sequential", func(b *testing.B) {
		var took []time.Duration
		for b.Loop() {
			for _, c := range table {
				got, err := d.Discover(context.Background(), c.vendor, c.prefs)
				if err != nil || got.Website != c.website {
					b.Fatalf("%s: %q, %v", c.vendor, got.Website, err)
				}
				took = append(took, got.Elapsed)
			}
		}
		slices.Sort(took)
		b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*len(table)), "ms/vendor")
		b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-median")
		// The slowest is the vendor whose zone never answers: two DNS
		// attempts of the world's 200ms timeout.
		b.ReportMetric(float64(took[len(took)-1].Microseconds())/1000, "ms-slowest")
	})
	b.Run("batch", func(b *testing.B) {
		const copies = 10
		for b.Loop() {
			var wg sync.WaitGroup
			for range copies {
				for _, c := range table {
					wg.Go(func() {
						if got, err := d.Discover(context.Background(), c.vendor, c.prefs); err != nil || got.Website != c.website {
							b.Errorf("%s: %q, %v", c.vendor, got.Website, err)
						}
					})
				}
			}
			wg.Wait()
		}
		b.ReportMetric(float64(b.N*copies*len(table))/b.Elapsed().Seconds(), "vendors/s")
	})
}
