package postgres

import (
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/core/webhooks"
)

func (t *tx) Webhooks() webhooks.WebhookRepo { return bunrepo.Webhooks{Base: t.b} }
