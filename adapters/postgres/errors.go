package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/vetted-dev/vetted/core"
)

// translate turns a driver error into a core error that says what was being
// done. Constraint violations never leave the package as driver errors: a
// unique violation is a conflict, a missing referenced row is not found, a
// failed check or a malformed value is invalid, and a lost or refused
// connection is unavailable. Serialization failures and deadlocks keep the
// driver error so that InTx can recognise and retry them; any other error
// is an infrastructure failure and is wrapped as is. The driver's own text
// (constraint names, SQL) stays in the cause, for logs only.
func translate(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	what := fmt.Sprintf(format, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return core.Cause(core.ErrNotFound, err, "%s: not found", what)
	}
	if unavailable(err) {
		return errUnavailable(err)
	}
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		switch pgErr.Field('C') {
		case "23505": // unique_violation
			return core.Cause(core.ErrConflict, err, "%s: already exists", what)
		case "23503": // foreign_key_violation
			return core.Cause(core.ErrNotFound, err, "%s: a record it refers to does not exist", what)
		case "23514", "23502", "22P02", "22001", "22007", "22008", "22003": // check, not null, bad text, too long, bad time, range
			return core.Cause(core.ErrInvalid, err, "%s: a value was refused by the database", what)
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// errUnavailable is the error of a database that cannot be reached.
func errUnavailable(err error) error {
	return core.Unavailable(err, "the database is unavailable; try again shortly")
}

// unavailable reports whether err means the server could not be reached or
// the connection was lost: the request may succeed later, so it is a 503,
// not a 500.
func unavailable(err error) bool {
	if errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && !errors.Is(err, context.Canceled) {
		return true
	}
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		code := pgErr.Field('C')
		// 08: connection exception; 57P01-03: shutting down or starting
		// up; 53300: too many connections.
		return strings.HasPrefix(code, "08") || code == "57P01" || code == "57P02" || code == "57P03" || code == "53300"
	}
	return false
}
