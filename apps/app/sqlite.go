package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/ports/stores"
)

// DatabaseFile is the SQLite file of the embedded default, in the data directory.
const DatabaseFile = "vetted.db"

// blobsDir is the directory of the local blob store, in the data directory.
const blobsDir = "blobs"

// openSQLite opens and migrates the data directory's database, creating
// both the first time. The schema is always brought up to date: there is no
// other process to leave it to.
func openSQLite(ctx context.Context, a *App, cfg Config) (stores.Store, error) {
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	st, err := sqlstore.OpenSQLite(ctx, filepath.Join(cfg.DataDir, DatabaseFile))
	if err != nil {
		return nil, err
	}
	a.onClose(func(context.Context) error { return st.Close() })
	w, r := st.SQLDBs()
	a.Metrics.WatchDB(w, "vetted_writer")
	a.Metrics.WatchDB(r, "vetted_reader")
	if err := st.Migrate(ctx); err != nil {
		return nil, err
	}
	return st, nil
}
