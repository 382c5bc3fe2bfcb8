package porttest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/ports/stores"
)

// FeedEnv is what the stores.ChangeFeed suite runs on: a store, and two
// feeds on it that behave as two processes' feeds would (each with
// connections of its own).
type FeedEnv struct {
	Store stores.Store
	A, B  stores.ChangeFeed
	// Cut, when set, cuts the connection every subscription of B listens
	// on, as a network fault or an administrator would; nil for a feed
	// with no connection to lose.
	Cut func(t *testing.T)
}

// hearWithin bounds every wait for a notice; the feeds deliver in
// milliseconds, so only a lost notice reaches it.
const hearWithin = 10 * time.Second

// RunChangeFeed runs the conformance suite of stores.ChangeFeed against the
// feeds open returns; every subtest calls open once, and they run one after
// another (feeds on one store would hear each other's notices).
func RunChangeFeed(t *testing.T, open func(t *testing.T) FeedEnv) {
	for _, c := range feedCases {
		t.Run(c.name, func(t *testing.T) { c.run(t, open(t)) })
	}
}

var feedCases = []struct {
	name string
	run  func(t *testing.T, e FeedEnv)
}{
	{"a committed notice is heard by another process, as named", func(t *testing.T, e FeedEnv) {
		heard := listen(t, e.B)
		want := stores.Changed{Vendors: []uuid.UUID{newID(), newID()}}
		announce(t, e, e.A, want)
		sameChange(t, "heard", next(t, heard), want)
	}},
	{"the process that announced hears its own notice", func(t *testing.T, e FeedEnv) {
		heard := listen(t, e.A)
		want := stores.Changed{Vendors: []uuid.UUID{newID()}}
		announce(t, e, e.A, want)
		sameChange(t, "heard", next(t, heard), want)
	}},
	{"a write of account data is heard as such, with its accounts, its vendors or alone", func(t *testing.T, e FeedEnv) {
		heard := listen(t, e.B)
		for _, want := range []stores.Changed{{Data: true}, {Data: true, Vendors: []uuid.UUID{newID()}}, {Data: true, All: true},
			{Data: true, Accounts: []uuid.UUID{newID()}}, {Data: true, Accounts: []uuid.UUID{newID()}, Vendors: []uuid.UUID{newID()}}} {
			announce(t, e, e.A, want)
			sameChange(t, "heard", next(t, heard), want)
		}
	}},
	{"every vendor is heard as every vendor", func(t *testing.T, e FeedEnv) {
		heard := listen(t, e.B)
		announce(t, e, e.A, stores.Changed{All: true})
		sameChange(t, "heard", next(t, heard), stores.Changed{All: true})
	}},
	{"a rolled-back unit of work is heard by no one", func(t *testing.T, e FeedEnv) {
		heard := listen(t, e.B)
		boom := errors.New("rolled back")
		err := e.Store.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error {
			if err := e.A.Stage(ctx, tx, stores.Changed{Vendors: []uuid.UUID{newID()}}); err != nil {
				return err
			}
			return boom
		})
		wantErr(t, "InTx", err, boom)
		want := stores.Changed{Vendors: []uuid.UUID{newID()}}
		announce(t, e, e.A, want)
		sameChange(t, "first heard after a rollback", next(t, heard), want)
	}},
	{"notices are heard in the order committed, by every subscriber", func(t *testing.T, e FeedEnv) {
		b1, b2 := listen(t, e.B), listen(t, e.B)
		var sent []stores.Changed
		for range 20 {
			c := stores.Changed{Vendors: []uuid.UUID{newID()}}
			announce(t, e, e.A, c)
			sent = append(sent, c)
		}
		for _, heard := range []<-chan stores.Changed{b1, b2} {
			for i, want := range sent {
				sameChange(t, fmt.Sprintf("notice %d", i), next(t, heard), want)
			}
		}
	}},
	{"a long list is heard whole or as every vendor", func(t *testing.T, e FeedEnv) {
		heard := listen(t, e.B)
		c := stores.Changed{}
		for range 300 {
			c.Vendors = append(c.Vendors, newID())
		}
		announce(t, e, e.A, c)
		got := next(t, heard)
		if !got.All {
			sameChange(t, "heard", got, c)
		}
	}},
	{"Subscribe returns ctx's error when ctx ends", func(t *testing.T, e FeedEnv) {
		ctx, cancel := context.WithCancel(t.Context())
		ready := make(chan struct{})
		done := make(chan error, 1)
		go func() { done <- e.B.Subscribe(ctx, func() { close(ready) }, func(stores.Changed) {}) }()
		waitReady(t, ready, done)
		cancel()
		select {
		case err := <-done:
			wantErr(t, "Subscribe", err, context.Canceled)
		case <-time.After(hearWithin):
			t.Fatal("Subscribe did not return after its ctx ended")
		}
	}},
	{"a cut connection ends Subscribe with an error; subscribed again, it hears", func(t *testing.T, e FeedEnv) {
		if e.Cut == nil {
			t.Skip("the feed has no connection to lose")
		}
		ready := make(chan struct{})
		done := make(chan error, 1)
		go func() { done <- e.B.Subscribe(t.Context(), func() { close(ready) }, func(stores.Changed) {}) }()
		waitReady(t, ready, done)
		e.Cut(t)
		select {
		case err := <-done:
			if err == nil || errors.Is(err, context.Canceled) {
				t.Fatalf("Subscribe returned %v after its connection was cut, want the connection's error", err)
			}
		case <-time.After(hearWithin):
			t.Fatal("Subscribe did not return after its connection was cut")
		}
		heard := listen(t, e.B)
		want := stores.Changed{Vendors: []uuid.UUID{newID()}}
		announce(t, e, e.A, want)
		sameChange(t, "heard on the new subscription", next(t, heard), want)
	}},
}

// listen subscribes with feed until the test ends and returns what it
// hears, once it listens.
func listen(t *testing.T, feed stores.ChangeFeed) <-chan stores.Changed {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	heard := make(chan stores.Changed, 1024)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- feed.Subscribe(ctx, func() { close(ready) }, func(c stores.Changed) { heard <- c })
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	waitReady(t, ready, done)
	return heard
}

func waitReady(t *testing.T, ready <-chan struct{}, done <-chan error) {
	t.Helper()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("Subscribe returned before it listened: %v", err)
	case <-time.After(hearWithin):
		t.Fatal("Subscribe did not listen")
	}
}

// announce stages c in a unit of work and publishes it after the commit,
// as the core does.
func announce(t *testing.T, e FeedEnv, feed stores.ChangeFeed, c stores.Changed) {
	t.Helper()
	if err := e.Store.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error { return feed.Stage(ctx, tx, c) }); err != nil {
		t.Fatalf("Stage: %v", err)
	}
	if err := feed.Publish(t.Context(), c); err != nil {
		t.Fatalf("Publish: %v", err)
	}
}

func next(t *testing.T, heard <-chan stores.Changed) stores.Changed {
	t.Helper()
	select {
	case c := <-heard:
		return c
	case <-time.After(hearWithin):
		t.Fatal("no notice heard")
		return stores.Changed{}
	}
}

func sameChange(t *testing.T, what string, got, want stores.Changed) {
	t.Helper()
	if got.All != want.All || got.Data != want.Data || !slices.Equal(got.Vendors, want.Vendors) || !slices.Equal(got.Accounts, want.Accounts) {
		t.Fatalf("%s: %+v, want %+v", what, got, want)
	}
}
