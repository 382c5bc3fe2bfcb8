// Package ttlcache is a bounded map whose entries expire: what the read paths
// of Vetted remember for a short time (signed-in users, verified tokens,
// directory views). It is safe for concurrent use and takes the time from
// its callers, so it follows whatever clock they run on.
package ttlcache

import (
	"sync"
	"time"
)

// Map remembers values by key until a deadline given with each. Past Max
// entries, a Put drops the expired ones, and if none had expired, all.
type Map[K comparable, V any] struct {
	Max int // 0 means 10,000

	mu sync.Mutex
	m  map[K]entry[V]
}

type entry[V any] struct {
	v     V
	until time.Time
}

// Get returns the value of k if it was Put with a deadline after now.
func (m *Map[K, V]) Get(k K, now time.Time) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[k]
	if !ok || !now.Before(e.until) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Put remembers v under k until the deadline.
func (m *Map[K, V]) Put(k K, v V, until, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[K]entry[V]{}
	}
	limit := m.Max
	if limit <= 0 {
		limit = 10_000
	}
	if _, ok := m.m[k]; !ok && len(m.m) >= limit {
		for key, e := range m.m {
			if !now.Before(e.until) {
				delete(m.m, key)
			}
		}
		if len(m.m) >= limit {
			clear(m.m)
		}
	}
	m.m[k] = entry[V]{v: v, until: until}
}

// Delete forgets k.
func (m *Map[K, V]) Delete(k K) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, k)
}

// Clear forgets every entry.
func (m *Map[K, V]) Clear() {
	m.mu.Lock()
	defer m.mu.Unlock()
	clear(m.m)
}

// Len is the number of entries held, expired ones included.
func (m *Map[K, V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.m)
}

// DeleteFunc forgets every entry for which del returns true (it is called
// with the map locked, so it must not use the map).
func (m *Map[K, V]) DeleteFunc(del func(K, V) bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, e := range m.m {
		if del(k, e.v) {
			delete(m.m, k)
		}
	}
}
