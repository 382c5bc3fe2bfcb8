package sqlite

import (
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/ports"
)

func (t *tx) Reminders() ports.ReminderRepo { return bunrepo.Reminders{Base: t.b} }
