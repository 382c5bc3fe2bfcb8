package sqlite

import (
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/ports"
)

func (t *tx) ReviewPolicies() ports.ReviewPolicyRepo { return bunrepo.ReviewPolicies{Base: t.b} }

func (t *tx) CalendarKeys() ports.CalendarKeyRepo { return bunrepo.CalendarKeys{Base: t.b} }
