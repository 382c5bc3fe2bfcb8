package postgres

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"

	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
)

// migrationFiles are the schema migrations, forward-only: there are no down
// files, and every statement is written to be safe to run twice.
//
//go:embed migrations/*.up.sql
var migrationFiles embed.FS

// migrateLockKey names the advisory lock that serialises Migrate across
// processes (an arbitrary constant: "vetted" in ASCII).
const migrateLockKey int64 = 0x766574746564

// Migrate brings the schema up to date. It is safe to call on every start
// and from several processes at once: a session-level advisory lock makes
// a second migrator wait for the first instead of failing, and bun's
// migration lock row guards against migrators that do not take it. A
// migration is recorded as applied only once it has committed.
func (s *Store) Migrate(ctx context.Context) error {
	m, err := bunrepo.Migrator(s.db, migrationFiles, "migrations")
	if err != nil {
		return err
	}

	// The advisory lock belongs to one session, so hold one connection for
	// the whole run; the migrator itself uses other connections of the pool.
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", migrateLockKey); err != nil {
		return fmt.Errorf("migrate: take advisory lock: %w", err)
	}
	defer func() {
		_, _ = conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", migrateLockKey)
	}()

	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("migrate: init: %w", err)
	}
	if err := m.Lock(ctx); err != nil {
		// Holding the advisory lock, no live migrator of ours can hold
		// bun's lock: the row was left by one that died. Take it over.
		if uerr := m.Unlock(ctx); uerr != nil {
			return errors.Join(err, uerr)
		}
		if err := m.Lock(ctx); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
	}
	defer func() { _ = m.Unlock(context.WithoutCancel(ctx)) }()

	if _, err := m.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// SchemaVersion identifies the embedded migrations by a short hash of their
// names and contents, so that tools (pgtest's template databases) can tell
// whether a database was built from the same schema.
func SchemaVersion() string {
	h := sha256.New()
	_ = fs.WalkDir(migrationFiles, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := migrationFiles.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", path, len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:16]
}
