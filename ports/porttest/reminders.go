package porttest

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/vetted-dev/vetted/ports/stores"
)

// reminderCases check assessments.ReminderRepo (issue 22).
var reminderCases = []testCase{
	{"Record returns the new keys once, Recorded reads them, a rolled-back Record leaves none", func(t *testing.T, f *fixture) {
		var got []string
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			got, err = tx.Reminders().Record(ctx, []string{"reminder:b", "reminder:a", "reminder:b"}, f.tick())
			return err
		})
		sameStrings(t, "first record", got, []string{"reminder:b", "reminder:a"})
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			got, err = tx.Reminders().Record(ctx, []string{"reminder:a", "reminder:c"}, f.tick())
			return err
		})
		sameStrings(t, "second record", got, []string{"reminder:c"})
		_ = f.try(func(ctx context.Context, tx stores.Tx) error {
			if _, err := tx.Reminders().Record(ctx, []string{"reminder:d"}, f.tick()); err != nil {
				return err
			}
			return errBoom
		})
		rec := load(f, func(ctx context.Context, tx stores.Tx) ([]string, error) {
			return tx.Reminders().Recorded(ctx, []string{"reminder:a", "reminder:b", "reminder:c", "reminder:d", "reminder:e"})
		})
		slices.Sort(rec)
		sameStrings(t, "recorded", rec, []string{"reminder:a", "reminder:b", "reminder:c"})
		none := load(f, func(ctx context.Context, tx stores.Tx) ([]string, error) { return tx.Reminders().Recorded(ctx, nil) })
		equal(t, "recorded of none", len(none), 0)
	}},
	{"concurrent records of overlapping keys give each key to exactly one", func(t *testing.T, f *fixture) {
		keys := []string{"reminder:1", "reminder:2", "reminder:3"}
		var wins [3]atomic.Int32
		err := parallel(func(i int) error {
			mine := slices.Clone(keys)
			if i%2 == 1 {
				slices.Reverse(mine) // another order must not deadlock
			}
			var got []string // of the attempt that committed
			err := f.s.InTx(f.ctx, func(ctx context.Context, tx stores.Tx) (err error) {
				got, err = tx.Reminders().Record(ctx, mine, f.now)
				return err
			})
			for _, k := range got {
				wins[slices.Index(keys, k)].Add(1)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range wins {
			equal(t, keys[i], int(wins[i].Load()), 1)
		}
	}},
}
