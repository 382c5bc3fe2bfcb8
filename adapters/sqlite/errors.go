package sqlite

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/vetted-dev/vetted/core"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// translate turns a driver error into a core error that says what was
// being done (the driver's text stays in the cause, for logs), as the
// PostgreSQL store does: a unique violation is a
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
		return core.Cause(core.ErrNotFound, err, "%s: not found", what)
	}
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("%s: %w", what, err)
	}
	switch se.Code() {
	case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
		return core.Cause(core.ErrConflict, err, "%s: already exists", what)
	case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
		return core.Cause(core.ErrNotFound, err, "%s: a record it refers to does not exist", what)
	case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL, sqlite3.SQLITE_CONSTRAINT_DATATYPE,
		sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_TOOBIG:
		return core.Cause(core.ErrInvalid, err, "%s: a value was refused by the database", what)
	}
	switch se.Code() & 0xff { // the primary code of an extended one
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return core.Unavailable(err, "%s: the database is busy; try again shortly", what)
	}
	return fmt.Errorf("%s: %w", what, err)
}
