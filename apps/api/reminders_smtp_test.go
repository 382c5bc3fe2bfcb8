package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// TestReviewReminderThroughSMTP: review reminders go out through a real
// SMTP server with RFC 8058 headers; POSTing the owner's List-Unsubscribe
// URL stops the account's reminders to the owner, while the sponsor still
// gets the next one.
func TestReviewReminderThroughSMTP(t *testing.T) {
	env, web := smtpEnv(t)
	tag := strings.ReplaceAll(uuid.NewString(), "-", "")[:12]
	owner, sponsor := "owner-"+tag+"@acme.test", "sponsor-"+tag+"@vendor.test"
	acct := env.NewAccount(t, "Acme "+tag, owner)
	tok := env.Token(owner, apitest.Verified())
	vendor := "Vendor" + tag
	master := env.SaveVendors(t, tok, acct, vendor)["list"].(map[string]any)["id"].(string)
	apitest.Must(t, env.Do(t, "POST", "/vendor-assessments?account-id="+acct+"&vendor-list-id="+master, tok, map[string]any{
		"vendor_name": vendor, "tier": "critical", "compliance_approval_status": "approved", "sponsor_contact": sponsor}), 201)
	env.Drain(t)
	run := func() {
		t.Helper()
		if err := env.Svc.Handle(context.Background(), outbox.KindReviewReminders, nil); err != nil {
			t.Fatal(err)
		}
		env.Drain(t)
	}
	// reminders waits until addr has n reminders about the vendor.
	reminders := func(addr string, n int) []capturedMail {
		t.Helper()
		var got []capturedMail
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			got = got[:0]
			for _, m := range mailTo(t, web, addr) {
				if strings.Contains(m.Subject, "Review of "+vendor) {
					got = append(got, m)
				}
			}
			if len(got) >= n {
				break
			}
		}
		if len(got) != n {
			t.Fatalf("%s has %d reminders, want %d", addr, len(got), n)
		}
		return got
	}

	env.Clock.Advance(6*31*24*time.Hour + 24*time.Hour) // critical: due after 6 months; now overdue a few days
	run()
	reminders(sponsor, 1)
	m := reminders(owner, 1)[0]
	if !strings.Contains(m.Subject, "is overdue by") || m.Headers["list-unsubscribe-post"] != "List-Unsubscribe=One-Click" {
		t.Fatalf("reminder %q headers %v", m.Subject, m.Headers)
	}
	lu := m.Headers["list-unsubscribe"]
	start, end := strings.Index(lu, "<http"), strings.Index(lu, ">")
	if start < 0 || end < start || !strings.Contains(lu, "/reminders/unsubscribe?token=") {
		t.Fatalf("List-Unsubscribe: %q", lu)
	}
	res, err := http.Post(lu[start+1:end], "application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click"))
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("one-click unsubscribe: %v %v", res, err)
	}
	_ = res.Body.Close()

	env.Clock.Advance(7 * 24 * time.Hour) // the next weekly window
	run()
	reminders(sponsor, 2)
	reminders(owner, 1)
}
