package accounts

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vetted-dev/vetted/core"
)

// The e-mail rule. An address someone gives the service to write to (a
// member added by e-mail, a subscriber, an assessment's sponsor contact)
// is one bare address (no display name, no list, no control characters, at
// most 254 bytes) whose domain has a dot and does not end in one: mail can
// reach erin@northwind.example, never erin@northwind or a@b, which are
// typing slips of an address on the internet. It is stored lower-cased.
//
// The e-mail of a token (IdentityEmail) is the IdP's word: it keeps every
// other part of the rule but not the dot, so that an identity provider
// with local addresses (root@localhost) still signs its users in. Such a
// user can never be added as a member of an account, but keeps their
// personal space.

// NormalizeEmail validates an address given to write to and lower-cases it.
func NormalizeEmail(s string) (string, error) {
	e, err := IdentityEmail(s)
	if err != nil {
		return "", err
	}
	domain := e[strings.LastIndexByte(e, '@')+1:]
	if !strings.Contains(domain, ".") || strings.HasSuffix(domain, ".") {
		return "", core.Invalid("Email", "%q is not a valid e-mail address: its domain needs a dot (name@example.com)", strings.TrimSpace(s))
	}
	return e, nil
}

// IdentityEmail validates the e-mail claim of a token and lower-cases it:
// NormalizeEmail without the dot in the domain.
func IdentityEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	if strings.IndexFunc(s, unicode.IsControl) >= 0 || !utf8.ValidString(s) {
		return "", core.Invalid("Email", "%q is not a valid e-mail address", s)
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" || len(s) > 254 {
		return "", core.Invalid("Email", "%q is not a valid e-mail address", s)
	}
	return strings.ToLower(s), nil
}

// NormalizeEmails normalizes e-mails given in field, dropping repeats and
// naming every bad one by its index.
func NormalizeEmails(field string, in []string) ([]string, error) {
	var errs core.Fields
	seen := map[string]bool{}
	out := make([]string, 0, len(in))
	for i, raw := range in {
		e, err := NormalizeEmail(raw)
		if err != nil {
			errs.AddErr(core.WithField(err, core.Index(field, i)))
			continue
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out, errs.Err()
}
