package app

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
)

// The sender of every mail is one setting, given either way:
// VETTED_MAIL_FROM, or the from parameter of VETTED_SMTP_URL (the older
// way, which adapters/smtp reads). Both may be set only to the same
// address; with neither, adapters/smtp's DefaultFrom sends.

// checkMailFrom reports a VETTED_MAIL_FROM that is not an address, or that
// names another sender than the URL's from.
func checkMailFrom(e *envReader, c Config) {
	if c.MailFrom == "" {
		return
	}
	if _, err := mail.ParseAddress(c.MailFrom); err != nil {
		e.fail("VETTED_MAIL_FROM", c.MailFrom, "not an address such as Vetted <vetted@example.com>")
		return
	}
	if _, err := smtpURLWithFrom(c.SMTPURL, c.MailFrom); err != nil {
		e.fail("VETTED_MAIL_FROM", c.MailFrom, err.Error())
	}
}

// smtpURLWithFrom is the SMTP URL whose from parameter is from (unchanged
// when from is empty); a URL naming another sender is refused.
func smtpURLWithFrom(rawURL, from string) (string, error) {
	if from == "" || rawURL == "" {
		return rawURL, nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", errors.New("VETTED_SMTP_URL does not parse") // FromLookup reports it
	}
	q := u.Query()
	if had := q.Get("from"); had != "" && had != from {
		return "", fmt.Errorf("VETTED_SMTP_URL names another sender (from=%s): set one of the two", had)
	}
	q.Set("from", from)
	u.RawQuery = q.Encode()
	return u.String(), nil
}
