package sqlstore

import (
	"context"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// registerDocumentDigest adds schema version 6 (issues 19 and 26): a
// document keeps the SHA-256 of the file that was stored, next to its size;
// empty while pending and for documents uploaded before this version. Go,
// not SQL, so that it is safe to run twice: SQLite has no ADD COLUMN IF NOT
// EXISTS. bun names the migration after this file.
func registerDocumentDigest(ms *migrate.Migrations) error {
	return ms.Register(documentDigestUp, nil)
}

func documentDigestUp(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var n int
		if err := tx.NewRaw("SELECT count(*) FROM pragma_table_info('documents') WHERE name = 'sha256'").Scan(ctx, &n); err != nil {
			return fmt.Errorf("columns of documents: %w", err)
		}
		if n > 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, "ALTER TABLE documents ADD COLUMN sha256 TEXT NOT NULL DEFAULT ''"); err != nil {
			return fmt.Errorf("add documents.sha256: %w", err)
		}
		return nil
	})
}
