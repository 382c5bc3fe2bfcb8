package mailbox_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/vetted-dev/vetted/adapters/mailbox"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/ports"
)

func mail(to, key string) mailtmpl.Mail {
	return mailtmpl.Mail{To: to, Subject: "s " + key, Text: "body " + key, HTML: "<p>" + key + "</p>", Key: key,
		Headers: map[string]string{"List-Unsubscribe": "<https://x/u?" + key + ">"}}
}

func TestSendKeepsAndLogs(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	b := mailbox.NewLog(slog.New(slog.NewTextHandler(&buf, nil)))
	ctx := context.Background()
	for _, m := range []mailtmpl.Mail{mail("a@x.test", "k1"), mail("b@x.test", "k2"), mail("a@x.test", "k3")} {
		if err := b.Send(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	sent := b.Sent()
	if len(sent) != 3 || sent[0].Key != "k1" || sent[2].Key != "k3" {
		t.Fatalf("sent = %+v", sent)
	}
	for _, want := range []string{"to=a@x.test", `subject="s k1"`, "key=k1"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, buf.String())
		}
	}
	if strings.Contains(buf.String(), "body k1") || strings.Contains(buf.String(), "https://x/u") {
		t.Errorf("info log carries a mail body or link:\n%s", buf.String())
	}
	// Returned mails are copies.
	sent[0].Headers["List-Unsubscribe"] = "changed"
	if got := b.Sent()[0].Headers["List-Unsubscribe"]; got == "changed" {
		t.Error("Sent exposes internal state")
	}
	if got := b.Find(func(m mailtmpl.Mail) bool { return m.To == "a@x.test" }); len(got) != 2 {
		t.Errorf("Find(to a) = %d mails, want 2", len(got))
	}
	if got := b.Find(func(m mailtmpl.Mail) bool { return m.To == "nobody@x.test" }); len(got) != 0 {
		t.Errorf("Find(nobody) = %d mails", len(got))
	}
	b.Reset()
	if len(b.Sent()) != 0 {
		t.Error("Reset kept mail")
	}
}

func TestFailNext(t *testing.T) {
	t.Parallel()
	transient := errors.New("451 try later")
	permanent := fmt.Errorf("550 no such user: %w", ports.ErrPermanent)
	tests := []struct {
		name      string
		n         int
		err       error
		wantFails int
	}{
		{"transient twice", 2, transient, 2},
		{"permanent once", 1, permanent, 1},
		{"zero disarms", 0, transient, 0},
		{"nil error disarms", 3, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := mailbox.New()
			b.FailNext(tt.n, tt.err)
			fails := 0
			for i := range 4 {
				err := b.Send(context.Background(), mail("a@x.test", fmt.Sprint(i)))
				if err != nil {
					if !errors.Is(err, tt.err) {
						t.Fatalf("err = %v, want %v", err, tt.err)
					}
					if errors.Is(err, ports.ErrPermanent) != errors.Is(tt.err, ports.ErrPermanent) {
						t.Fatalf("permanence of %v changed", err)
					}
					fails++
				}
			}
			if fails != tt.wantFails || len(b.Sent()) != 4-tt.wantFails {
				t.Fatalf("fails = %d, kept = %d; want %d failures", fails, len(b.Sent()), tt.wantFails)
			}
		})
	}
}

func TestSendHonoursContext(t *testing.T) {
	t.Parallel()
	b := mailbox.New()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Send(ctx, mail("a@x.test", "k")); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if len(b.Sent()) != 0 {
		t.Fatal("cancelled send was recorded")
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	b := mailbox.New()
	b.FailNext(10, errors.New("boom"))
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	for i := range 50 {
		wg.Go(func() {
			if err := b.Send(context.Background(), mail("a@x.test", fmt.Sprint(i))); err != nil {
				mu.Lock()
				failed++
				mu.Unlock()
			}
			_ = b.Sent()
			_ = b.Find(func(mailtmpl.Mail) bool { return true })
		})
	}
	wg.Wait()
	if failed != 10 || len(b.Sent()) != 40 {
		t.Fatalf("failed = %d, kept = %d", failed, len(b.Sent()))
	}
}

func TestBodiesOnlyAtDebugLevel(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	b := mailbox.NewLog(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err := b.Send(context.Background(), mail("a@x.test", "k1")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `text="body k1"`) || !strings.Contains(buf.String(), "level=DEBUG") {
		t.Errorf("debug log lacks the body:\n%s", buf.String())
	}
}
