package core_test

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"

	"github.com/vetted-dev/vetted/core"
)

func TestErrorKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		kind core.Kind
	}{
		{"not found", core.NotFound("vendor %s not found", "x"), core.ErrNotFound},
		{"conflict", core.Conflict("dup"), core.ErrConflict},
		{"forbidden", core.Forbidden("no"), core.ErrForbidden},
		{"unauthenticated", core.Unauthenticated("no token"), core.ErrUnauthenticated},
		{"invalid", core.Invalid("AccountRef", "must be a UUID"), core.ErrInvalid},
		{"too large", core.TooLarge("CSV", "is big"), core.ErrTooLarge},
		{"unavailable", core.Unavailable(io.EOF, "down"), core.ErrUnavailable},
		{"wrapped with context", fmt.Errorf("save vendors: %w", core.NotFound("gone")), core.ErrNotFound},
		{"plain wrap of a kind", fmt.Errorf("x: %w", core.ErrConflict), core.ErrConflict},
	}
	all := []core.Kind{core.ErrInvalid, core.ErrNotFound, core.ErrUnauthenticated, core.ErrForbidden,
		core.ErrConflict, core.ErrTooLarge, core.ErrQuota, core.ErrUnavailable}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, k := range all {
				if got := errors.Is(tt.err, k); got != (k == tt.kind) {
					t.Errorf("errors.Is(%v, %q) = %v", tt.err, k, got)
				}
			}
		})
	}
}

func TestErrorKeepsCauseForLogsOnly(t *testing.T) {
	t.Parallel()
	cause := errors.New("dial tcp 127.0.0.1:5432: connection refused")
	err := fmt.Errorf("list vendors: %w", core.Unavailable(cause, "the database is unavailable"))
	if !errors.Is(err, cause) {
		t.Fatal("the cause is not reachable with errors.Is")
	}
	ce, ok := core.AsError(err)
	if !ok || ce.Detail != "the database is unavailable" {
		t.Fatalf("AsError = %+v, %v", ce, ok)
	}
	if got, want := err.Error(), "list vendors: the database is unavailable: "+cause.Error(); got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
}

func TestFields(t *testing.T) {
	t.Parallel()
	var none core.Fields
	if none.Err() != nil {
		t.Fatal("no failures must give a nil error")
	}

	var one core.Fields
	one.Add("Users[0].Email", "is not an e-mail address")
	err := one.Err()
	ce, ok := core.AsError(err)
	if !ok || ce.Field != "Users[0].Email" || ce.Detail != "is not an e-mail address" || len(ce.Errs) != 0 {
		t.Fatalf("one failure = %+v, want the failure itself", ce)
	}
	if got := err.Error(); got != "Users[0].Email: is not an e-mail address" {
		t.Fatalf("Error() = %q: the detail must not repeat itself", got)
	}

	var two core.Fields
	two.Add("Page", "must be 1 or more")
	if !two.AddErr(core.Invalid("Limit", "too big")) {
		t.Fatal("AddErr refused a validation error")
	}
	if two.AddErr(core.NotFound("x")) || two.AddErr(errors.New("boom")) {
		t.Fatal("AddErr recorded an error that is not a validation error")
	}
	err = two.Err()
	if !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("err = %v, want ErrInvalid", err)
	}
	var fields []string
	for _, f := range core.Failures(err) {
		fields = append(fields, f.Field)
	}
	if !reflect.DeepEqual(fields, []string{"Page", "Limit"}) {
		t.Fatalf("failures = %q", fields)
	}
}

func TestFieldPaths(t *testing.T) {
	t.Parallel()
	base := core.Invalid("Email", "is not an e-mail address")
	if ce, _ := core.AsError(core.Nest(base, core.Index("Users", 2))); ce.Field != "Users[2].Email" {
		t.Fatalf("Nest = %q", ce.Field)
	}
	if ce, _ := core.AsError(core.WithField(base, "Emails[1]")); ce.Field != "Emails[1]" {
		t.Fatalf("WithField = %q", ce.Field)
	}
	if ce, _ := core.AsError(base); ce.Field != "Email" {
		t.Fatal("Nest or WithField changed the original error")
	}
	cell, _ := core.AsError(core.AtCell(base, "CSV", 3, "sponsor_contact"))
	if cell.Field != "CSV" || cell.Row != 3 || cell.Column != "sponsor_contact" || cell.Detail != base.(*core.Error).Detail {
		t.Fatalf("AtCell = %+v", cell)
	}
	if got := cell.Error(); got != "CSV row 3 column sponsor_contact: is not an e-mail address" {
		t.Fatalf("cell Error() = %q", got)
	}
	plain := errors.New("boom")
	if core.Nest(plain, "x") != plain || core.WithField(plain, "x") != plain || core.AtCell(plain, "CSV", 1, "a") != plain {
		t.Fatal("errors that are not *Error must pass through unchanged")
	}
}
