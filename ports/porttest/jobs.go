package porttest

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

func getRun(f *fixture, id uuid.UUID) (vendors.Run, error) {
	return loadErr(f, func(ctx context.Context, tx stores.Tx) (vendors.Run, error) { return tx.Runs().Get(ctx, id) })
}

var runCases = []testCase{
	{"Create then Get and GetForUpdate", func(t *testing.T, f *fixture) {
		r := f.run(2)
		got, err := getRun(f, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "kind", got.Kind, vendors.RunEnrich)
		sameStrings(t, "sections", got.Sections, []string{"basic"})
		equal(t, "created by", got.CreatedBy, "admin@example.com")
		equal(t, "jobs", len(got.Jobs), 2)
		equal(t, "job", got.Jobs[1], r.Jobs[1])
		sameTime(t, "created_at", got.CreatedAt, r.CreatedAt)
		var locked vendors.Run
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			locked, err = tx.Runs().GetForUpdate(ctx, r.ID)
			return err
		})
		equal(t, "GetForUpdate jobs", len(locked.Jobs), 2)
		_, err = getRun(f, newID())
		wantErr(t, "Get absent", err, core.ErrNotFound)
		err = f.try(func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Runs().GetForUpdate(ctx, newID())
			return err
		})
		wantErr(t, "GetForUpdate absent", err, core.ErrNotFound)
	}},
	{"Save stores jobs and updated_at", func(t *testing.T, f *fixture) {
		r := f.run(2)
		j := r.Jobs[0]
		j.Status, j.Error, j.Created = vendors.RunFailed, "timeout", 3
		if !r.SetJob(j, f.tick()) {
			t.Fatal("SetJob found no job")
		}
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Runs().Save(ctx, r) })
		got, err := getRun(f, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "saved job", got.Jobs[0], j)
		equal(t, "untouched job", got.Jobs[1], r.Jobs[1])
		sameTime(t, "updated_at", got.UpdatedAt, r.UpdatedAt)
		equal(t, "status", got.Status(), vendors.RunRunning)
	}},
}

func claimOutbox(f *fixture, limit int, now time.Time) []outbox.Message {
	f.t.Helper()
	var ms []outbox.Message
	f.write(func(ctx context.Context, tx stores.Tx) (err error) {
		ms, err = tx.Outbox().Claim(ctx, limit, now)
		return err
	})
	return ms
}

func messageIDs(ms []outbox.Message) []uuid.UUID {
	return idsOf(ms, func(m outbox.Message) uuid.UUID { return m.ID })
}

func addMessages(f *fixture, ms ...outbox.Message) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Outbox().Add(ctx, ms...) })
}

func pending(f *fixture) int {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) (int, error) { return tx.Outbox().Pending(ctx) })
}

