package sqlite

import "context"

// RerunDocumentDigest runs the Go migration that adds documents.sha256 again,
// as a migrator that died before recording it would.
func RerunDocumentDigest(ctx context.Context, s *Store) error {
	return documentDigestUp(ctx, s.writer)
}

// RerunProfileListColumns runs the Go migration that adds and fills
// profiles.section_statuses and security_rating again.
func RerunProfileListColumns(ctx context.Context, s *Store) error {
	return profileListColumnsUp(ctx, s.writer)
}
