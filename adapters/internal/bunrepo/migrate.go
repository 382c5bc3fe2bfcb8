package bunrepo

import (
	"fmt"
	"io/fs"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// Migrator returns bun's migrator over the forward-only *.up.sql files in
// dir of files. Applied migrations are recorded in vetted_migrations, each
// once it has committed, and bun's lock row lives in vetted_migration_locks;
// how migrators of several processes take turns is each store's to say.
func Migrator(db *bun.DB, files fs.FS, dir string) (*migrate.Migrator, error) {
	sub, err := fs.Sub(files, dir)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	ms := migrate.NewMigrations()
	if err := ms.Discover(sub); err != nil {
		return nil, fmt.Errorf("migrate: discover: %w", err)
	}
	return migrate.NewMigrator(db, ms,
		migrate.WithTableName("vetted_migrations"),
		migrate.WithLocksTableName("vetted_migration_locks"),
		migrate.WithMarkAppliedOnSuccess(true),
	), nil
}
