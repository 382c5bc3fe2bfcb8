// Package bunrepo holds the repositories of stores.Tx as far as the SQL
// stores (adapters/postgres and adapters/sqlite) run them with the same SQL,
// on the shared rows of adapters/internal/dbrow. A store uses one as it is,
// or embeds it and adds the methods whose SQL it says in its own words: row
// locks, and the writes and lookups of names that are unique
// case-insensitively (PostgreSQL indexes lower(name); SQLite keeps a key
// column folded in Go). Base carries the rest of a store's own words: its
// translation of driver errors and how it sorts by name.
package bunrepo

import (
	"database/sql"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core"
)

// Base is what every repository holds: the unit of work and what the store
// says in its own words.
type Base struct {
	DB bun.IDB
	// Translate turns a driver error into a core error wrapped with what
	// was being done (unique violation: core.ErrConflict, and so on).
	Translate func(err error, format string, args ...any) error
	// ByName is the ORDER BY term that sorts a text column "by name", which
	// in Vetted means byte order (Go's sort.Strings) whatever the collation.
	ByName func(column string) string
}

// NotFound is the error for an absent row.
func NotFound(format string, args ...any) error {
	return core.NotFound("%s: not found", fmt.Sprintf(format, args...))
}

// MustAffect returns a not-found error when a write touched no row.
func (b Base) MustAffect(res sql.Result, format string, args ...any) error {
	n, err := res.RowsAffected()
	if err != nil {
		return b.Translate(err, format, args...)
	}
	if n == 0 {
		return NotFound(format, args...)
	}
	return nil
}

// LowerAll lower-cases e-mails the way they are stored (strings.ToLower).
func LowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}
