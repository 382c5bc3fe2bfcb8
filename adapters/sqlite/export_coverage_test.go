package sqlite

import "context"

// RerunRatingCoverage runs the Go migration that adds
// rating_history.checks_run and checks_total again.
func RerunRatingCoverage(ctx context.Context, s *Store) error {
	return ratingCoverageUp(ctx, s.writer)
}
