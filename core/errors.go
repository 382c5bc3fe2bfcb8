// Package core holds the domain of Vetted, a third-party vendor risk management
// service: the typed errors every layer speaks, and (in its sub-packages) the
// domain types, rules and use cases. It imports no infrastructure; adapters
// implement the interfaces in package ports and the apps wire them together.
package core

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Every error the core returns wraps exactly one of these, and
// the API maps them to HTTP statuses in one place.
var (
	// ErrNotFound means the resource does not exist or is not visible to the caller.
	ErrNotFound = errors.New("not found")
	// ErrUnauthenticated means the caller presented no valid credentials.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrForbidden means the caller is known but lacks the role or privilege.
	ErrForbidden = errors.New("forbidden")
	// ErrConflict means the write collides with existing state (a duplicate).
	ErrConflict = errors.New("conflict")
	// ErrInvalid means the input breaks a validation rule.
	ErrInvalid = errors.New("invalid")
	// ErrTooLarge means the input exceeds a size limit.
	ErrTooLarge = errors.New("too large")
	// ErrQuota means an account quota is exhausted.
	ErrQuota = errors.New("quota exceeded")
	// ErrUnavailable means a dependency the operation needs is down; retry later.
	ErrUnavailable = errors.New("unavailable")
)

// FieldError names one offending input field.
type FieldError struct {
	Field   string
	Message string
	Value   any
}

// ValidationError carries field-level details; it matches ErrInvalid.
type ValidationError struct {
	Msg    string
	Fields []FieldError
}

func (e *ValidationError) Error() string {
	if len(e.Fields) == 0 {
		return e.Msg
	}
	parts := make([]string, 0, len(e.Fields))
	for _, f := range e.Fields {
		parts = append(parts, f.Field+": "+f.Message)
	}
	if e.Msg == "" {
		return strings.Join(parts, "; ")
	}
	return e.Msg + ": " + strings.Join(parts, "; ")
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

// Invalid returns a validation error about one field.
func Invalid(field, format string, args ...any) error {
	return &ValidationError{Msg: "validation failed", Fields: []FieldError{{Field: field, Message: fmt.Sprintf(format, args...)}}}
}

// Fields collects field errors; Err returns nil when none were added.
type Fields struct{ list []FieldError }

// Add records a field error.
func (f *Fields) Add(field, format string, args ...any) {
	f.list = append(f.list, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

// Err returns the collected errors as one ValidationError, or nil.
func (f *Fields) Err() error {
	if len(f.list) == 0 {
		return nil
	}
	return &ValidationError{Msg: "validation failed", Fields: f.list}
}

// Wrap annotates err with a message while keeping its sentinel.
func Wrap(kind error, format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), kind)
}
