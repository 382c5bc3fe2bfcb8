package smtp_test

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/wait"

	"github.com/vetted-dev/vetted/adapters/internal/dockerprobe"
	"github.com/vetted-dev/vetted/adapters/smtp"
	"github.com/vetted-dev/vetted/internal/testenv"
)

// Integration test against a real capture server (maildev 2.2.1; .ci/start-smtp.sh
// starts one). VETTED_TEST_SMTP_ADDR is its SMTP host:port and
// VETTED_TEST_SMTP_WEB its web API host:port (default 127.0.0.1:1080). When
// the address is unset, a maildev on the default ports is used if one
// answers, else a maildev container if Docker answers; otherwise the test
// skips, or fails under CI=true.

const maildevImage = "maildev/maildev:2.2.1"

func maildev(t *testing.T) (smtpAddr, webAddr string) {
	t.Helper()
	if a := os.Getenv("VETTED_TEST_SMTP_ADDR"); a != "" {
		return a, cmp.Or(os.Getenv("VETTED_TEST_SMTP_WEB"), "127.0.0.1:1080")
	}
	if reachable("127.0.0.1:1025") && reachable("127.0.0.1:1080") {
		return "127.0.0.1:1025", "127.0.0.1:1080"
	}
	if dockerprobe.Healthy() != nil {
		testenv.Unavailable(t, "SMTP", "VETTED_TEST_SMTP_ADDR", "no maildev answers on 127.0.0.1:1025 and Docker is not available")
	}
	ctx := context.Background()
	c, err := testcontainers.GenericContainer(ctx, testcontainers.GenericContainerRequest{
		ContainerRequest: testcontainers.ContainerRequest{
			Image:        maildevImage,
			ExposedPorts: []string{"1025/tcp", "1080/tcp"},
			WaitingFor:   wait.ForHTTP("/email").WithPort("1080/tcp").WithStartupTimeout(time.Minute),
		},
		Started: true,
	})
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatalf("start maildev container: %v", err)
	}
	smtpAddr, err = c.PortEndpoint(ctx, "1025/tcp", "")
	if err != nil {
		t.Fatal(err)
	}
	webAddr, err = c.PortEndpoint(ctx, "1080/tcp", "")
	if err != nil {
		t.Fatal(err)
	}
	return smtpAddr, webAddr
}

func reachable(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// maildevMail is the part of maildev's GET /email answer the test reads.
type maildevMail struct {
	ID      string            `json:"id"`
	Subject string            `json:"subject"`
	Text    string            `json:"text"`
	HTML    string            `json:"html"`
	Headers map[string]string `json:"headers"`
	To      []struct {
		Address string `json:"address"`
	} `json:"to"`
}

func TestMaildevIntegration(t *testing.T) {
	smtpAddr, webAddr := maildev(t)
	var b [6]byte
	_, _ = rand.Read(b[:])
	to := "it-" + hex.EncodeToString(b[:]) + "@vetted.test"
	key := "alert:it:" + to
	want := alert(to, key)

	m := newMailer(t, "smtp://"+smtpAddr+"?timeout=10s&from=alerts@vetted.test")
	if err := m.Send(context.Background(), want); err != nil {
		t.Fatalf("send through maildev at %s: %v", smtpAddr, err)
	}

	var got *maildevMail
	deadline := time.Now().Add(15 * time.Second)
	for got == nil && time.Now().Before(deadline) {
		got = findMail(t, webAddr, to)
		if got == nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if got == nil {
		t.Fatalf("maildev at %s never showed a mail to %s", webAddr, to)
	}
	t.Cleanup(func() {
		req, _ := http.NewRequest(http.MethodDelete, "http://"+webAddr+"/email/"+got.ID, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_ = resp.Body.Close()
		}
	})
	if got.Subject != want.Subject {
		t.Errorf("subject = %q, want %q", got.Subject, want.Subject)
	}
	if len(got.To) != 1 || got.To[0].Address != to {
		t.Errorf("to = %+v", got.To)
	}
	if strings.TrimSpace(got.Text) != strings.TrimSpace(want.Text) {
		t.Errorf("text = %q, want %q", got.Text, want.Text)
	}
	if !strings.Contains(got.HTML, `<a href="https://vetted.test/unsubscribe?token=abc.def">Unsubscribe</a>`) {
		t.Errorf("html lacks the unsubscribe link: %q", got.HTML)
	}
	for name, value := range map[string]string{
		"list-unsubscribe":      want.Headers["List-Unsubscribe"],
		"list-unsubscribe-post": "List-Unsubscribe=One-Click",
		"message-id":            "<" + smtp.MessageID(key) + ">",
	} {
		if got.Headers[name] != value {
			t.Errorf("header %s = %q, want %q", name, got.Headers[name], value)
		}
	}
}

func findMail(t *testing.T, webAddr, to string) *maildevMail {
	t.Helper()
	resp, err := http.Get("http://" + webAddr + "/email")
	if err != nil {
		t.Fatalf("maildev web API: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /email = %d", resp.StatusCode)
	}
	var all []maildevMail
	if err := json.NewDecoder(resp.Body).Decode(&all); err != nil {
		t.Fatal(fmt.Errorf("decode /email: %w", err))
	}
	for i := range all {
		for _, r := range all[i].To {
			if r.Address == to {
				return &all[i]
			}
		}
	}
	return nil
}
