package alerts

import (
	"errors"
	"strings"
	"time"

	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/core/platform/uow"
)

// Deps are the ports the alert use cases need.
type Deps struct {
	uow.Unit[Tx]
	Mail   mailonce.Mail[Tx]
	Signer *signedlink.Signer
	// PublicURL is the base URL for links in mail (no trailing slash).
	PublicURL string
}

// Service implements the alert use cases.
type Service struct{ d Deps }

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	missing := d.Missing()
	if d.Mail.Mailer == nil {
		missing = append(missing, "Mailer")
	}
	if d.Signer == nil {
		missing = append(missing, "Signer")
	}
	if len(missing) > 0 {
		return nil, errors.New("alerts: missing dependencies: " + strings.Join(missing, ", "))
	}
	return &Service{d: d}, nil
}

// ConfirmTTL is how long a subscriber's confirmation link works.
const ConfirmTTL = 7 * 24 * time.Hour

// Token purposes for signed links.
const (
	PurposeConfirm     = "subscriber-confirm"
	PurposeUnsubscribe = "unsubscribe"
)
