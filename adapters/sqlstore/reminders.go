package sqlstore

import (
	"context"
	"slices"
	"time"

	"github.com/uptrace/bun"
)

// reminderRepo is assessments.ReminderRepo.
type reminderRepo struct{ base }

// reminderChunk bounds the keys of one statement (two parameters a row on
// insert, far below PostgreSQL's 65,535).
const reminderChunk = 1000

// Record inserts the keys with ON CONFLICT DO NOTHING and returns those it
// inserted. Keys go in sorted, so two units of work recording overlapping
// keys on PostgreSQL wait for each other in one order and never deadlock;
// the one that waited then inserts nothing for the keys the other committed.
func (r reminderRepo) Record(ctx context.Context, keys []string, now time.Time) ([]string, error) {
	sorted := slices.Clone(keys)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	inserted := map[string]bool{}
	for c := range slices.Chunk(sorted, reminderChunk) {
		rows := make([]reminderKeyRow, len(c))
		for i, k := range c {
			rows[i] = reminderKeyRow{Key: k, CreatedAt: now.UTC()}
		}
		var got []string
		if _, err := r.DB.NewInsert().Model(&rows).On("CONFLICT (key) DO NOTHING").Returning("key").Exec(ctx, &got); err != nil {
			return nil, r.Translate(err, "record reminder keys")
		}
		for _, k := range got {
			inserted[k] = true
		}
	}
	out := []string{}
	for _, k := range keys {
		if inserted[k] {
			out = append(out, k)
			delete(inserted, k) // a duplicate in keys counts once
		}
	}
	return out, nil
}

// Recorded selects the keys among keys that are stored.
func (r reminderRepo) Recorded(ctx context.Context, keys []string) ([]string, error) {
	out := []string{}
	for c := range slices.Chunk(keys, reminderChunk) {
		var got []string
		if err := r.DB.NewSelect().Model((*reminderKeyRow)(nil)).Column("key").Where("key IN (?)", bun.List(c)).Scan(ctx, &got); err != nil {
			return nil, r.Translate(err, "read reminder keys")
		}
		out = append(out, got...)
	}
	return out, nil
}
