package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/outbox"
)

// TestReviewRemindersSurviveARestart: on SQLite, the process stops after
// the reminders job queued its mails and before any was sent; the next
// process on the same data sends each once, and running the job there
// again (the same window) queues nothing more.
func TestReviewRemindersSurviveARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	open := func() *apitest.Env {
		return apitest.New(t, apitest.OnSQLite(), apitest.WithConfig(func(c *app.Config) { c.DataDir = dir }))
	}
	overdue := 6*31*24*time.Hour + 24*time.Hour // critical: due after 6 months
	first := open()
	acct := first.NewAccount(t, "Acme", "owner@acme.test")
	owner := first.Token("owner@acme.test", apitest.Verified())
	master := first.SaveVendors(t, owner, acct, "Slack")["list"].(map[string]any)["id"].(string)
	apitest.Must(t, first.Do(t, "POST", "/vendor-assessments?account-id="+acct+"&vendor-list-id="+master, owner, map[string]any{
		"vendor_name": "Slack", "tier": "critical", "compliance_approval_status": "approved", "sponsor_contact": "sponsor@vendor.test"}), 201)
	first.Drain(t)
	first.Clock.Advance(overdue)
	if err := first.Svc.Handle(context.Background(), outbox.KindReviewReminders, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if n := first.Pending(t); n != 2 {
		t.Fatalf("%d mails queued, want 2", n)
	}
	if err := first.App.Close(context.Background()); err != nil { // the process stops: nothing was sent
		t.Fatal(err)
	}
	if got := remindersSent(first); len(got) != 0 {
		t.Fatalf("sent before the restart: %q", got)
	}

	second := open()
	second.Clock.Advance(overdue + time.Hour)
	second.Drain(t)
	if n := runReminders(t, second, 2); n != 0 {
		t.Fatalf("the job after the restart queued %d mails, want 0", n)
	}
	want := []string{"owner@acme.test Slack", "sponsor@vendor.test Slack"}
	if got := remindersSent(second); !sameList(got, want) {
		t.Fatalf("reminders after the restart %q, want %q once each", got, want)
	}
}
