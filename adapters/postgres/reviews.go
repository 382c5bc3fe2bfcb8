package postgres

import (
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/ports/stores"
)

func (t *tx) ReviewPolicies() stores.ReviewPolicyRepo { return bunrepo.ReviewPolicies{Base: t.b} }

func (t *tx) CalendarKeys() stores.CalendarKeyRepo { return bunrepo.CalendarKeys{Base: t.b} }
