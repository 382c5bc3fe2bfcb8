package postgres

import (
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/ports/stores"
)

func (t *tx) Webhooks() stores.WebhookRepo { return bunrepo.Webhooks{Base: t.b} }
