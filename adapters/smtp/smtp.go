// Package smtp is the production Mailer: it sends mailtmpl.Mail through any
// SMTP relay with github.com/wneessen/go-mail, configured by one URL
// (VETTED_SMTP_URL).
//
// Each Send opens its own connection, so a Mailer is safe for concurrent use
// and a broken connection never poisons later sends. STARTTLS is used when
// the server offers it (or required with ?tls=mandatory); smtps:// speaks
// implicit TLS. The Message-ID is derived from Mail.Key, so a retried send of
// the same mail carries the same id and receivers can recognise it.
//
// Errors follow the ports.Mailer contract: a refusal of this message (a 5xx
// reply to MAIL, RCPT or DATA, or an address that cannot be parsed) wraps
// ports.ErrPermanent; everything else (4xx replies, refused connections,
// timeouts, TLS or AUTH trouble at connection time) is returned plain and is
// retried. A 5xx during the greeting or AUTH is a fault of the relay or of
// our configuration, not of the message, so it stays retryable until an
// operator fixes it rather than dropping every mail in the meantime.
package smtp

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/ports"
)

// DefaultFrom is the sender when the URL has no from parameter.
const DefaultFrom = "Vetted <noreply@vetted.local>"

// DefaultTimeout bounds one connection (dial, TLS, AUTH and the transfer).
const DefaultTimeout = 30 * time.Second

// MessageIDDomain is the right-hand side of every Message-ID.
const MessageIDDomain = "vetted"

// Mailer sends mail through one SMTP relay.
type Mailer struct {
	client *gomail.Client
	from   string
}

var _ ports.Mailer = (*Mailer)(nil)

// Option adjusts a Mailer.
type Option func(*options)

type options struct{ tls *tls.Config }

// WithTLSConfig sets the TLS configuration for STARTTLS and smtps (for
// instance a private CA). ServerName defaults to the URL's host.
func WithTLSConfig(c *tls.Config) Option { return func(o *options) { o.tls = c } }

// New parses rawURL and returns a Mailer. The URL is
//
//	smtp://[user:pass@]host[:port][?from=...&tls=...&auth=...&timeout=...&helo=...]
//	smtps://[user:pass@]host[:port][?...]
//
// smtp defaults to port 25 and opportunistic STARTTLS; smtps defaults to
// port 465 and implicit TLS. Query parameters: from (the sender, RFC 5322,
// default DefaultFrom); tls=opportunistic|mandatory|none (smtp only); auth
// (a go-mail mechanism such as PLAIN, LOGIN, CRAM-MD5 or PLAIN-NOENC; default:
// the strongest the server offers that is safe on this connection) used only
// when the URL has a user; timeout (a Go duration, default DefaultTimeout);
// helo (the name to greet with, default the local host name).
func New(rawURL string, opts ...Option) (*Mailer, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("smtp: parse URL: %w", redact(err))
	}
	host := u.Hostname()
	if host == "" {
		return nil, errors.New("smtp: URL needs a host")
	}
	var copts []gomail.Option
	port := 25
	switch u.Scheme {
	case "smtp":
	case "smtps":
		port = 465
		copts = append(copts, gomail.WithSSL())
	default:
		return nil, fmt.Errorf("smtp: URL scheme %q is not smtp or smtps", u.Scheme)
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil || port < 1 || port > 65535 {
			return nil, fmt.Errorf("smtp: bad port %q", p)
		}
	}
	q := u.Query()
	timeout := DefaultTimeout
	if v := q.Get("timeout"); v != "" {
		if timeout, err = time.ParseDuration(v); err != nil || timeout <= 0 {
			return nil, fmt.Errorf("smtp: bad timeout %q", v)
		}
	}
	copts = append(copts, gomail.WithPort(port), gomail.WithTimeout(timeout))
	if u.Scheme == "smtp" {
		policy := gomail.TLSOpportunistic
		switch v := q.Get("tls"); v {
		case "", "opportunistic":
		case "mandatory":
			policy = gomail.TLSMandatory
		case "none":
			policy = gomail.NoTLS
		default:
			return nil, fmt.Errorf("smtp: tls=%q is not opportunistic, mandatory or none", v)
		}
		copts = append(copts, gomail.WithTLSPolicy(policy))
	}
	tc := &tls.Config{MinVersion: tls.VersionTLS12}
	if o.tls != nil {
		tc = o.tls.Clone()
	}
	if tc.ServerName == "" {
		tc.ServerName = host
	}
	copts = append(copts, gomail.WithTLSConfig(tc))
	if u.User != nil && u.User.Username() != "" {
		pass, _ := u.User.Password()
		mech := gomail.SMTPAuthAutoDiscover
		if v := q.Get("auth"); v != "" {
			mech = gomail.SMTPAuthType(strings.ToUpper(v))
		}
		copts = append(copts, gomail.WithSMTPAuth(mech), gomail.WithUsername(u.User.Username()), gomail.WithPassword(pass))
	}
	if v := q.Get("helo"); v != "" {
		copts = append(copts, gomail.WithHELO(v))
	}
	from := DefaultFrom
	if v := q.Get("from"); v != "" {
		from = v
	}
	if err := gomail.NewMsg().From(from); err != nil {
		return nil, fmt.Errorf("smtp: bad from address %q: %w", from, err)
	}
	client, err := gomail.NewClient(host, copts...)
	if err != nil {
		return nil, fmt.Errorf("smtp: %w", err)
	}
	return &Mailer{client: client, from: from}, nil
}

