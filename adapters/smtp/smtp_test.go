package smtp_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	gosmtp "github.com/emersion/go-smtp"

	"github.com/vetted-dev/vetted/adapters/smtp"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/ports"
)

func alert(to, key string) mailtmpl.Mail {
	return mailtmpl.AlertMail(to, key, mailtmpl.AlertData{
		VendorName: "Acme", ListName: "master-list", AccountName: "Globex",
		Title: "Credential leak", Summary: "Tokens were exposed.", Severity: "high", Status: "investigating",
		URL: "https://status.acme.test/incidents/1", PublishedAt: time.Date(2026, 5, 1, 9, 30, 0, 0, time.UTC),
		ImpactedData:   []string{"emails", "api keys"},
		UnsubscribeURL: "https://vetted.test/unsubscribe?token=abc.def", UnsubscribeTo: "unsubscribe@vetted.test",
	})
}

// parsed is a captured message taken apart.
type parsed struct {
	header    mail.Header
	mediaType string
	text      string
	html      string
}

func parse(t *testing.T, data []byte) parsed {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("read message: %v\n%s", err, data)
	}
	p := parsed{header: m.Header}
	mt, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	p.mediaType = mt
	if !strings.HasPrefix(mt, "multipart/") {
		p.text = readPart(t, m.Header.Get("Content-Transfer-Encoding"), m.Body)
		return p
	}
	mr := multipart.NewReader(m.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body := readPart(t, part.Header.Get("Content-Transfer-Encoding"), part)
		switch ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type")); ct {
		case "text/plain":
			p.text = body
		case "text/html":
			p.html = body
		}
	}
	return p
}

