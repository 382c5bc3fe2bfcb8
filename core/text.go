package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// PlainText is the one rule for names a person types (vendor, list,
// product and account names, incident titles): the text must be valid UTF-8
// without control characters (C0, DEL, C1); the ASCII white-space controls
// (tab, line breaks) count as spaces, and runs of white space become one
// space, so a stored name never holds a control character. At most maxLen
// characters may remain. Empty input stays empty (the caller decides
// whether that is allowed).
func PlainText(field, raw string, maxLen int) (string, error) {
	if !utf8.ValidString(raw) {
		return "", Invalid(field, "must be valid UTF-8")
	}
	if i := strings.IndexFunc(raw, forbiddenControl); i >= 0 {
		return "", Invalid(field, "must not contain control characters (found %U)", []rune(raw[i:])[0])
	}
	s := strings.Join(strings.Fields(raw), " ")
	if utf8.RuneCountInString(s) > maxLen {
		return "", Invalid(field, "must be at most %d characters", maxLen)
	}
	return s, nil
}

// forbiddenControl reports control characters other than ASCII white space.
func forbiddenControl(r rune) bool {
	return unicode.IsControl(r) && !strings.ContainsRune("\t\n\v\f\r", r)
}
