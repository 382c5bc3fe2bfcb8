// The repositories of stores.Tx, written once for both dialects on the rows
// of rows.go. A dialect uses one as it is, or embeds it and adds the
// methods whose SQL it says in its own words (dialect_postgres.go,
// dialect_sqlite.go): row locks, and the writes and lookups of names that
// are unique case-insensitively (PostgreSQL indexes lower(name); SQLite
// keeps a key column folded in Go). base carries the rest of a dialect's
// own words: its translation of driver errors and how it sorts by name.

package sqlstore

import (
	"database/sql"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core"
)

// base is what every repository holds: the unit of work and what the store
// says in its own words.
type base struct {
	DB bun.IDB
	// Translate turns a driver error into a core error wrapped with what
	// was being done (unique violation: core.ErrConflict, and so on).
	Translate func(err error, format string, args ...any) error
	// ByName is the ORDER BY term that sorts a text column "by name", which
	// in Vetted means byte order (Go's sort.Strings) whatever the collation.
	ByName func(column string) string
	// NameKeys is set where names unique case-insensitively carry their
	// key in a name_key column, folded in Go (SQLite; PostgreSQL indexes
	// lower(name)): the rows written then are the keyed ones (see
	// repos_sqlite.go).
	NameKeys bool
}

// notFound is the error for an absent row.
func notFound(format string, args ...any) error {
	return core.NotFound("%s: not found", fmt.Sprintf(format, args...))
}

// MustAffect returns a not-found error when a write touched no row.
func (b base) MustAffect(res sql.Result, format string, args ...any) error {
	n, err := res.RowsAffected()
	if err != nil {
		return b.Translate(err, format, args...)
	}
	if n == 0 {
		return notFound(format, args...)
	}
	return nil
}

// lowerAll lower-cases e-mails the way they are stored (strings.ToLower).
func lowerAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(s)
	}
	return out
}
