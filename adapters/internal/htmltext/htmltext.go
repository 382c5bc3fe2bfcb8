// Package htmltext reduces an HTML fragment from a feed to plain text.
package htmltext

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// inline tags do not separate words.
var inline = map[string]bool{"a": true, "b": true, "strong": true, "em": true, "i": true, "span": true, "var": true, "small": true, "code": true, "u": true}

// dropped tags have content that is not text for a reader.
var dropped = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "iframe": true, "object": true}

// Text turns an HTML fragment into text: tags and the content of script,
// style and similar elements removed, entities decoded, every run of space
// one space, cut at a rune boundary to at most max bytes with "…" added
// when it was longer (no cut when max is zero or less).
func Text(s string, max int) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(s))
	skip := ""
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		switch tt {
		case html.TextToken:
			if skip == "" {
				b.Write(z.Text())
			}
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			tag := string(name)
			switch {
			case tt == html.StartTagToken && skip == "" && dropped[tag]:
				skip = tag
			case tt == html.EndTagToken && tag == skip:
				skip = ""
			}
			if !inline[tag] {
				b.WriteByte(' ')
			}
		}
	}
	out := strings.Join(strings.Fields(b.String()), " ")
	if max > 0 && len(out) > max {
		i := max
		for i > 0 && !utf8.RuneStart(out[i]) {
			i--
		}
		out = out[:i] + "…"
	}
	return out
}
