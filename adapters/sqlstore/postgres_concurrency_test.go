package sqlstore_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestLastOwnerUnderConcurrency has two owners demote each other at the
// same moment, the way the member use case does it: lock the account, count
// the owners, demote the other one only if another owner remains. Row locks
// must serialise the two units of work so that exactly one owner is left.
func TestLastOwnerUnderConcurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for round := range 20 {
		ann, bob := e.user(uuid.NewString()+"@example.com"), e.user(uuid.NewString()+"@example.com")
		org := e.org("Org " + uuid.NewString())
		e.member(org, ann, accounts.RoleOwner)
		e.member(org, bob, accounts.RoleOwner)

		demoteOther := func(self uuid.UUID, start <-chan struct{}) error {
			<-start
			return e.s.InTx(e.ctx, func(ctx context.Context, tx stores.Tx) error {
				if err := tx.Accounts().Lock(ctx, org.ID); err != nil {
					return err
				}
				ms, err := tx.Members().List(ctx, org.ID)
				if err != nil {
					return err
				}
				if accounts.NewRoster(accounts.RoleOwner, ms).Owners() <= 1 {
					return nil // the other one won: nothing left to do
				}
				for _, m := range ms {
					if m.UserID != self && m.Role == accounts.RoleOwner {
						m.Role = accounts.RoleAdmin
						// Widen the race window: without the lock, the other
						// unit of work would read two owners meanwhile.
						time.Sleep(5 * time.Millisecond)
						return tx.Members().Put(ctx, []accounts.Member{m})
					}
				}
				return nil
			})
		}
		start := make(chan struct{})
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, self := range []uuid.UUID{ann.ID, bob.ID} {
			wg.Go(func() { errs[i] = demoteOther(self, start) })
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, unit %d: %v", round, i, err)
			}
		}
		ms := mustView(e, func(ctx context.Context, tx stores.Tx) ([]accounts.Member, error) {
			return tx.Members().List(ctx, org.ID)
		})
		if n := accounts.NewRoster(accounts.RoleOwner, ms).Owners(); n != 1 {
			t.Fatalf("round %d: %d owners left, want exactly 1", round, n)
		}
	}
}

// TestDeadlockIsRetried makes two units of work lock two accounts in
// opposite orders. PostgreSQL aborts one of them with a deadlock; InTx must
// run it again, so both succeed.
func TestDeadlockIsRetried(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := e.org("Org A"), e.org("Org B")
	var bothLocked sync.WaitGroup
	bothLocked.Add(2)
	var attempts [2]atomic.Int32
	work := func(i int, first, second uuid.UUID) error {
		return e.s.InTx(e.ctx, func(ctx context.Context, tx stores.Tx) error {
			n := attempts[i].Add(1)
			if err := tx.Accounts().Lock(ctx, first); err != nil {
				return err
			}
			if n == 1 {
				bothLocked.Done()
				bothLocked.Wait() // each now holds the lock the other wants
			}
			return tx.Accounts().Lock(ctx, second)
		})
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Go(func() { errs[0] = work(0, a.ID, b.ID) })
	wg.Go(func() { errs[1] = work(1, b.ID, a.ID) })
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("unit %d: %v", i, err)
		}
	}
	if total := attempts[0].Load() + attempts[1].Load(); total < 3 {
		t.Errorf("%d attempts in all, want a retry after the deadlock", total)
	}
}

// TestOutboxClaimSkipsLocked has two relays claim at once: each gets its
// own messages, none twice, until the first unit of work ends.
func TestOutboxClaimSkipsLocked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var ms []outbox.Message
	for range 6 {
		ms = append(ms, outbox.New(newID(), outbox.KindBlobDelete, outbox.BlobDelete{Keys: []string{"k"}}, e.tick()))
	}
	e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Outbox().Add(ctx, ms...) })
	now := e.tick()

	claimed := make(chan []outbox.Message, 1)
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- e.s.InTx(e.ctx, func(ctx context.Context, tx stores.Tx) error {
			got, err := tx.Outbox().Claim(ctx, 4, now)
			if err != nil {
				return err
			}
			claimed <- got
			<-release
			return nil
		})
	}()
	first := <-claimed
	var second []outbox.Message
	e.write(func(ctx context.Context, tx stores.Tx) (err error) {
		second, err = tx.Outbox().Claim(ctx, 4, now)
		return err
	})
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(first) != 4 || len(second) != 2 {
		t.Fatalf("claimed %d and %d, want 4 and 2", len(first), len(second))
	}
	for i, m := range append(first, second...) {
		if m.ID != ms[i].ID {
			t.Fatalf("claim %d: got %s, want %s (oldest first, no overlap)", i, m.ID, ms[i].ID)
		}
	}

	// A failed message waits for its retry time; a delivered one is gone.
	e.write(func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Outbox().MarkFailed(ctx, ms[0].ID, "queue down", now.Add(time.Minute)); err != nil {
			return err
		}
		return tx.Outbox().MarkDelivered(ctx, []uuid.UUID{ms[1].ID}, now)
	})
	var due, later []outbox.Message
	e.write(func(ctx context.Context, tx stores.Tx) (err error) {
		if due, err = tx.Outbox().Claim(ctx, 10, now); err != nil {
			return err
		}
		later, err = tx.Outbox().Claim(ctx, 10, now.Add(time.Minute))
		return err
	})
	if len(due) != 4 || len(later) != 5 || later[0].ID != ms[0].ID || later[0].Attempts != 1 || later[0].LastError != "queue down" {
		t.Errorf("after MarkFailed/MarkDelivered: due %d, later %d (first %+v)", len(due), len(later), later[0])
	}
	pending := mustView(e, func(ctx context.Context, tx stores.Tx) (int, error) { return tx.Outbox().Pending(ctx) })
	if pending != 5 {
		t.Errorf("pending %d, want 5", pending)
	}
}

// TestLockLetsReferencingWritesThrough checks that Accounts.Lock, which
// serialises member changes, does not hold up writes that only reference
// the account, such as creating a list.
func TestLockLetsReferencingWritesThrough(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	org := e.org("Acme Org")
	locked, release, done := make(chan struct{}), make(chan struct{}), make(chan error, 1)
	go func() {
		done <- e.s.InTx(e.ctx, func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Accounts().Lock(ctx, org.ID); err != nil {
				return err
			}
			close(locked)
			<-release
			return nil
		})
	}()
	<-locked
	l, err := lists.New(newID(), org.ID, "other", e.tick())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(e.ctx, 3*time.Second)
	defer cancel()
	err = e.s.InTx(ctx, func(ctx context.Context, tx stores.Tx) error { return tx.Lists().Create(ctx, l) })
	close(release)
	if err != nil {
		t.Errorf("create list while the account is locked: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
