package records

import (
	"strings"
	"unicode"

	"github.com/vetted-dev/vetted/core/accounts"
)

// The mention rule. "@" followed by an e-mail address, at the start of the
// text or after a character that is neither a letter nor a digit nor part
// of an address, mentions that address: "ask @erin@northwind.example." and
// "(@Erin@Northwind.example)" both mention erin@northwind.example. The
// address ends at white space or at a character an address does not hold
// here (quotes, brackets, comma, semicolon); trailing dots, colons and
// punctuation are not part of it. Addresses are lower-cased and each is
// named once, in the order of first mention. Who among them is mailed is
// decided by the service: members of the account other than the author.
func Mentions(text string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(text); i++ {
		if text[i] != '@' {
			continue
		}
		if i > 0 {
			prev := rune(text[i-1])
			if prev < 0x80 && (unicode.IsLetter(prev) || unicode.IsDigit(prev) || strings.ContainsRune(".-_+@", prev)) {
				continue
			}
		}
		j := i + 1
		for j < len(text) && !endsMention(text[j]) {
			j++
		}
		cand := strings.TrimRight(text[i+1:j], ".:!?")
		i = j - 1
		if strings.Count(cand, "@") != 1 {
			continue
		}
		e, err := accounts.NormalizeEmail(cand)
		if err != nil || seen[e] {
			continue
		}
		seen[e] = true
		out = append(out, e)
	}
	return out
}

// endsMention reports the bytes that end an address in a note.
func endsMention(b byte) bool {
	return b <= ' ' || strings.IndexByte(`"'()<>[]{},;`, b) >= 0
}

// Recipients are the addresses a note mails: those it mentions that
// belong to a member of the account, other than the author's, each once,
// in the order of first mention.
func Recipients(text, author string, members []accounts.Member) []string {
	isMember := make(map[string]bool, len(members))
	for _, m := range members {
		isMember[strings.ToLower(m.Email)] = true
	}
	author = strings.ToLower(author)
	var out []string
	for _, e := range Mentions(text) {
		if isMember[e] && e != author {
			out = append(out, e)
		}
	}
	return out
}
