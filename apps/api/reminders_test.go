package api_test

import (
	"context"
	"net"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports/stores"
)

var reminderUnsubscribeRe = regexp.MustCompile(`https?://\S+/reminders/unsubscribe\?token=[^\s"<>]+`)

// remindersSent returns "recipient vendor" for each review reminder mail
// sent since the last Reset, sorted.
func remindersSent(env *apitest.Env) []string {
	var out []string
	for _, m := range env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.HasPrefix(m.Key, "reminder:") }) {
		vendor := strings.Fields(strings.TrimPrefix(m.Subject, "[Vetted] Review of "))[0]
		out = append(out, m.To+" "+vendor)
	}
	sort.Strings(out)
	return out
}

// runReminders runs the periodic job, as the scheduler would, workers
// times at once, then delivers what it queued, and returns how many mail
// jobs it queued.
func runReminders(t *testing.T, env *apitest.Env, workers int) int {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for i := range workers {
		wg.Go(func() { errs[i] = env.Svc.Handle(context.Background(), outbox.KindReviewReminders, nil) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("review reminders job: %v", err)
		}
	}
	n := env.Pending(t)
	env.Drain(t)
	return n
}

// dormantAccount stores an inactive account whose master list carries the
// vendor with an approved, high-tier assessment reviewed at reviewedAt, as
// the store keeps it (no route makes an account inactive).
func dormantAccount(t *testing.T, env *apitest.Env, vendorID string, reviewedAt time.Time) {
	t.Helper()
	now := env.Clock.Now()
	acc := accounts.Account{ID: uuid.Must(uuid.NewV7()), Name: "Dormant", Active: false, CreatedAt: now}
	l, err := lists.New(uuid.Must(uuid.NewV7()), acc.ID, lists.MasterList, now)
	if err != nil {
		t.Fatal(err)
	}
	vid := uuid.MustParse(vendorID)
	a := assessments.Assessment{ID: uuid.Must(uuid.NewV7()), AccountID: acc.ID, ListID: l.ID, VendorID: vid, VendorName: "Slack",
		Fields:         assessments.Fields{Status: assessments.Approved, Tier: assessments.High, SponsorContact: "dormant@vendor.test", DataCollected: []string{}},
		LastReviewedAt: reviewedAt, CreatedAt: now, CreatedBy: "x@dormant.test", UpdatedAt: now, UpdatedBy: "x@dormant.test"}
	err = env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Accounts().Create(ctx, acc); err != nil {
			return err
		}
		if err := tx.Lists().Create(ctx, l); err != nil {
			return err
		}
		if err := tx.Lists().AddEntries(ctx, l.ID, []uuid.UUID{vid}, now); err != nil {
			return err
		}
		return tx.Assessments().Save(ctx, []assessments.Assessment{a})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReviewReminders walks the clock through a review's reminder windows
// on memory and SQLite: each window mails the sponsor and the account's
// admins and owners once (the job run twice, and two runs at once, send
// nothing more); members, viewers, a never-reviewed vendor, a deleted
// assessment (before the job and between the job and the send) and an
// inactive account get nothing; a one-click unsubscribe stops the
// account's reminders to that address.
func TestReviewReminders(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opts []apitest.Option
	}{{"store of VETTED_TEST_STORE", nil}, {"sqlite", []apitest.Option{apitest.OnSQLite()}}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := apitest.New(t, tc.opts...)
			acct := env.NewAccount(t, "Acme", "owner@acme.test")
			owner := env.Token("owner@acme.test", apitest.Verified())
			env.AddMember(t, acct, owner, "boss@acme.test", "admin")
			env.AddMember(t, acct, owner, "dev@acme.test", "member")
			env.AddMember(t, acct, owner, "look@acme.test", "viewer")
			saved := env.SaveVendors(t, owner, acct, "Slack", "Zoom", "Okta")
			master := saved["list"].(map[string]any)["id"].(string)
			ids := map[string]string{}
			for _, a := range saved["added"].([]any) {
				m := a.(map[string]any)
				ids[m["vendor_name"].(string)] = m["vendor_id"].(string)
			}
			url := "/vendor-assessments?account-id=" + acct + "&vendor-list-id=" + master
			reviewed := env.Clock.Now() // 2026-11-22 unshifted: high tier, due a year later
			due := env.Clock.Date(1, 0, 0)
			dueDay := due.Format(time.DateOnly)
			var zoom map[string]any
			for _, v := range []string{"Slack", "Zoom"} {
				zoom = apitest.Must(t, env.Do(t, "POST", url, owner, map[string]any{"vendor_name": v, "tier": "high",
					"compliance_approval_status": "approved", "sponsor_contact": "Sponsor@Vendor.test"}), 201).Map(t)
			}
			if next, _ := zoom["next_review_at"].(string); !strings.HasPrefix(next, dueDay+"T") {
				t.Fatalf("Zoom due %v, want %s", zoom["next_review_at"], dueDay)
			}
			apitest.Must(t, env.Do(t, "POST", url, owner, map[string]any{"vendor_name": "Okta", "sponsor_contact": "okta@vendor.test"}), 201)
			dormantAccount(t, env, ids["Slack"], reviewed)
			env.Drain(t)
			env.Mail.Reset()

			at := func(day time.Time) { // that day at 10:00 (unshifted)
				t.Helper()
				env.Clock.Advance(day.Add(time.Hour).Sub(env.Clock.Now()))
				env.Mail.Reset()
			}
			expect := func(when string, want ...string) {
				t.Helper()
				sort.Strings(want)
				if got := remindersSent(env); strings.Join(got, ",") != strings.Join(want, ",") {
					t.Fatalf("%s: reminders %q, want %q", when, got, want)
				}
			}
			staff := func(vendor string) []string {
				return []string{"sponsor@vendor.test " + vendor, "owner@acme.test " + vendor, "boss@acme.test " + vendor}
			}

			at(due.AddDate(0, 0, -31)) // 31 days before
			runReminders(t, env, 1)
			expect("31 days before")

			at(due.AddDate(0, 0, -30)) // the 30-day window; Zoom deleted between the job and the send
			if err := env.Svc.Handle(context.Background(), outbox.KindReviewReminders, nil); err != nil {
				t.Fatal(err)
			}
			apitest.Must(t, env.Do(t, "DELETE", "/vendor-assessments?account-id="+acct+"&assessment-id="+zoom["id"].(string), owner, nil), 200)
			env.Drain(t)
			expect("30 days before", staff("Slack")...)
			m := mailsTo(env, "boss@acme.test")[0]
			if !strings.Contains(m.Subject, "is due in 30 days, on "+dueDay) ||
				m.Headers["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" || !strings.HasPrefix(m.Headers["List-Unsubscribe"], "<"+env.URL+"/reminders/unsubscribe?token=") {
				t.Fatalf("reminder %q headers %v", m.Subject, m.Headers)
			}
			env.Mail.Reset()
			runReminders(t, env, 1) // the same window again: nothing more
			expect("30 days before, run again")

			at(due.AddDate(0, 0, -7)) // 7 days before; two runs at once queue each mail once
			if n := runReminders(t, env, 2); n != 3 {
				t.Fatalf("two runs at once queued %d mails, want 3", n)
			}
			expect("7 days before", staff("Slack")...)

			at(due) // the due date
			runReminders(t, env, 1)
			runReminders(t, env, 1)
			expect("on the due date", staff("Slack")...)

			// The admin stops the account's reminders with the one-click link.
			link := linkIn(t, mailsTo(env, "boss@acme.test")[0], reminderUnsubscribeRe)
			page := apitest.Must(t, sendRaw(t, env, "GET", link, map[string]string{"Accept": "application/json"}, nil), 200).Map(t)
			if page["status"] != "subscribed" || page["email"] != "boss@acme.test" || page["account"] != "Acme" {
				t.Fatalf("unsubscribe page %v", page)
			}
			for range 2 { // RFC 8058's POST, twice: the second is success too
				r := apitest.Must(t, sendRaw(t, env, "POST", link, map[string]string{"Content-Type": "application/x-www-form-urlencoded",
					"Accept": "application/json"}, strings.NewReader("List-Unsubscribe=One-Click")), 200).Map(t)
				if r["status"] != "unsubscribed" {
					t.Fatalf("unsubscribe answered %v", r)
				}
			}
			apitest.Must(t, sendRaw(t, env, "POST", link[:len(link)-4]+"abcd", map[string]string{"Accept": "application/json"}, nil), 403)

			at(due.AddDate(0, 0, 6)) // overdue 6 days: still the due-date window
			runReminders(t, env, 1)
			expect("overdue 6 days")
			at(due.AddDate(0, 0, 7)) // overdue a week
			runReminders(t, env, 1)
			expect("overdue a week", "owner@acme.test Slack", "sponsor@vendor.test Slack")
			if s := mailsTo(env, "owner@acme.test")[0].Subject; !strings.Contains(s, "is overdue by 7 days (due "+dueDay+")") {
				t.Fatalf("overdue subject %q", s)
			}
			at(due.AddDate(0, 0, 14)) // two weeks
			runReminders(t, env, 2)
			expect("overdue two weeks", "owner@acme.test Slack", "sponsor@vendor.test Slack")

			// A new review moves the due date: the next reminders are about it.
			apitest.Must(t, env.Do(t, "POST", url, owner, map[string]any{"vendor_name": "Slack", "compliance_approval_status": "in-progress"}), 200)
			apitest.Must(t, env.Do(t, "POST", url, owner, map[string]any{"vendor_name": "Slack", "compliance_approval_status": "approved"}), 200)
			at(due.AddDate(1, 0, 14)) // the new due date: a year after that review (2028-12-06 unshifted)
			runReminders(t, env, 1)
			expect("the next due date", "owner@acme.test Slack", "sponsor@vendor.test Slack")
		})
	}
}

