package worker_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	asynqadapter "github.com/vetted-dev/vetted/adapters/asynq"
	"github.com/vetted-dev/vetted/adapters/asynq/asynqtest"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// seedReminders stores an active organization with n reviews overdue, each
// with a sponsor of its own, and puts one run of the review reminders job
// in the outbox; the keys the suite counts become those of the n reminders
// owed.
func (w *killWorld) seedReminders(n int) {
	w.t.Helper()
	now := w.now()
	acc, err := accounts.NewAccount(uuid.Must(uuid.NewV7()), "Acme", now)
	if err != nil {
		w.t.Fatal(err)
	}
	l, err := lists.New(uuid.Must(uuid.NewV7()), acc.ID, lists.MasterList, now)
	if err != nil {
		w.t.Fatal(err)
	}
	// Critical reviews are due 6 months on: these are 31 days overdue, in
	// the window of 28 days overdue for a week whatever the restart's clock.
	reviewed := now.AddDate(0, -6, -31)
	vs := make([]vendors.Vendor, n)
	for i := range vs {
		if vs[i], err = vendors.New(uuid.Must(uuid.NewV7()), fmt.Sprintf("Vendor %d", i), "", now); err != nil {
			w.t.Fatal(err)
		}
	}
	err = w.store.InTx(w.t.Context(), func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Accounts().Create(ctx, acc); err != nil {
			return err
		}
		if err := tx.Lists().Create(ctx, l); err != nil {
			return err
		}
		stored, err := tx.Vendors().Ensure(ctx, vs)
		if err != nil {
			return err
		}
		ids := make([]uuid.UUID, n)
		as := make([]assessments.Assessment, n)
		for i, v := range stored {
			ids[i] = v.ID
			as[i] = assessments.Assessment{ID: uuid.Must(uuid.NewV7()), AccountID: acc.ID, ListID: l.ID, VendorID: v.ID, VendorName: v.Name.String(),
				Fields: assessments.Fields{Status: assessments.Approved, Tier: assessments.Critical, SponsorContact: fmt.Sprintf("s%d@kill.test", i),
					DataCollected: []string{}}, LastReviewedAt: reviewed, CreatedAt: now, CreatedBy: "o@kill.test", UpdatedAt: now, UpdatedBy: "o@kill.test"}
			a := as[i]
			r, ok := assessments.DueReminder(assessments.Schedule(a.Fields, a.LastReviewedAt, assessments.DefaultPolicy(), now), assessments.DefaultPolicy(), now)
			if !ok || r.Offset != -28 {
				return fmt.Errorf("reminder %+v %v, want the window of 28 days overdue", r, ok)
			}
			w.keys = append(w.keys, r.Key(a.ID, a.SponsorContact))
		}
		if err := tx.Lists().AddEntries(ctx, l.ID, ids, now); err != nil {
			return err
		}
		if err := tx.Assessments().Save(ctx, as); err != nil {
			return err
		}
		return tx.Outbox().Add(ctx, outbox.New(uuid.Must(uuid.NewV7()), outbox.KindReviewReminders, struct{}{}, now))
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

// awaitReminders waits until the outbox is empty and the reminders job and
// its n mails have completed.
func (w *killWorld) awaitReminders(n int) {
	w.t.Helper()
	insp := asynqadapter.NewInspector(w.rdb)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var busy, done, archived int
		for _, q := range asynqadapter.Queues() {
			c, err := insp.Counts(q)
			if err != nil {
				w.t.Fatal(err)
			}
			busy += c.Pending + c.Active + c.Scheduled + c.Retry
			done += c.Completed
			archived += c.Archived
		}
		if archived > 0 {
			w.fatalf("%d tasks archived (failed for good)", archived)
		}
		if busy == 0 && done == n+1 && pending(w.t, w.store) == 0 {
			return
		}
		if time.Now().After(deadline) {
			w.fatalf("not done after 30 s: %d tasks completed of %d, %d still queued", done, n+1, busy)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestReviewRemindersSurviveAKilledWorker kills the worker with SIGKILL at
// each point of the review reminders job and of the first reminder mail,
// restarts it, and checks what became of each reminder: killed before the
// job, in it, or after it committed and before the queue knew it was done
// (so it runs again), each reminder goes out once; killed after the SMTP
// server took a mail and before its key was marked sent, that one mail goes
// out twice with one Message-ID (as every mail does, see
// TestMailSurvivesAKilledWorker), the others once.
//
// It runs on SQLite and on PostgreSQL, whose units of work do run side by
// side (the job's reminder keys and the mails' delivery claims are rows
// there too).
//
// Not parallel: it borrows Redis database 11, as TestMailSurvivesAKilledWorker.
func TestReviewRemindersSurviveAKilledWorker(t *testing.T) {
	asynqtest.BaseURL(t)
	const n = 3
	for _, store := range []string{"sqlite", "postgres"} {
		t.Run(store, func(t *testing.T) { reminderKills(t, store, n) })
	}
}

func reminderKills(t *testing.T, store string, n int) {
	for _, p := range []struct {
		point string
		want  tally
	}{
		{atJobStart, tally{runs: 1, mails: n, once: n}},
		{atJobDone, tally{runs: 1, mails: n, once: n}},
		{atClaimed, tally{runs: 1, mails: n, once: n}},
		{atSent, tally{runs: 1, mails: n, once: n - 1, duplicated: 1}},
	} {
		t.Run(p.point, func(t *testing.T) {
			w := newKillWorldOn(t, store)
			w.seedReminders(n)
			w.start(p.point, 0)
			w.awaitPoint(p.point)
			w.kill()
			w.expireLeases()
			w.start("", mailonce.MailLease-time.Second)
			w.awaitReminders(n)
			w.stop()
			if got := w.count(); got != p.want {
				w.fatalf("killed at %s: %v; want %v", p.point, got, p.want)
			}
		})
	}
}
