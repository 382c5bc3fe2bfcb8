package sqlite

import "context"

// RerunReviewLifecycle runs the Go migration of the review lifecycle again,
// as a migrator that died before recording it would.
func RerunReviewLifecycle(ctx context.Context, s *Store) error {
	return reviewLifecycleUp(ctx, s.writer)
}
