package incidents

import (
	"strings"
	"unicode"
)

// FoldText is the form in which names are compared and found in text: lower
// case, every run of characters other than letters and digits one space, no
// space at either end. "Okta's support-system" folds to "okta s support
// system", so a name is found only as whole words of the folded text.
func FoldText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(unicode.ToLower(r))
			continue
		}
		space = true
	}
	return b.String()
}

// legalSuffixes are the company-form words FoldName drops from the end of a
// name, in folded form ("S.A." folds to "s a").
var legalSuffixes = []string{
	"inc", "incorporated", "llc", "l l c", "ltd", "limited", "corp", "corporation",
	"co", "company", "gmbh", "ag", "sa", "s a", "plc", "p l c", "nv", "n v", "bv", "b v",
	"srl", "s r l", "sas", "s a s", "sarl", "spa", "s p a", "pty", "pte", "lp", "llp",
	"kk", "k k", "oy", "oyj", "asa", "se", "holdings", "group",
}

// FoldName folds a company name for equality: FoldText, then the legal
// suffixes dropped from the end, repeatedly ("Acme Co., Ltd." is "acme"), but
// never down to nothing ("Group" stays "group").
func FoldName(s string) string {
	f := FoldText(s)
	for {
		trimmed := false
		for _, suf := range legalSuffixes {
			if rest, ok := strings.CutSuffix(f, " "+suf); ok && rest != "" {
				f, trimmed = rest, true
			}
		}
		if !trimmed {
			return f
		}
	}
}

// containsWords reports whether the folded phrase occurs in the folded text
// as whole words.
func containsWords(text, phrase string) bool {
	return wordIndex(text, phrase, 0) >= 0
}

// wordIndex is the byte offset of the first whole-word occurrence of phrase
// in text at or after from, or -1.
func wordIndex(text, phrase string, from int) int {
	if phrase == "" {
		return -1
	}
	for from <= len(text) {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return -1
		}
		i += from
		if atBoundary(text, i, i+len(phrase)) {
			return i
		}
		from = i + 1
	}
	return -1
}

// atBoundary reports whether text[start:end] is whole words of a folded
// text: at the ends or between spaces.
func atBoundary(text string, start, end int) bool {
	return (start == 0 || text[start-1] == ' ') && (end == len(text) || text[end] == ' ')
}
