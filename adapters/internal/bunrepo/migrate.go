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
//
// register adds Go migrations (for steps SQL cannot write so that they are
// safe to run twice, such as SQLite's ADD COLUMN); each calls
// Migrations.Register from a file named as bun names migrations.
func Migrator(db *bun.DB, files fs.FS, dir string, register ...func(*migrate.Migrations) error) (*migrate.Migrator, error) {
	sub, err := fs.Sub(files, dir)
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	ms := migrate.NewMigrations()
	if err := ms.Discover(sub); err != nil {
		return nil, fmt.Errorf("migrate: discover: %w", err)
	}
	for _, r := range register {
		if err := r(ms); err != nil {
			return nil, fmt.Errorf("migrate: register: %w", err)
		}
	}
	return migrate.NewMigrator(db, ms,
		migrate.WithTableName("vetted_migrations"),
		migrate.WithLocksTableName("vetted_migration_locks"),
		migrate.WithMarkAppliedOnSuccess(true),
	), nil
}
