// Package nameindex implements incidents.NameIndex with an Aho-Corasick
// automaton (github.com/coregx/ahocorasick): every folded directory name is
// a pattern, a text is scanned once for all of them with overlapping
// matches, and an occurrence counts only as whole words of the folded text,
// so "box" is not found in "dropbox" or "boxing". Build a new index when
// the directory's names change; an index is safe for concurrent Find.
package nameindex

import (
	"fmt"

	"github.com/coregx/ahocorasick"

	"github.com/vetted-dev/vetted/core/incidents"
)

// Index is an Aho-Corasick automaton over folded names.
type Index struct {
	ac    *ahocorasick.Automaton // nil when there are no names
	names []string
}

// New builds the index from distinct, non-empty folded names.
func New(names []string) (*Index, error) {
	x := &Index{names: names}
	if len(names) == 0 {
		return x, nil
	}
	ac, err := ahocorasick.NewBuilder().AddStrings(names).Build()
	if err != nil {
		return nil, fmt.Errorf("nameindex: %w", err)
	}
	x.ac = ac
	return x, nil
}

// Build is New as an incidents.BuildNameIndex.
func Build(names []string) (incidents.NameIndex, error) { return New(names) }

// Find answers every whole-word occurrence of an indexed name in the folded
// text, overlapping ones included, ordered by end and then by start.
func (x *Index) Find(folded string) []incidents.NameHit {
	if x.ac == nil || folded == "" {
		return nil
	}
	var hits []incidents.NameHit
	for _, m := range x.ac.FindAllOverlapping([]byte(folded)) {
		if (m.Start == 0 || folded[m.Start-1] == ' ') && (m.End == len(folded) || folded[m.End] == ' ') {
			hits = append(hits, incidents.NameHit{Name: x.names[m.PatternID], Start: m.Start, End: m.End})
		}
	}
	return hits
}
