package ttlcache_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core/platform/ttlcache"
)

var t0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func TestGetUntilTheDeadline(t *testing.T) {
	var m ttlcache.Map[string, int]
	if _, ok := m.Get("a", t0); ok {
		t.Fatal("an empty map holds a value")
	}
	m.Put("a", 1, t0.Add(time.Minute), t0)
	if v, ok := m.Get("a", t0.Add(time.Minute-time.Nanosecond)); !ok || v != 1 {
		t.Fatalf("before the deadline: %d %v", v, ok)
	}
	if _, ok := m.Get("a", t0.Add(time.Minute)); ok {
		t.Fatal("a value is served at its deadline")
	}
	if _, ok := m.Get("b", t0); ok {
		t.Fatal("another key got the value")
	}
	m.Put("a", 2, t0.Add(time.Hour), t0)
	if v, _ := m.Get("a", t0.Add(time.Minute)); v != 2 {
		t.Fatalf("after a second Put: %d", v)
	}
}

func TestBounded(t *testing.T) {
	m := ttlcache.Map[string, int]{Max: 100}
	for i := range 100 {
		m.Put(fmt.Sprint(i), i, t0.Add(time.Minute), t0)
	}
	m.Put("50", 0, t0.Add(time.Minute), t0) // a key it holds: nothing dropped
	if m.Len() != 100 {
		t.Fatalf("%d entries after replacing one of 100", m.Len())
	}
	m.Put("live", 0, t0.Add(time.Minute), t0) // full of live entries: all go
	if m.Len() != 1 {
		t.Fatalf("%d entries after overflowing with live ones, want 1", m.Len())
	}
	for i := range 99 {
		m.Put(fmt.Sprint(i), i, t0.Add(time.Second), t0)
	}
	m.Put("later", 0, t0.Add(time.Hour), t0.Add(time.Second)) // the 99 expired: they go, "live" stays
	if m.Len() != 2 {
		t.Fatalf("%d entries after overflowing with expired ones, want 2", m.Len())
	}
}

// TestForget covers the three ways a caller drops entries: one key, the
// keys a predicate picks, and all of them.
func TestForget(t *testing.T) {
	var m ttlcache.Map[string, int]
	m.Delete("a") // on an empty map: nothing to do
	m.Clear()
	for i := range 6 {
		m.Put(fmt.Sprint(i), i, t0.Add(time.Minute), t0)
	}
	m.Delete("0")
	if _, ok := m.Get("0", t0); ok || m.Len() != 5 {
		t.Fatalf("after Delete: %d entries, deleted key held %v", m.Len(), ok)
	}
	m.DeleteFunc(func(_ string, v int) bool { return v%2 == 1 })
	if m.Len() != 2 {
		t.Fatalf("after DeleteFunc of the odd values: %d entries, want 2", m.Len())
	}
	for _, k := range []string{"2", "4"} {
		if v, ok := m.Get(k, t0); !ok || fmt.Sprint(v) != k {
			t.Fatalf("even value %s dropped: %d %v", k, v, ok)
		}
	}
	m.Clear()
	if m.Len() != 0 {
		t.Fatalf("after Clear: %d entries", m.Len())
	}
	m.Put("again", 1, t0.Add(time.Minute), t0) // usable after Clear
	if v, ok := m.Get("again", t0); !ok || v != 1 {
		t.Fatalf("after Clear and Put: %d %v", v, ok)
	}
}

// TestDefaultMax: a zero Max holds 10,000 live entries before it drops.
func TestDefaultMax(t *testing.T) {
	var m ttlcache.Map[int, int]
	for i := range 10_000 {
		m.Put(i, i, t0.Add(time.Minute), t0)
	}
	if m.Len() != 10_000 {
		t.Fatalf("%d entries, want 10000", m.Len())
	}
	m.Put(-1, 0, t0.Add(time.Minute), t0)
	if m.Len() != 1 {
		t.Fatalf("%d entries after the 10,001st, want 1", m.Len())
	}
}
