package incidents

// NameIndex is the driven port that finds directory names in text: built
// once from the folded names (FoldName of each canonical name, alias and
// legal name), it answers every occurrence of an indexed name in a folded
// text (FoldText) as whole words: "box" is not found in "dropbox" or
// "boxing". Overlapping occurrences are all answered: "twilio segment" finds
// "twilio segment", "twilio" and "segment" when all three are indexed.
// adapters/nameindex implements it with an Aho-Corasick automaton.
type NameIndex interface {
	Find(folded string) []NameHit
}

// NameHit is one occurrence of an indexed name: the name as it was indexed
// and its byte offsets in the folded text.
type NameHit struct {
	Name       string
	Start, End int
}

// BuildNameIndex builds a NameIndex from distinct, non-empty folded names.
type BuildNameIndex func(names []string) (NameIndex, error)