// TestServeSchedulesReviewReminders: on the embedded default, vetted serve
// runs the review reminders job itself (at start, then every
// VETTED_REMINDER_INTERVAL), so a reminder owed goes out with no worker.
func TestServeSchedulesReviewReminders(t *testing.T) {
	t.Parallel()
	env := apitest.New(t, apitest.WithConfig(func(c *app.Config) { c.ReminderInterval = time.Hour }))
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	master := env.SaveVendors(t, owner, acct, "Slack")["list"].(map[string]any)["id"].(string)
	apitest.Must(t, env.Do(t, "POST", "/vendor-assessments?account-id="+acct+"&vendor-list-id="+master, owner, map[string]any{
		"vendor_name": "Slack", "tier": "critical", "compliance_approval_status": "approved", "sponsor_contact": "sponsor@vendor.test"}), 201)
	env.Drain(t)
	env.Clock.Advance(6 * 31 * 24 * time.Hour) // past the due date (critical: 6 months)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- env.App.Serve(ctx, ln) }()
	deadline := time.Now().Add(30 * time.Second) // bounds a stuck test; not a speed assertion
	want := "owner@acme.test Slack,sponsor@vendor.test Slack"
	for strings.Join(remindersSent(env), ",") != want {
		if time.Now().After(deadline) {
			t.Fatalf("reminders sent %q, want %q", remindersSent(env), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// TestReviewRemindersInAPersonalSpace: a review in a user's personal space
// is reminded like one in an organization (the user is its owner), once per
// window, and the mail names the space as the reader's own.
func TestReviewRemindersInAPersonalSpace(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	solo := env.Token("solo@example.test", apitest.Verified())
	saved := env.SaveVendors(t, solo, "individual", "Slack")
	master := saved["list"].(map[string]any)["id"].(string)
	apitest.Must(t, env.Do(t, "POST", "/vendor-assessments?account-id=individual&vendor-list-id="+master, solo,
		map[string]any{"vendor_name": "Slack", "tier": "high", "compliance_approval_status": "approved", "sponsor_contact": "it@solo.test"}), 201)
	env.Drain(t)
	env.Mail.Reset()
	env.Clock.Advance(365*24*time.Hour + time.Hour) // past the due date a year after the review
	runReminders(t, env, 1)
	want := []string{"it@solo.test Slack", "solo@example.test Slack"}
	if got := remindersSent(env); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("reminders %q, want %q", got, want)
	}
	if m := mailsTo(env, "solo@example.test")[0]; !strings.Contains(m.Text, "of your personal space") || strings.Contains(m.Text, "individual") {
		t.Fatalf("reminder text names the space wrongly:\n%s", m.Text)
	}
	env.Mail.Reset()
	runReminders(t, env, 1)
	if got := remindersSent(env); len(got) != 0 {
		t.Fatalf("the same window again sent %q", got)
	}
}
