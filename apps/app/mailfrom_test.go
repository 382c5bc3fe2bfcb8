package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/adapters/smtp/smtptest"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
)

// TestMailFromIsTheSender: VETTED_MAIL_FROM is the sender of the mail
// Vetted sends through VETTED_SMTP_URL; a value that is no address, or
// that names another sender than the URL's from, is refused by FromLookup.
func TestMailFromIsTheSender(t *testing.T) {
	t.Parallel()
	srv := smtptest.Start(t)
	env := map[string]string{"VETTED_SMTP_URL": "smtp://" + srv.Addr() + "?tls=none", "VETTED_MAIL_FROM": "Vetted Alerts <alerts@example.test>"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	cfg, err := FromLookup(lookup)
	if err != nil {
		t.Fatal(err)
	}
	a := &App{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	m, err := a.openMailer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Send(context.Background(), mailtmpl.Mail{To: "ann@example.test", Subject: "Hello", Text: "hi", Key: "mailfrom:1"}); err != nil {
		t.Fatal(err)
	}
	got := srv.Messages()
	if len(got) != 1 || got[0].From != "alerts@example.test" || !strings.Contains(string(got[0].Data), "Vetted Alerts") {
		var from []string
		for _, m := range got {
			from = append(from, m.From)
		}
		t.Fatalf("received mail from %v, want one from Vetted Alerts <alerts@example.test>", from)
	}

	// The URL's from may say the same; not another sender, nor a non-address.
	env["VETTED_SMTP_URL"] += "&from=" + url.QueryEscape("Vetted Alerts <alerts@example.test>")
	if _, err := FromLookup(lookup); err != nil {
		t.Fatalf("the same sender twice: %v", err)
	}
	env["VETTED_SMTP_URL"] = "smtp://" + srv.Addr() + "?from=other%40example.test"
	if _, err := FromLookup(lookup); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "VETTED_MAIL_FROM") {
		t.Fatalf("two senders: %v, want a refusal naming VETTED_MAIL_FROM", err)
	}
	env["VETTED_MAIL_FROM"] = "alerts at example"
	if _, err := FromLookup(lookup); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "VETTED_MAIL_FROM") {
		t.Fatalf("no address: %v, want a refusal naming VETTED_MAIL_FROM", err)
	}
}
