package api_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
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
	if err := first.Svc.Handle(context.Background(), outbox.KindReviewReminders, nil); err != nil {
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

// TestReminderOfAKilledWorkerIsSentOnce: a worker claimed a queued
// reminder's delivery key and was killed before sending it. Runs of the
// mail job within the lease send nothing and ask to run again later; the
// first run after the lease sends it, and later runs send nothing more.
func TestReminderOfAKilledWorkerIsSentOnce(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	master := env.SaveVendors(t, owner, acct, "Slack")["list"].(map[string]any)["id"].(string)
	a := apitest.Must(t, env.Do(t, "POST", "/vendor-assessments?account-id="+acct+"&vendor-list-id="+master, owner, map[string]any{
		"vendor_name": "Slack", "tier": "critical", "compliance_approval_status": "approved", "sponsor_contact": "sponsor@vendor.test"}), 201).Map(t)
	env.Drain(t)
	env.Clock.Advance(6*31*24*time.Hour + 24*time.Hour) // overdue: the due-date window
	id := uuid.MustParse(a["id"].(string))
	due, err := time.Parse(time.RFC3339, a["next_review_at"].(string))
	if err != nil {
		t.Fatal(err)
	}
	r := assessments.Reminder{DueDate: due.UTC().Format(time.DateOnly)}
	p := outbox.ReminderMail{Key: r.Key(id, "sponsor@vendor.test"), AccountID: uuid.MustParse(acct), AssessmentID: id,
		Email: "sponsor@vendor.test", DueDate: r.DueDate}
	err = env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		_, err := tx.Deliveries().Claim(ctx, p.Key, env.Clock.Now(), mailonce.MailLease) // the killed worker's claim
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	run := func() error { return env.Svc.Handle(context.Background(), outbox.KindReminderMail, p) }
	if err := run(); !errors.Is(err, ports.ErrNotYet) || len(remindersSent(env)) != 0 {
		t.Fatalf("run within the lease: %v, %q sent; want not yet, nothing sent", err, remindersSent(env))
	}
	env.Clock.Advance(mailonce.MailLease)
	for range 2 {
		if err := run(); err != nil {
			t.Fatalf("run after the lease: %v", err)
		}
	}
	if got := remindersSent(env); !sameList(got, []string{"sponsor@vendor.test Slack"}) {
		t.Fatalf("reminders %q, want the sponsor's once", got)
	}
}