// readPart decodes base64 parts; multipart.Reader already decodes
// quoted-printable ones.
func readPart(t *testing.T, cte string, r io.Reader) string {
	t.Helper()
	if strings.EqualFold(cte, "base64") {
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

func newMailer(t *testing.T, rawURL string, opts ...smtp.Option) *smtp.Mailer {
	t.Helper()
	m, err := smtp.New(rawURL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSendAlertMail(t *testing.T) {
	t.Parallel()
	srv := startServer(t, serverConfig{})
	m := newMailer(t, "smtp://"+srv.Addr+"?from=Vetted+Alerts+%3Calerts@vetted.test%3E")
	want := alert("dana@globex.test", "alert:incident-1:sub-2")
	if err := m.Send(context.Background(), want); err != nil {
		t.Fatal(err)
	}
	msgs := srv.messages()
	if len(msgs) != 1 {
		t.Fatalf("server got %d messages", len(msgs))
	}
	got := msgs[0]
	if got.From != "alerts@vetted.test" || len(got.To) != 1 || got.To[0] != "dana@globex.test" {
		t.Errorf("envelope from %q to %v", got.From, got.To)
	}
	p := parse(t, got.Data)
	checks := []struct{ header, want string }{
		{"Subject", want.Subject},
		{"To", "<dana@globex.test>"},
		{"From", `"Vetted Alerts" <alerts@vetted.test>`},
		{"Message-Id", "<" + smtp.MessageID(want.Key) + ">"},
		{"List-Unsubscribe", "<https://vetted.test/unsubscribe?token=abc.def>, <mailto:unsubscribe@vetted.test?subject=unsubscribe>"},
		{"List-Unsubscribe-Post", "List-Unsubscribe=One-Click"},
	}
	for _, c := range checks {
		v := p.header.Get(c.header)
		if c.header == "Subject" {
			v, _ = new(mime.WordDecoder).DecodeHeader(v)
		}
		if v != c.want {
			t.Errorf("%s = %q, want %q", c.header, v, c.want)
		}
	}
	if p.mediaType != "multipart/alternative" {
		t.Errorf("Content-Type = %q, want multipart/alternative", p.mediaType)
	}
	if p.text != want.Text {
		t.Errorf("text part = %q, want %q", p.text, want.Text)
	}
	if p.html != want.HTML {
		t.Errorf("html part = %q, want %q", p.html, want.HTML)
	}
	if _, err := p.header.Date(); err != nil {
		t.Errorf("Date: %v", err)
	}
}

func TestSendTextOnly(t *testing.T) {
	t.Parallel()
	srv := startServer(t, serverConfig{})
	m := newMailer(t, "smtp://"+srv.Addr)
	if err := m.Send(context.Background(), mailtmpl.Mail{To: "a@x.test", Subject: "plain", Text: "only text\n", Key: "k"}); err != nil {
		t.Fatal(err)
	}
	p := parse(t, srv.messages()[0].Data)
	if p.mediaType != "text/plain" || p.text != "only text\n" {
		t.Errorf("got %q %q", p.mediaType, p.text)
	}
	if from := srv.messages()[0].From; from != "noreply@vetted.local" {
		t.Errorf("default sender = %q", from)
	}
}

func TestMessageIDIsDerivedFromKey(t *testing.T) {
	t.Parallel()
	if id := smtp.MessageID("k1"); !regexp.MustCompile(`^[0-9a-f]{32}@vetted$`).MatchString(id) {
		t.Fatalf("MessageID = %q", id)
	}
	srv := startServer(t, serverConfig{})
	m := newMailer(t, "smtp://"+srv.Addr)
	for _, key := range []string{"k1", "k1", "k2"} {
		if err := m.Send(context.Background(), alert("a@x.test", key)); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	for _, msg := range srv.messages() {
		ids = append(ids, parse(t, msg.Data).header.Get("Message-Id"))
	}
	if len(ids) != 3 || ids[0] != ids[1] || ids[0] == ids[2] || ids[0] != "<"+smtp.MessageID("k1")+">" {
		t.Fatalf("Message-IDs = %v: want the first two equal and the third different", ids)
	}
}

func TestErrorClassification(t *testing.T) {
	t.Parallel()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedAddr := closed.Addr().String()
	_ = closed.Close()

	tests := []struct {
		name          string
		mail          mailtmpl.Mail
		dataErr       error
		addr          string // instead of the test server
		wantPermanent bool
	}{
		{name: "4xx at RCPT", mail: alert("tempfail@x.test", "k")},
		{name: "5xx at RCPT", mail: alert("reject@x.test", "k"), wantPermanent: true},
		{name: "4xx at DATA", mail: alert("a@x.test", "k"),
			dataErr: &gosmtp.SMTPError{Code: 452, EnhancedCode: gosmtp.EnhancedCode{4, 3, 1}, Message: "mailbox full"}},
		{name: "5xx at DATA", mail: alert("a@x.test", "k"), wantPermanent: true,
			dataErr: &gosmtp.SMTPError{Code: 554, EnhancedCode: gosmtp.EnhancedCode{5, 7, 1}, Message: "rejected as spam"}},
		{name: "connection refused", mail: alert("a@x.test", "k"), addr: refusedAddr},
		{name: "unparseable recipient", mail: alert("not an address", "k"), wantPermanent: true},
		{name: "header injection", mail: mailtmpl.Mail{To: "a@x.test", Subject: "s", Text: "t", Key: "k",
			Headers: map[string]string{"List-Unsubscribe": "<https://x>\r\nBcc: victim@x.test"}}, wantPermanent: true},
		{name: "reserved header", mail: mailtmpl.Mail{To: "a@x.test", Subject: "s", Text: "t", Key: "k",
			Headers: map[string]string{"Bcc": "victim@x.test"}}, wantPermanent: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, serverConfig{})
			srv.setDataErr(tt.dataErr)
			addr := srv.Addr
			if tt.addr != "" {
				addr = tt.addr
			}
			m := newMailer(t, "smtp://"+addr+"?timeout=5s")
			err := m.Send(context.Background(), tt.mail)
			if err == nil {
				t.Fatal("Send succeeded")
			}
			if got := errors.Is(err, ports.ErrPermanent); got != tt.wantPermanent {
				t.Fatalf("permanent = %v, want %v (err: %v)", got, tt.wantPermanent, err)
			}
			if len(srv.messages()) != 0 {
				t.Fatal("a refused mail was delivered")
			}
		})
	}
}

func TestSendHonoursCancelledContext(t *testing.T) {
	t.Parallel()
	srv := startServer(t, serverConfig{})
	m := newMailer(t, "smtp://"+srv.Addr)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := m.Send(ctx, alert("a@x.test", "k"))
	if !errors.Is(err, context.Canceled) || errors.Is(err, ports.ErrPermanent) {
		t.Fatalf("err = %v", err)
	}
}

func TestSTARTTLSAndAuth(t *testing.T) {
	t.Parallel()
	serverTLS, clientTLS := selfSigned(t)
	users := map[string]string{"alice": "s3cret:/@"}
	tests := []struct {
		name     string
		cfg      serverConfig
		url      func(addr string) string
		wantUser string
		wantTLS  bool
		wantErr  bool
	}{
		{name: "STARTTLS then PLAIN auth from the URL", cfg: serverConfig{tls: serverTLS, users: users},
			url:      func(a string) string { return "smtp://alice:s3cret%3A%2F%40@" + a },
			wantUser: "alice", wantTLS: true},
		{name: "wrong password is retryable", cfg: serverConfig{tls: serverTLS, users: users},
			url: func(a string) string { return "smtp://alice:wrong@" + a }, wantErr: true},
		{name: "opportunistic: plain server, no auth", cfg: serverConfig{},
			url: func(a string) string { return "smtp://" + a }},
		{name: "STARTTLS offered is used without auth", cfg: serverConfig{tls: serverTLS},
			url: func(a string) string { return "smtp://" + a }, wantTLS: true},
		{name: "tls=none skips STARTTLS", cfg: serverConfig{tls: serverTLS},
			url: func(a string) string { return "smtp://" + a + "?tls=none" }},
		{name: "tls=mandatory without STARTTLS fails", cfg: serverConfig{},
			url: func(a string) string { return "smtp://" + a + "?tls=mandatory" }, wantErr: true},
		{name: "smtps implicit TLS with auth", cfg: serverConfig{tls: serverTLS, implicit: true, users: users},
			url:      func(a string) string { return "smtps://alice:s3cret%3A%2F%40@" + a },
			wantUser: "alice", wantTLS: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := startServer(t, tt.cfg)
			m := newMailer(t, tt.url(srv.Addr), smtp.WithTLSConfig(clientTLS))
			err := m.Send(context.Background(), alert("a@x.test", "k"))
			if tt.wantErr {
				if err == nil || errors.Is(err, ports.ErrPermanent) {
					t.Fatalf("err = %v, want a retryable error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := srv.messages()
			if len(got) != 1 || got[0].User != tt.wantUser || got[0].TLS != tt.wantTLS {
				t.Fatalf("captured %+v, want user %q tls %v", got, tt.wantUser, tt.wantTLS)
			}
		})
	}
}

func TestNewRejectsBadURLs(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"", "http://mail.test", "smtp://", "smtp://mail.test:0", "smtp://mail.test:99999",
		"smtp://mail.test?tls=maybe", "smtp://mail.test?timeout=soon", "smtp://mail.test?from=not+an+address",
		"smtp://user:p%zz@mail.test",
	} {
		if _, err := smtp.New(u); err == nil {
			t.Errorf("New(%q) succeeded", u)
		} else if strings.Contains(err.Error(), "p%zz") {
			t.Errorf("New(%q) leaked the password: %v", u, err)
		}
	}
	for _, u := range []string{"smtp://mail.test", "smtps://u:p@mail.test", "smtp://mail.test:587?tls=mandatory&auth=login&timeout=3s&helo=vetted.test"} {
		if _, err := smtp.New(u); err != nil {
			t.Errorf("New(%q) = %v", u, err)
		}
	}
}

func TestConcurrentSends(t *testing.T) {
	t.Parallel()
	srv := startServer(t, serverConfig{})
	m := newMailer(t, "smtp://"+srv.Addr)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := range 20 {
		wg.Go(func() { errs <- m.Send(context.Background(), alert(fmt.Sprintf("u%d@x.test", i), fmt.Sprint(i))) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := len(srv.messages()); n != 20 {
		t.Fatalf("delivered %d, want 20", n)
	}
}
