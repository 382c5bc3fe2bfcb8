// Package core holds the domain of Vetted, a third-party vendor risk management
// service: the typed error every layer speaks, and (in its sub-packages) the
// domain types, rules and use cases. It imports no infrastructure; adapters
// implement the interfaces in package ports and the apps wire them together.
package core

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Kind says what sort of failure an error is. The API maps each kind to one
// HTTP status, in one place. A Kind is an error itself, so
// errors.Is(err, core.ErrNotFound) holds for every error of that kind, whether
// it is an *Error or a plain wrap of the kind.
type Kind string

// The kinds of expected failure. Anything else is an infrastructure failure.
const (
	// ErrInvalid means the input breaks a validation rule.
	ErrInvalid Kind = "invalid"
	// ErrNotFound means the resource does not exist or is not visible to the caller.
	ErrNotFound Kind = "not found"
	// ErrUnauthenticated means the caller presented no valid credentials.
	ErrUnauthenticated Kind = "unauthenticated"
	// ErrForbidden means the caller is known but lacks the role or privilege.
	ErrForbidden Kind = "forbidden"
	// ErrConflict means the write collides with existing state (a duplicate).
	ErrConflict Kind = "conflict"
	// ErrTooLarge means the input exceeds a size limit.
	ErrTooLarge Kind = "too large"
	// ErrQuota means an account quota is exhausted.
	ErrQuota Kind = "quota exceeded"
	// ErrUnavailable means a dependency the operation needs is down; retry later.
	ErrUnavailable Kind = "unavailable"
	// ErrPrecondition means the write was made against a version of the
	// resource that is no longer current (an If-Match that does not hold).
	ErrPrecondition Kind = "precondition failed"
)

// Error returns the kind's name.
func (k Kind) Error() string { return string(k) }

// Error is an expected failure, carrying what a caller needs to act on it.
// The core and the adapters return it; the API turns it into a problem
// document without editing any text: Detail is written for the caller,
// Field (and Row/Column for a CSV cell) say where the fault is.
type Error struct {
	// Kind classifies the failure.
	Kind Kind
	// Field names the input at fault by its Go-side path; empty when no
	// single input is. The core knows no wire format, so it names what it
	// was given as Go spells it, and apps/api maps each path to the name
	// the request used, in one table (apps/api/fields.go). The scheme:
	//   - a parameter of a use case or parse function by its type or name
	//     in UpperCamelCase: "AccountRef", "AssessmentID", "Emails";
	//   - a field of a struct parameter as Struct.Field: "ListRef.ID",
	//     "ListQuery.Sort", "Input.Tier" (review.Input), "PolicyInput.High";
	//   - an element of a list by its index: "Users[0].Email", "Vendors[3]";
	//   - where two use cases would give one Go name two request names,
	//     the path names the struct ("ListQuery.Limit" beside "Limit").
	// Two documents the core reads keep their own names: the cells of a
	// CSV input are named by Row and Column (the file's header), under the
	// Field "CSV"; the paths of a PATCH /vendor merge patch follow "Patch."
	// as the client wrote them ("Patch.company.industry").
	Field string
	// Row and Column locate a bad cell of a CSV input: Row is the 1-based
	// data row (the header is not counted), Column the header name.
	Row    int
	Column string
	// Detail says what is wrong, written for the caller.
	Detail string
	// Errs are the individual failures when a request has several (one per
	// field or cell); Detail then summarises them.
	Errs []*Error
	// Err is the underlying cause, kept for logs and never shown to callers.
	Err error
}

