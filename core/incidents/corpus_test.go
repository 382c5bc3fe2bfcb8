package incidents

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// corpusItem is one labelled item of testdata/corpus.jsonl: its source, the
// ambiguity class it stands for, the item, and the vendors it concerns.
type corpusItem struct {
	ID      int       `json:"id"`
	Source  Source    `json:"source"`
	Class   string    `json:"class"`
	News    *NewsItem `json:"news"`
	KEV     *KEVEntry `json:"kev"`
	Breach  *Breach   `json:"breach"`
	Filing  *Filing   `json:"filing"`
	Vendors []string  `json:"vendors"`
}

func readCorpus(t testing.TB) []corpusItem {
	t.Helper()
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var items []corpusItem
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var it corpusItem
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			t.Fatalf("corpus line %d: %v", len(items)+1, err)
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return items
}

// apply runs the rule for the item's source.
func (m *Matcher) apply(it corpusItem) Result {
	switch {
	case it.News != nil:
		return m.News(*it.News)
	case it.KEV != nil:
		return m.KEV(*it.KEV)
	case it.Breach != nil:
		return m.Breach(*it.Breach)
	case it.Filing != nil:
		return m.Filing(*it.Filing)
	}
	return Result{}
}

// tally counts true and false positives and false negatives.
type tally struct{ tp, fp, fn int }

func (c tally) precision() float64 {
	if c.tp+c.fp == 0 {
		return 1
	}
	return float64(c.tp) / float64(c.tp+c.fp)
}

func (c tally) recall() float64 {
	if c.tp+c.fn == 0 {
		return 1
	}
	return float64(c.tp) / float64(c.tp+c.fn)
}

func (c tally) String() string {
	return fmt.Sprintf("precision %.3f recall %.3f (tp %d, fp %d, fn %d)", c.precision(), c.recall(), c.tp, c.fp, c.fn)
}

// CorpusScore matches every corpus item with m and scores the matches (not
// the possible matches) against the labels, overall, by source and by
// class; misses lists each wrong item.
func CorpusScore(t testing.TB, m *Matcher) (all tally, bySource, byClass map[string]*tally, misses []string) {
	items := readCorpus(t)
	bySource, byClass = map[string]*tally{}, map[string]*tally{}
	for _, it := range items {
		var got []string
		for _, vm := range m.apply(it).Matches {
			got = append(got, vm.Vendor)
		}
		var c tally
		for _, v := range got {
			if slices.Contains(it.Vendors, v) {
				c.tp++
			} else {
				c.fp++
			}
		}
		for _, v := range it.Vendors {
			if !slices.Contains(got, v) {
				c.fn++
			}
		}
		if c.fp+c.fn > 0 {
			misses = append(misses, fmt.Sprintf("item %d (%s/%s): got %v, labelled %v", it.ID, it.Source, it.Class, got, it.Vendors))
		}
		for _, agg := range []*tally{&all, at(bySource, string(it.Source)), at(byClass, it.Class)} {
			agg.tp, agg.fp, agg.fn = agg.tp+c.tp, agg.fp+c.fp, agg.fn+c.fn
		}
	}
	if len(items) < 150 {
		t.Errorf("the corpus has %d items, want at least 150", len(items))
	}
	return all, bySource, byClass, misses
}

func at(m map[string]*tally, k string) *tally {
	if m[k] == nil {
		m[k] = &tally{}
	}
	return m[k]
}

// LogScore logs the corpus figures and fails below precision 0.95 or
// recall 0.90 overall.
func LogScore(t testing.TB, all tally, bySource, byClass map[string]*tally, misses []string) {
	t.Logf("overall: %v", all)
	for _, group := range []struct {
		name string
		m    map[string]*tally
	}{{"source", bySource}, {"class", byClass}} {
		keys := make([]string, 0, len(group.m))
		for k := range group.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%s %-22s %v", group.name, k, *group.m[k])
		}
	}
	if len(misses) > 0 {
		t.Logf("wrong items:\n%s", strings.Join(misses, "\n"))
	}
	if all.precision() < 0.95 || all.recall() < 0.90 {
		t.Errorf("corpus: %v; want precision at least 0.95 and recall at least 0.90", all)
	}
}

func TestCorpus(t *testing.T) {
	all, bySource, byClass, misses := CorpusScore(t, testMatcher(t))
	LogScore(t, all, bySource, byClass, misses)
}
