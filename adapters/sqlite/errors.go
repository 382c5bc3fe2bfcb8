package sqlite

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/vetted-dev/vetted/core"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// translate turns a driver error into a core error, wrapped with what was
// being done, as the PostgreSQL store does: a unique violation is a
// conflict, a missing referenced row is not found, a failed check or a value
// of the wrong type is invalid. A lock another process held past the busy
// timeout (SQLITE_BUSY, SQLITE_LOCKED) is core.ErrUnavailable, so a client
// is told to try again (503) and never sees "database is locked". Any other
// error is an infrastructure failure and is wrapped as is.
func translate(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	what := fmt.Sprintf(format, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, core.ErrNotFound)
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("%s: %w", what, err)
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return fmt.Errorf("%s: duplicate: %w", what, core.ErrConflict)
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return fmt.Errorf("%s: referenced row missing: %w", what, core.ErrNotFound)
	case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL, sqlite3.SQLITE_CONSTRAINT_DATATYPE,
		sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_TOOBIG:
		return fmt.Errorf("%s: %v: %w", what, se, core.ErrInvalid)
	}
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return fmt.Errorf("%s: the database file is locked by another process: %w", what, core.ErrUnavailable)
	}
	return fmt.Errorf("%s: %w", what, err)
}