// Error renders the failure for logs: where, what, and the cause.
func (e *Error) Error() string {
	var b strings.Builder
	if loc := e.where(); loc != "" {
		b.WriteString(loc)
		b.WriteString(": ")
	}
	b.WriteString(e.Detail)
	if e.Detail == "" {
		b.WriteString(string(e.Kind))
	}
	for _, sub := range e.Errs {
		b.WriteString("; ")
		b.WriteString(sub.Error())
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) where() string {
	loc := e.Field
	if e.Row > 0 {
		loc += " row " + strconv.Itoa(e.Row)
	}
	if e.Column != "" {
		loc += " column " + e.Column
	}
	return strings.TrimSpace(loc)
}

// Is makes errors.Is(err, kind) true for the error's kind.
func (e *Error) Is(target error) bool {
	k, ok := target.(Kind)
	return ok && k == e.Kind
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// AsError returns the first *Error in err's chain.
func AsError(err error) (*Error, bool) {
	var ce *Error
	ok := errors.As(err, &ce)
	return ce, ok
}

// E returns an error of kind with a detail for the caller.
func E(kind Kind, format string, args ...any) error {
	return &Error{Kind: kind, Detail: fmt.Sprintf(format, args...)}
}

// NotFound returns an ErrNotFound error.
func NotFound(format string, args ...any) error { return E(ErrNotFound, format, args...) }

// Conflict returns an ErrConflict error.
func Conflict(format string, args ...any) error { return E(ErrConflict, format, args...) }

// Forbidden returns an ErrForbidden error.
func Forbidden(format string, args ...any) error { return E(ErrForbidden, format, args...) }

// Unauthenticated returns an ErrUnauthenticated error.
func Unauthenticated(format string, args ...any) error {
	return E(ErrUnauthenticated, format, args...)
}

// Invalid returns a validation error about one input field.
func Invalid(field, format string, args ...any) error {
	return &Error{Kind: ErrInvalid, Field: field, Detail: fmt.Sprintf(format, args...)}
}

// TooLarge returns an ErrTooLarge error about one input field.
func TooLarge(field, format string, args ...any) error {
	return &Error{Kind: ErrTooLarge, Field: field, Detail: fmt.Sprintf(format, args...)}
}

// Unavailable returns an ErrUnavailable error caused by cause (logged, not shown).
func Unavailable(cause error, format string, args ...any) error {
	return &Error{Kind: ErrUnavailable, Detail: fmt.Sprintf(format, args...), Err: cause}
}

// Cause returns err as an error of kind with a detail for the caller, keeping
// err as the cause for logs. Adapters use it to translate driver errors.
func Cause(kind Kind, err error, format string, args ...any) error {
	return &Error{Kind: kind, Detail: fmt.Sprintf(format, args...), Err: err}
}

// WithField returns err attributed to another input field: a value parsed by
// a shared rule (a vendor name) reports the field of the input it came
// from ("Vendors[3]"). Errors that are not *Error are returned as they are.
func WithField(err error, field string) error {
	ce, ok := AsError(err)
	if !ok {
		return err
	}
	out := *ce
	out.Field = field
	out.Errs = make([]*Error, len(ce.Errs))
	for i, sub := range ce.Errs {
		out.Errs[i] = WithField(sub, field).(*Error)
	}
	if len(out.Errs) == 0 {
		out.Errs = nil
	}
	return &out
}

// Nest returns err with every field placed under prefix: an e-mail error of
// field "Email" becomes "Users[2].Email". Errors that are not *Error are
// returned as they are.
func Nest(err error, prefix string) error {
	ce, ok := AsError(err)
	if !ok {
		return err
	}
	out := *ce
	out.Field = joinField(prefix, ce.Field)
	out.Errs = nil
	for _, sub := range ce.Errs {
		out.Errs = append(out.Errs, Nest(sub, prefix).(*Error))
	}
	return &out
}

// AtCell returns err placed at a cell of a CSV input field.
func AtCell(err error, field string, row int, column string) error {
	ce, ok := AsError(err)
	if !ok {
		return err
	}
	if len(ce.Errs) > 0 {
		var fs Fields
		for _, sub := range ce.Errs {
			fs.AddErr(AtCell(sub, field, row, column))
		}
		return fs.Err()
	}
	out := *ce
	out.Field, out.Row, out.Column = field, row, column
	return &out
}

func joinField(prefix, field string) string {
	switch {
	case field == "":
		return prefix
	case prefix == "":
		return field
	case strings.HasPrefix(field, "["):
		return prefix + field
	}
	return prefix + "." + field
}

// Index names element i of a list input: Index("Users", 2) is "Users[2]".
func Index(field string, i int) string { return field + "[" + strconv.Itoa(i) + "]" }

// Fields collects the validation failures of one request.
type Fields struct{ list []*Error }

// Add records a failure of one field.
func (f *Fields) Add(field, format string, args ...any) {
	f.list = append(f.list, &Error{Kind: ErrInvalid, Field: field, Detail: fmt.Sprintf(format, args...)})
}

// AddErr records err if it is a validation error (with all the failures it
// carries) and reports whether it was one; other errors are not recorded.
func (f *Fields) AddErr(err error) bool {
	ce, ok := AsError(err)
	if !ok || ce.Kind != ErrInvalid {
		return false
	}
	if len(ce.Errs) == 0 {
		f.list = append(f.list, ce)
		return true
	}
	f.list = append(f.list, ce.Errs...)
	return true
}

// List returns the failures recorded so far.
func (f *Fields) List() []*Error { return f.list }

// Len counts the failures recorded so far.
func (f *Fields) Len() int { return len(f.list) }

// Err returns nil when nothing failed, the failure itself when one did, and
// one ErrInvalid error carrying them all when several did.
func (f *Fields) Err() error {
	return f.ErrDetail("validation failed")
}

// ErrDetail is Err with the summary used when several failures are carried.
func (f *Fields) ErrDetail(summary string) error {
	switch len(f.list) {
	case 0:
		return nil
	case 1:
		return f.list[0]
	}
	return &Error{Kind: ErrInvalid, Detail: summary, Errs: f.list}
}

// Failures returns the individual failures of err: its Errs, or err itself.
func Failures(err error) []*Error {
	ce, ok := AsError(err)
	if !ok {
		return nil
	}
	if len(ce.Errs) > 0 {
		return ce.Errs
	}
	return []*Error{ce}
}
