package memstore

import (
	"context"
	"time"

	"github.com/vetted-dev/vetted/core/assessments"
)

func (t *tx) Reminders() assessments.ReminderRepo { return reminders{t} }

type reminders struct{ *tx }

func (r reminders) Record(_ context.Context, keys []string, now time.Time) ([]string, error) {
	out := []string{}
	err := r.atomic(func() error {
		for _, k := range keys {
			if _, ok := r.d.reminderKeys[k]; !ok {
				put(r.tx, r.d.reminderKeys, k, now.UTC())
				out = append(out, k)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (r reminders) Recorded(_ context.Context, keys []string) ([]string, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []string{}
	for _, k := range keys {
		if _, ok := r.d.reminderKeys[k]; ok {
			out = append(out, k)
		}
	}
	return out, nil
}

// ReminderKeys returns every reminder key recorded, in no order: what a
// test reads to see which reminders and review events were marked told.
func (s *Store) ReminderKeys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.d.reminderKeys))
	for k := range s.d.reminderKeys {
		out = append(out, k)
	}
	return out
}
