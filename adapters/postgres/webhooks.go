package postgres

import (
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/ports"
)

func (t *tx) Webhooks() ports.WebhookRepo { return bunrepo.Webhooks{Base: t.b} }
