package memstore

import (
	"context"
	"slices"
	"sync"

	"github.com/vetted-dev/vetted/ports/stores"
)

// maxPending is how many notices a subscriber that falls behind keeps; past
// it they are replaced by one that names every vendor.
const maxPending = 256

// ChangeFeed is the in-process stores.ChangeFeed: it reaches the subscribers
// of the same process only, which is all there is with the memory store or
// SQLite (one process owns the database file). Publish never blocks: each
// subscriber has a queue of its own, bounded by maxPending.
type ChangeFeed struct {
	mu   sync.Mutex
	subs map[*localSub]struct{}
}

var _ stores.ChangeFeed = (*ChangeFeed)(nil)

type localSub struct {
	mu      sync.Mutex
	pending []stores.Changed
	wake    chan struct{} // capacity 1
}

// NewChangeFeed returns an in-process feed with no subscribers.
func NewChangeFeed() *ChangeFeed { return &ChangeFeed{subs: map[*localSub]struct{}{}} }

// Stage does nothing: the feed is told after the commit, by Publish.
func (f *ChangeFeed) Stage(context.Context, stores.Tx, stores.Changed) error { return nil }

// Publish queues c for every subscriber.
func (f *ChangeFeed) Publish(_ context.Context, c stores.Changed) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for s := range f.subs {
		s.mu.Lock()
		if len(s.pending) >= maxPending {
			s.pending = append(s.pending[:0], stores.Changed{All: true, Data: true})
		} else {
			s.pending = append(s.pending, stores.Changed{Vendors: slices.Clone(c.Vendors), All: c.All, Data: c.Data, Accounts: slices.Clone(c.Accounts)})
		}
		s.mu.Unlock()
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
	return nil
}

// Subscribe calls h for every notice published from now until ctx ends;
// it never loses its connection.
func (f *ChangeFeed) Subscribe(ctx context.Context, ready func(), h func(stores.Changed)) error {
	s := &localSub{wake: make(chan struct{}, 1)}
	f.mu.Lock()
	f.subs[s] = struct{}{}
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.subs, s)
		f.mu.Unlock()
	}()
	ready()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.wake:
		}
		s.mu.Lock()
		batch := s.pending
		s.pending = nil
		s.mu.Unlock()
		for _, c := range batch {
			h(c)
		}
	}
}
