package postgres

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/uptrace/bun/driver/pgdriver"
	"github.com/vetted-dev/vetted/core"
)

// translate turns a driver error into a core error, wrapped with what was
// being done. Constraint violations never leave the package as driver errors:
// a unique violation is a conflict, a missing referenced row is not found,
// a failed check or a malformed value is invalid. Serialization failures and
// deadlocks keep the driver error so that InTx can recognise and retry them;
// any other error is an infrastructure failure and is wrapped as is.
func translate(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	what := fmt.Sprintf(format, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", what, core.ErrNotFound)
	}
	var pgErr pgdriver.Error
	if errors.As(err, &pgErr) {
		constraint := pgErr.Field('n')
		switch pgErr.Field('C') {
		case "23505": // unique_violation
			return fmt.Errorf("%s: duplicate (%s): %w", what, constraint, core.ErrConflict)
		case "23503": // foreign_key_violation
			return fmt.Errorf("%s: referenced row missing (%s): %w", what, constraint, core.ErrNotFound)
		case "23514", "23502", "22P02", "22001", "22007", "22008", "22003": // check, not null, bad text, too long, bad time, range
			return fmt.Errorf("%s: %s: %w", what, pgErr.Field('M'), core.ErrInvalid)
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}
