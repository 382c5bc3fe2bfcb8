package smtptest_test

import (
	"context"
	"testing"

	"github.com/vetted-dev/vetted/adapters/smtp"
	"github.com/vetted-dev/vetted/adapters/smtp/smtptest"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
)

// TestStopAndStart: mail sent while the server is stopped fails; started
// again on the same address, it accepts mail and records its Message-ID,
// after running the OnData hook.
func TestStopAndStart(t *testing.T) {
	t.Parallel()
	s := smtptest.Start(t)
	m, err := smtp.New("smtp://" + s.Addr() + "?tls=none&from=vetted@example.test")
	if err != nil {
		t.Fatal(err)
	}
	mail := mailtmpl.Mail{To: "ann@example.test", Subject: "Hello", Text: "hi", Key: "member:1"}
	ctx := context.Background()

	s.Stop()
	if err := m.Send(ctx, mail); err == nil {
		t.Fatal("sent to a stopped server")
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	var hooked []string
	s.OnData(func(msg smtptest.Message) { hooked = append(hooked, msg.MessageID) })
	if err := m.Send(ctx, mail); err != nil {
		t.Fatalf("send after start: %v", err)
	}
	got := s.Messages()
	if len(got) != 1 || got[0].MessageID != smtp.MessageID("member:1") || got[0].Subject != "Hello" ||
		len(got[0].To) != 1 || got[0].To[0] != "ann@example.test" {
		t.Fatalf("messages = %+v", got)
	}
	if len(hooked) != 1 || hooked[0] != got[0].MessageID {
		t.Fatalf("hook saw %v", hooked)
	}
	if n := s.CountByMessageID()[smtp.MessageID("member:1")]; n != 1 {
		t.Fatalf("count by Message-ID = %d", n)
	}
}
