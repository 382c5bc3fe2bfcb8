package app_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/internal/testenv"
	"github.com/vetted-dev/vetted/ports/stores"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/app"
)

// flakyFeed's first subscription hears one notice and is lost; the next
// one listens until its ctx ends.
type flakyFeed struct {
	stores.ChangeFeed
	notice   stores.Changed
	mu       sync.Mutex
	calls    int
	relisten chan struct{} // closed when the second subscription listens
}

func (f *flakyFeed) Subscribe(ctx context.Context, ready func(), h func(stores.Changed)) error {
	f.mu.Lock()
	f.calls++
	n := f.calls
	f.mu.Unlock()
	ready()
	if n == 1 {
		h(f.notice)
		return errors.New("connection reset")
	}
	close(f.relisten)
	<-ctx.Done()
	return ctx.Err()
}

// syncLog is a log sink goroutines write while the test reads it.
type syncLog = testenv.Buffer

// After a lost subscription the loop listens again and then forgets every
// remembered view (notices were missed meanwhile), and says so.
func TestChangeWatchCatchesUpAfterALostSubscription(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	feed := &flakyFeed{notice: stores.Changed{Vendors: []uuid.UUID{uuid.New()}}, relisten: make(chan struct{})}
	var (
		mu    sync.Mutex
		heard []stores.Changed
	)
	var logs syncLog
	status := app.WatchChanges(ctx, app.InvalidationPostgres, feed, slog.New(slog.NewTextHandler(&logs, nil)), func(c stores.Changed) {
		mu.Lock()
		defer mu.Unlock()
		heard = append(heard, c)
	})
	select {
	case <-feed.relisten:
	case <-time.After(10 * time.Second):
		t.Fatal("the loop did not subscribe again")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(heard)
		mu.Unlock()
		if n >= 2 && status().Connected {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("heard %v, status %+v", heard, status())
		}
		time.Sleep(time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(heard) != 2 || heard[0].All || heard[0].Vendors[0] != feed.notice.Vendors[0] || !heard[1].All {
		t.Fatalf("forgot %+v, want the notice and then everything", heard)
	}
	if want := (api.InvalidationJSON{Mode: app.InvalidationPostgres, Connected: true, MaxStalenessSeconds: 5}); status() != want {
		t.Fatalf("status %+v, want %+v", status(), want)
	}
	for _, line := range []string{"change feed lost", "connection reset", "catch-up"} {
		if !strings.Contains(logs.String(), line) {
			t.Errorf("the log does not say %q:\n%s", line, logs.String())
		}
	}
}