// MessageID returns the Message-ID (without angle brackets) that Send gives
// the mail with this delivery key.
func MessageID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])[:32] + "@" + MessageIDDomain
}

// Send delivers m over a fresh connection.
func (s *Mailer) Send(ctx context.Context, m mailtmpl.Mail) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	msg, err := s.build(m)
	if err != nil {
		return fmt.Errorf("smtp: build mail to %s: %w: %w", m.To, err, ports.ErrPermanent)
	}
	// ctx bounds the dial; the connection's timeout bounds the rest (go-mail
	// holds its lock while it waits for a reply, so closing early would not
	// unblock it any sooner).
	conn, err := s.client.DialToSMTPClientWithContext(ctx)
	if err != nil {
		return fmt.Errorf("smtp: connect to %s: %w", s.client.ServerAddr(), err) // transport trouble: retry
	}
	sendErr := s.client.SendWithSMTPClient(conn, msg)
	_ = s.client.CloseWithSMTPClient(conn) // QUIT; the mail is already accepted or refused
	if sendErr != nil {
		return classify(sendErr)
	}
	return nil
}

// reserved headers are set from Mail's own fields; Mail.Headers may not
// override them.
var reserved = []string{"from", "to", "cc", "bcc", "subject", "date", "message-id", "mime-version",
	"content-type", "content-transfer-encoding", "sender", "return-path"}

func (s *Mailer) build(m mailtmpl.Mail) (*gomail.Msg, error) {
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.From(s.from); err != nil {
		return nil, err
	}
	if err := msg.To(m.To); err != nil {
		return nil, err
	}
	if strings.ContainsAny(m.Subject, "\r\n") {
		return nil, errors.New("subject contains a line break")
	}
	msg.Subject(m.Subject)
	msg.SetDate()
	if m.Key != "" {
		msg.SetMessageIDWithValue(MessageID(m.Key))
	} else {
		msg.SetMessageID()
	}
	names := make([]string, 0, len(m.Headers))
	for name := range m.Headers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		value := m.Headers[name]
		if !validHeaderName(name) || slices.Contains(reserved, strings.ToLower(name)) {
			return nil, fmt.Errorf("header %q may not be set", name)
		}
		if strings.ContainsAny(value, "\r\n") {
			return nil, fmt.Errorf("header %q contains a line break", name)
		}
		msg.SetGenHeader(gomail.Header(textproto.CanonicalMIMEHeaderKey(name)), value)
	}
	switch {
	case m.Text != "" && m.HTML != "":
		msg.SetBodyString(gomail.TypeTextPlain, m.Text)
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	case m.HTML != "":
		msg.SetBodyString(gomail.TypeTextHTML, m.HTML)
	default:
		msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	}
	return msg, nil
}

// validHeaderName accepts RFC 5322 field names: printable ASCII but colon.
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c <= ' ' || c > '~' || c == ':' {
			return false
		}
	}
	return true
}

// classify turns a go-mail send error into a retryable or permanent one.
func classify(err error) error {
	var se *gomail.SendError
	if errors.As(err, &se) {
		switch {
		case se.ErrorCode() >= 500:
			return fmt.Errorf("smtp: %w: %w", err, ports.ErrPermanent)
		case se.Reason == gomail.ErrGetSender || se.Reason == gomail.ErrGetRcpts || se.Reason == gomail.ErrNoUnencoded:
			return fmt.Errorf("smtp: %w: %w", err, ports.ErrPermanent)
		}
		return fmt.Errorf("smtp: %w", err)
	}
	var te *textproto.Error
	if errors.As(err, &te) && te.Code >= 500 {
		return fmt.Errorf("smtp: %w: %w", err, ports.ErrPermanent)
	}
	return fmt.Errorf("smtp: %w", err)
}

// redact keeps a password in a malformed URL out of error messages.
func redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return errors.New(ue.Err.Error())
	}
	return err
}
