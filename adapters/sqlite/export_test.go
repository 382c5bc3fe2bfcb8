package sqlite

import "context"

// RerunMigration runs one embedded migration file again, as a migrator that
// died before recording it would; every migration is written to be safe to
// run twice.
func RerunMigration(ctx context.Context, s *Store, name string) error {
	b, err := migrationFiles.ReadFile("migrations/" + name)
	if err != nil {
		return err
	}
	_, err = s.writer.ExecContext(ctx, string(b))
	return err
}
