package ports

import "context"

// UnitOfWork runs functions in one transaction over T, the repositories the
// caller may use: each business area names its own T (the Tx of its
// store.go), holding only what that area reads and writes. Every write runs
// in one InTx; reads may use View. A function that returns an error rolls
// the unit back and leaves no trace. Implementations retry serialization
// failures themselves, so fn may run more than once and must not have
// effects outside tx.
type UnitOfWork[T any] interface {
	InTx(ctx context.Context, fn func(ctx context.Context, tx T) error) error
	View(ctx context.Context, fn func(ctx context.Context, tx T) error) error
	// Ping reports whether the store answers.
	Ping(ctx context.Context) error
}

// Narrow returns s seen through T: the same transactions, typed as the
// narrower view a business area declares. Every transaction of s must
// implement T; ports/stores asserts that at compile time for each area, so
// the conversion here cannot fail for a store that builds.
func Narrow[T, W any](s UnitOfWork[W]) UnitOfWork[T] { return narrowed[T, W]{s} }

type narrowed[T, W any] struct{ s UnitOfWork[W] }

func (n narrowed[T, W]) InTx(ctx context.Context, fn func(ctx context.Context, tx T) error) error {
	return n.s.InTx(ctx, func(ctx context.Context, tx W) error { return fn(ctx, any(tx).(T)) })
}

func (n narrowed[T, W]) View(ctx context.Context, fn func(ctx context.Context, tx T) error) error {
	return n.s.View(ctx, func(ctx context.Context, tx W) error { return fn(ctx, any(tx).(T)) })
}

func (n narrowed[T, W]) Ping(ctx context.Context) error { return n.s.Ping(ctx) }
