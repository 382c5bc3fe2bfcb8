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

// CacheSizes reads PRAGMA cache_size on a connection of the writer and of
// the read pool.
func CacheSizes(ctx context.Context, s *Store) (writer, reader int, err error) {
	if err = s.writer.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&writer); err != nil {
		return 0, 0, err
	}
	err = s.reader.QueryRowContext(ctx, "PRAGMA cache_size").Scan(&reader)
	return writer, reader, err
}
