package dircache

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// loader serves views from a map and counts the reads.
type loader struct {
	mu      sync.Mutex
	byID    map[uuid.UUID]vendors.View
	singles int
	batches chan []uuid.UUID
}

func (l *loader) View(_ context.Context, ref vendors.Ref) (vendors.View, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.singles++
	for _, v := range l.byID {
		if ref.Finds(v.Vendor) {
			return v, nil
		}
	}
	return vendors.View{}, core.ErrNotFound
}

func (l *loader) ViewsByID(_ context.Context, ids []uuid.UUID) (map[uuid.UUID]vendors.View, error) {
	l.mu.Lock()
	out := map[uuid.UUID]vendors.View{}
	for _, id := range ids {
		if v, ok := l.byID[id]; ok {
			out[id] = v
		}
	}
	l.mu.Unlock()
	l.batches <- ids
	return out, nil
}

func (l *loader) set(v vendors.View) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.byID[v.Vendor.ID] = v
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }

func TestCacheServesStaleWhileItReadsAgain(t *testing.T) {
	acme := vendors.View{Vendor: vendors.Vendor{ID: uuid.New(), Name: "Acme"}}
	l := &loader{byID: map[uuid.UUID]vendors.View{acme.Vendor.ID: acme}, batches: make(chan []uuid.UUID, 4)}
	clk := &clock{now: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}
	c := New(l, Options{Clock: clk})
	ctx := context.Background()
	byName, _ := vendors.ParseRef("Acme")
	view := func() vendors.View {
		t.Helper()
		v, err := c.View(ctx, byName)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	view()
	view()
	if l.singles != 1 {
		t.Fatalf("%d reads of a fresh view, want 1", l.singles)
	}
	// Past TTL the remembered view is answered and read again in the
	// background, in a batch by id.
	renamed := vendors.View{Vendor: vendors.Vendor{ID: acme.Vendor.ID, Name: "Acme Corp"}}
	l.set(renamed)
	clk.add(TTL)
	if v := view(); v.Vendor.Name != "Acme" {
		t.Fatalf("stale read answered %q", v.Vendor.Name)
	}
	select {
	case ids := <-l.batches:
		if len(ids) != 1 || ids[0] != acme.Vendor.ID {
			t.Fatalf("batch %v", ids)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no background read")
	}
	// The vendor no longer has the name it was asked by: the reference is
	// forgotten, and the next read resolves it afresh (not found now).
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, err := c.View(ctx, byName); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a renamed vendor is still served by its old name")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// ForgetVendors sends the next read to the loader.
	byID := vendors.RefByID(acme.Vendor.ID)
	if _, err := c.View(ctx, byID); err != nil {
		t.Fatal(err)
	}
	before := l.singles
	c.ForgetVendors(changedOf(acme.Vendor.ID))
	if _, err := c.View(ctx, byID); err != nil || l.singles != before+1 {
		t.Fatalf("after ForgetVendors: %v, %d reads", err, l.singles-before)
	}
}

func changedOf(ids ...uuid.UUID) stores.Changed { return stores.Changed{Vendors: ids} }
