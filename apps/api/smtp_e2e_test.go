package api_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/internal/testenv"
)

type capturedMail struct {
	Subject string            `json:"subject"`
	Headers map[string]string `json:"headers"`
	To      []struct {
		Address string `json:"address"`
	} `json:"to"`
}

// mailTo lists what the capture server (maildev) received for an address.
func mailTo(t *testing.T, web, addr string) []capturedMail {
	t.Helper()
	res, err := http.Get("http://" + web + "/email")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var all []capturedMail
	if err := json.NewDecoder(res.Body).Decode(&all); err != nil {
		t.Fatal(err)
	}
	var out []capturedMail
	for _, m := range all {
		for _, to := range m.To {
			if strings.EqualFold(to.Address, addr) {
				out = append(out, m)
			}
		}
	}
	return out
}

// smtpEnv is the API sending its mail to the SMTP server of
// VETTED_TEST_SMTP_ADDR, and the address of that server's web API
// (VETTED_TEST_SMTP_WEB, maildev's default when unset).
func smtpEnv(t *testing.T) (*apitest.Env, string) {
	t.Helper()
	smtpAddr, web := os.Getenv("VETTED_TEST_SMTP_ADDR"), os.Getenv("VETTED_TEST_SMTP_WEB")
	if smtpAddr == "" {
		testenv.Unavailable(t, "SMTP", "VETTED_TEST_SMTP_ADDR", "this test starts no server (bash .ci/start-smtp.sh)")
	}
	if web == "" {
		web = "127.0.0.1:1080"
	}
	env := apitest.New(t, apitest.WithConfiguredMailer(), apitest.WithConfig(func(c *app.Config) {
		c.SMTPURL = "smtp://" + smtpAddr + "?tls=none"
	}))
	return env, web
}

// TestUnsubscribeThroughSMTP: an alert goes out through a real SMTP server
// with RFC 8058 headers; POSTing its List-Unsubscribe URL stops every
// further alert to that address.
func TestUnsubscribeThroughSMTP(t *testing.T) {
	env, web := smtpEnv(t)
	tag := strings.ReplaceAll(uuid.NewString(), "-", "")[:12]
	owner := "owner-" + tag + "@acme.test"
	acct := env.NewAccount(t, "Acme "+tag, owner)
	tok := env.Token(owner, apitest.Verified())
	vendor := "Vendor " + tag
	env.SaveVendors(t, tok, acct, vendor)
	subscribeVerified(t, env, acct, tok, "master-list", owner)
	admin := env.Token("ops@platform.test", apitest.Admin())
	path := "/vendor/" + strings.ReplaceAll(vendor, " ", "%20") + "/incidents"
	apitest.Must(t, env.Do(t, "POST", path, admin, map[string]any{"title": "First", "severity": "high"}), 201)
	env.Drain(t)
	var alert *capturedMail
	deadline := time.Now().Add(10 * time.Second)
	for alert == nil && time.Now().Before(deadline) {
		for _, m := range mailTo(t, web, owner) {
			if strings.Contains(m.Subject, "First") {
				alert = &m
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	if alert == nil {
		t.Fatal("the alert never reached the SMTP server")
	}
	if alert.Headers["list-unsubscribe-post"] != "List-Unsubscribe=One-Click" {
		t.Fatalf("headers: %v", alert.Headers)
	}
	lu := alert.Headers["list-unsubscribe"]
	start, end := strings.Index(lu, "<http"), strings.Index(lu, ">")
	if start < 0 || end < start {
		t.Fatalf("List-Unsubscribe: %q", lu)
	}
	res, err := http.Post(lu[start+1:end], "application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click"))
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("one-click unsubscribe: %v %v", res.StatusCode, err)
	}
	_ = res.Body.Close()
	apitest.Must(t, env.Do(t, "POST", path, admin, map[string]any{"title": "Second", "severity": "high"}), 201)
	env.Drain(t)
	time.Sleep(300 * time.Millisecond)
	for _, m := range mailTo(t, web, owner) {
		if strings.Contains(m.Subject, "Second") {
			t.Fatal("an alert reached the address after it unsubscribed")
		}
	}
}
