package nameindex

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core/incidents"
)

func TestFindWholeWords(t *testing.T) {
	x, err := New([]string{"box", "twilio", "twilio segment", "segment", "zoom video communications", "zoom"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want []string
	}{
		{"dropbox was breached", nil},
		{"boxing news", nil},
		{"box", []string{"box@0"}},
		{"the box breach at box", []string{"box@18", "box@4"}},
		{"twilio segment breached", []string{"segment@7", "twilio segment@0", "twilio@0"}},
		{"zoom video communications said", []string{"zoom video communications@0", "zoom@0"}},
		{"zoomed in", nil},
		{"", nil},
	} {
		var got []string
		for _, h := range x.Find(c.text) {
			if c.text[h.Start:h.End] != h.Name {
				t.Errorf("%q: hit %+v does not cover its name", c.text, h)
			}
			got = append(got, fmt.Sprintf("%s@%d", h.Name, h.Start))
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("Find(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	empty, err := New(nil)
	if err != nil || empty.Find("box") != nil {
		t.Errorf("empty index: %v, %v", err, empty.Find("box"))
	}
}

// syllables make generated vendor names that look like product names and
// share prefixes as real ones do.
var syllables = strings.Fields("ac ar bel cor da en fin gra hal in jo ka lum mer nor ov pra qui ros sol tra ul ver wex xan yor zen bri cla dro fle glo kro plu stri tho vy")

var kinds = strings.Fields("Labs Systems Cloud Security Analytics Software Networks Data Health Pay Logistics Identity AI Ops Digital")

// generatedDirectory is n vendors with made-up names, half with a second
// word, a third with an alias, every one with a legal name and a domain.
func generatedDirectory(n int, rng *rand.Rand) []incidents.Candidate {
	out := make([]incidents.Candidate, 0, n)
	seen := map[string]bool{}
	for len(out) < n {
		var b strings.Builder
		for range 2 + rng.IntN(3) {
			b.WriteString(syllables[rng.IntN(len(syllables))])
		}
		word := b.String()
		name := strings.ToUpper(word[:1]) + word[1:]
		if rng.IntN(2) == 0 {
			name += " " + kinds[rng.IntN(len(kinds))]
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		// No ID: the benchmark counts matches only.
		c := incidents.Candidate{CanonicalName: name, LegalName: name + ", Inc.",
			Domain: word + ".com", Products: []string{name + " Platform"}}
		if rng.IntN(3) == 0 {
			c.Aliases = []string{name + " Technologies"}
		}
		out = append(out, c)
	}
	return out
}

// generatedNews is n stories of about 60 words, naming directory vendors,
// made-up words and real ones.
func generatedNews(n int, dir []incidents.Candidate, rng *rand.Rand) []incidents.NewsItem {
	filler := strings.Fields("the a company said on Monday that attackers customers systems were data and in of to its after a report researchers found exposed breach ransomware update quarterly revenue cloud product launch security teams network users patch")
	out := make([]incidents.NewsItem, n)
	for i := range out {
		words := make([]string, 0, 64)
		for range 60 {
			switch rng.IntN(12) {
			case 0:
				words = append(words, dir[rng.IntN(len(dir))].CanonicalName)
			case 1:
				words = append(words, syllables[rng.IntN(len(syllables))]+syllables[rng.IntN(len(syllables))])
			default:
				words = append(words, filler[rng.IntN(len(filler))])
			}
		}
		out[i] = incidents.NewsItem{Title: strings.Join(words[:10], " "), Summary: strings.Join(words[10:], " ") + "."}
	}
	return out
}

func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return s.HeapAlloc
}

// BenchmarkPoll matches one poll of 1,000 news items against a directory of
// 100,000 vendors with their aliases and legal names. ns/op is the whole
// poll; index-MB is the automaton alone and matcher-MB the automaton with
// the matcher's maps of folded names and domains, both HeapAlloc deltas
// after a collection; matches/poll and possible/poll count what it found.
func BenchmarkPoll(b *testing.B) {
	rng := rand.New(rand.NewPCG(33, 1))
	dir := generatedDirectory(100_000, rng)
	news := generatedNews(1_000, dir, rng)
	var indexBytes uint64
	measured := func(names []string) (incidents.NameIndex, error) {
		before := heapAlloc()
		x, err := New(names)
		indexBytes = heapAlloc() - before
		return x, err
	}
	before := heapAlloc()
	m, err := incidents.NewMatcher(dir, measured)
	if err != nil {
		b.Fatal(err)
	}
	after := heapAlloc()
	b.ResetTimer()
	var found, possible int
	for b.Loop() {
		found, possible = 0, 0
		for _, n := range news {
			r := m.News(n)
			found += len(r.Matches)
			possible += len(r.Possible)
		}
	}
	b.ReportMetric(float64(indexBytes)/(1<<20), "index-MB")
	b.ReportMetric(float64(after-before)/(1<<20), "matcher-MB")
	b.ReportMetric(float64(found), "matches/poll")
	b.ReportMetric(float64(possible), "possible/poll")
	runtime.KeepAlive(m)
}

// BenchmarkBuild is the rebuild the poll does when the directory's names
// changed: the matcher with its Aho-Corasick index over 100,000 vendors
// with aliases.
func BenchmarkBuild(b *testing.B) {
	dir := generatedDirectory(100_000, rand.New(rand.NewPCG(33, 1)))
	for b.Loop() {
		if _, err := incidents.NewMatcher(dir, Build); err != nil {
			b.Fatal(err)
		}
	}
}
