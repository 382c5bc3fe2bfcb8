package sqlite

import (
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/ports/stores"
)

func (t *tx) Reminders() stores.ReminderRepo { return bunrepo.Reminders{Base: t.b} }
