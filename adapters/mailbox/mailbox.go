// Package mailbox is the Mailer of the embedded default and of tests: it
// delivers nothing, keeps every mail it is handed, and (with NewLog) logs
// each one: recipient, subject and delivery key at info level, and the body,
// whose links carry signed tokens, only at debug level, so a developer who
// wants to follow confirmation and unsubscribe links from the console sets
// VETTED_LOG_LEVEL=debug and nobody else's log collects live tokens. Failures can be
// injected to exercise the outbox relay's retry and give-up paths.
package mailbox

import (
	"context"
	"log/slog"
	"maps"
	"sync"

	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/ports"
)

// Mailbox is an in-memory ports.Mailer. It is safe for concurrent use.
type Mailbox struct {
	log *slog.Logger // nil: do not log

	mu       sync.Mutex
	sent     []mailtmpl.Mail
	failLeft int
	failErr  error
}

var _ ports.Mailer = (*Mailbox)(nil)

// New returns a mailbox that keeps mail without logging it.
func New() *Mailbox { return &Mailbox{} }

// NewLog returns a mailbox that logs every mail (recipient, subject and
// delivery key at info level; the text body at debug level) and keeps it. A nil logger means
// slog.Default(), so the embedded default always shows its mail somewhere.
func NewLog(l *slog.Logger) *Mailbox {
	if l == nil {
		l = slog.Default()
	}
	return &Mailbox{log: l}
}

// Send records m, or returns the injected error if FailNext is armed. A
// failed send is not recorded, as a real transport would not have sent it.
func (b *Mailbox) Send(ctx context.Context, m mailtmpl.Mail) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	if b.failLeft > 0 {
		b.failLeft--
		err := b.failErr
		b.mu.Unlock()
		return err
	}
	b.sent = append(b.sent, clone(m))
	b.mu.Unlock()
	if b.log != nil {
		b.log.LogAttrs(ctx, slog.LevelInfo, "mail",
			slog.String("to", m.To),
			slog.String("subject", m.Subject),
			slog.String("key", m.Key))
		b.log.LogAttrs(ctx, slog.LevelDebug, "mail body",
			slog.String("to", m.To),
			slog.String("key", m.Key),
			slog.String("text", m.Text))
	}
	return nil
}

// Sent returns a copy of every mail recorded since the last Reset, in the
// order they were sent.
func (b *Mailbox) Sent() []mailtmpl.Mail {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]mailtmpl.Mail, len(b.sent))
	for i, m := range b.sent {
		out[i] = clone(m)
	}
	return out
}

// Find returns copies of the recorded mails for which match reports true, in
// send order; none gives an empty slice.
func (b *Mailbox) Find(match func(mailtmpl.Mail) bool) []mailtmpl.Mail {
	var out []mailtmpl.Mail
	for _, m := range b.Sent() {
		if match(m) {
			out = append(out, m)
		}
	}
	return out
}

// Reset forgets every recorded mail and disarms FailNext.
func (b *Mailbox) Reset() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sent = nil
	b.failLeft, b.failErr = 0, nil
}

// FailNext makes the next n calls to Send return err without recording the
// mail. Wrap err with ports.ErrPermanent to simulate a final refusal (an SMTP
// 5xx); a plain error simulates a transient one. n <= 0 or a nil err disarms.
func (b *Mailbox) FailNext(n int, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n <= 0 || err == nil {
		b.failLeft, b.failErr = 0, nil
		return
	}
	b.failLeft, b.failErr = n, err
}

// clone copies the header map so callers cannot change what was recorded.
func clone(m mailtmpl.Mail) mailtmpl.Mail {
	m.Headers = maps.Clone(m.Headers)
	return m
}