var outboxCases = []testCase{
	{"Claim returns due messages oldest first up to the limit", func(t *testing.T, f *fixture) {
		m1, m2, m3 := f.newMessage(), f.newMessage(), f.newMessage()
		addMessages(f, m3, m1)
		addMessages(f, m2)
		now := f.tick()
		equal(t, "pending", pending(f), 3)
		sameIDs(t, "limit 2", messageIDs(claimOutbox(f, 2, now)), []uuid.UUID{m1.ID, m2.ID})
		got := claimOutbox(f, 10, now)
		sameIDs(t, "limit 10", messageIDs(got), []uuid.UUID{m1.ID, m2.ID, m3.ID})
		equal(t, "kind", got[0].Kind, outbox.KindBlobDelete)
		sameStrings(t, "payload", payloadKeys(t, got[0]), []string{"k"})
		sameTime(t, "created_at", got[0].CreatedAt, m1.CreatedAt)
		equal(t, "attempts", got[0].Attempts, 0)
	}},
	{"MarkFailed hides a message until its retry time", func(t *testing.T, f *fixture) {
		m1, m2 := f.newMessage(), f.newMessage()
		addMessages(f, m1, m2)
		now := f.tick()
		retryAt := now.Add(time.Minute)
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Outbox().MarkFailed(ctx, m1.ID, "queue down", retryAt)
		})
		sameIDs(t, "before retry time", messageIDs(claimOutbox(f, 10, now)), []uuid.UUID{m2.ID})
		equal(t, "failed messages are pending", pending(f), 2)
		got := claimOutbox(f, 10, retryAt.Add(time.Second))
		sameIDs(t, "after retry time", messageIDs(got), []uuid.UUID{m1.ID, m2.ID})
		equal(t, "attempts", got[0].Attempts, 1)
		equal(t, "last error", got[0].LastError, "queue down")
	}},
	{"Oldest is the creation time of the oldest undelivered message", func(t *testing.T, f *fixture) {
		oldest := func() time.Time {
			return load(f, func(ctx context.Context, tx stores.Tx) (time.Time, error) { return tx.Outbox().Oldest(ctx) })
		}
		equal(t, "empty outbox", oldest().IsZero(), true)
		m1, m2 := f.newMessage(), f.newMessage()
		addMessages(f, m2, m1)
		sameTime(t, "two pending", oldest(), m1.CreatedAt)
		now := f.tick()
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Outbox().MarkDelivered(ctx, []uuid.UUID{m1.ID}, now)
		})
		sameTime(t, "after delivering the oldest", oldest(), m2.CreatedAt)
		f.write(func(ctx context.Context, tx stores.Tx) error {
			return tx.Outbox().MarkDelivered(ctx, []uuid.UUID{m2.ID}, now)
		})
		equal(t, "all delivered", oldest().IsZero(), true)
	}},
	{"MarkDelivered removes messages from Claim and Pending", func(t *testing.T, f *fixture) {
		m1, m2, m3 := f.newMessage(), f.newMessage(), f.newMessage()
		addMessages(f, m1, m2, m3)
		now := f.tick()
		f.write(func(ctx context.Context, tx stores.Tx) error {
			ms, err := tx.Outbox().Claim(ctx, 2, now)
			if err != nil {
				return err
			}
			return tx.Outbox().MarkDelivered(ctx, messageIDs(ms), now)
		})
		equal(t, "pending", pending(f), 1)
		sameIDs(t, "claim", messageIDs(claimOutbox(f, 10, now)), []uuid.UUID{m3.ID})
	}},
	{"Lease hides messages until it ends, counts no attempt, and skips delivered ones", func(t *testing.T, f *fixture) {
		m1, m2, m3 := f.newMessage(), f.newMessage(), f.newMessage()
		addMessages(f, m1, m2, m3)
		now := f.tick()
		until := now.Add(time.Minute)
		f.write(func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Outbox().MarkDelivered(ctx, []uuid.UUID{m3.ID}, now); err != nil {
				return err
			}
			return tx.Outbox().Lease(ctx, []uuid.UUID{m1.ID, m3.ID, newID()}, until)
		})
		sameIDs(t, "leased", messageIDs(claimOutbox(f, 10, now)), []uuid.UUID{m2.ID})
		equal(t, "leased messages are pending", pending(f), 2)
		got := claimOutbox(f, 10, until)
		sameIDs(t, "after the lease", messageIDs(got), []uuid.UUID{m1.ID, m2.ID})
		equal(t, "attempts", got[0].Attempts, 0)
		f.write(func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Outbox().Lease(ctx, []uuid.UUID{m1.ID}, until.Add(time.Hour)); err != nil {
				return err
			}
			return tx.Outbox().Lease(ctx, []uuid.UUID{m1.ID}, now) // released
		})
		sameIDs(t, "released", messageIDs(claimOutbox(f, 10, now)), []uuid.UUID{m1.ID, m2.ID})
	}},
	{"messages added in a failed unit of work are not pending", func(t *testing.T, f *fixture) {
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Outbox().Add(ctx, f.newMessage()); err != nil {
				return err
			}
			return errBoom
		})
		wantErr(t, "InTx", err, errBoom)
		equal(t, "pending", pending(f), 0)
		equal(t, "claimed", len(claimOutbox(f, 10, f.tick())), 0)
	}},
}
