package uow_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

type clock struct{}

func (clock) Now() time.Time {
	return time.Date(2026, 11, 25, 10, 0, 0, 0, time.FixedZone("CET", 3600))
}

func TestUnit(t *testing.T) {
	t.Parallel()
	if got := (uow.Unit[stores.Tx]{}).Missing(); !slices.Equal(got, []string{"Store", "Clock", "IDs"}) {
		t.Fatalf("Missing = %v", got)
	}
	s := memstore.New()
	woken := 0
	u := uow.Unit[stores.Tx]{Store: s, Clock: clock{}, IDs: ports.UUIDv7{}, Notify: func() { woken++ }}
	if u.Now().Location() != time.UTC || u.Now().Hour() != 9 {
		t.Fatalf("Now = %v, want UTC", u.Now())
	}
	ctx := context.Background()
	err := u.Write(ctx, func(ctx context.Context, tx stores.Tx) error {
		return u.Emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: []string{"a"}})
	})
	added := s.Undelivered()
	if err != nil || woken != 1 || len(added) != 1 || added[0].Kind != outbox.KindBlobDelete || added[0].ID == uuid.Nil {
		t.Fatalf("Write: %v, woken %d, added %+v", err, woken, added)
	}
	// A unit of work that adds nothing to the outbox wakes nobody: the
	// relay would only find it empty.
	if err := u.Write(ctx, func(context.Context, stores.Tx) error { return nil }); err != nil || woken != 1 {
		t.Fatalf("Write without a message: %v, woken %d", err, woken)
	}
	// A unit of work that fails wakes nobody, and what it emitted is gone.
	boom := errors.New("boom")
	if err := u.Write(ctx, func(ctx context.Context, tx stores.Tx) error {
		if err := u.Emit(ctx, tx, outbox.KindBlobDelete, outbox.BlobDelete{Keys: []string{"b"}}); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) || woken != 1 || len(s.Undelivered()) != 1 {
		t.Fatalf("failed Write: %v, woken %d, outbox %+v", err, woken, s.Undelivered())
	}
	if err := u.View(ctx, func(context.Context, stores.Tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
}
