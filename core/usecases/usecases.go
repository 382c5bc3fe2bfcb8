// Package usecases wires Vetted's use-case packages from one set of ports
// and dispatches the jobs of the outbox to them (dispatch.go). It is the
// top of the core's import graph: nothing in the core imports it, and it
// holds no rule of its own.
package usecases

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/attestations"
	"github.com/vetted-dev/vetted/core/contracts"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/records"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Deps are the ports of every area. All are required except Views, Notify
// and Logger.
type Deps struct {
	Store    stores.Store
	Clock    ports.Clock
	IDs      ports.IDs
	Blobs    ports.BlobStore
	Mailer   ports.Mailer
	Enricher vendors.Enricher
	// Websites discovers the websites of vendors known by name only;
	// nil: no discovery.
	Websites  vendors.WebsiteFinder
	Incidents vendors.IncidentSource
	// IncidentSources are the platform-wide incident sources (none: not
	// polled), read by IncidentReader and matched with name indexes built
	// by NameIndex; IncidentMetrics counts their reads (optional).
	IncidentSources []incidents.Endpoint
	IncidentReader  incidents.SourceReader
	NameIndex       incidents.BuildNameIndex
	IncidentMetrics incidents.Metrics
	Signer          *signedlink.Signer
	// Webhooks is the transport of outbound webhooks (adapters/webhook).
	Webhooks webhooks.WebhookSender
	// Views is where vendor reads go (a cache such as adapters/dircache);
	// nil reads the store.
	Views vendors.VendorViews
	// PublicURL is the base URL for links in mail (no trailing slash).
	PublicURL string
	// Logger receives operational messages; nil means slog.Default().
	Logger *slog.Logger
	// Notify, when set, is called after a unit of work that wrote to the
	// outbox commits, to wake the relay.
	Notify func()
}

// UseCases are the areas of the core, wired together.
type UseCases struct {
	Accounts    *accounts.Service
	Lists       *lists.Service
	Vendors     *vendors.Service
	Assessments *assessments.Service
	Alerts      *alerts.Service
	Webhooks    *webhooks.Service
	Incidents   *incidents.Service
	Records     *records.Service
	Contracts   *contracts.Service

	Attestations *attestations.Service

	store stores.Store
	blobs ports.BlobStore
}

// New checks the dependencies and wires the areas.
func New(d Deps) (*UseCases, error) {
	var missing []string
	for _, p := range []struct {
		name string
		nil  bool
	}{{"Store", d.Store == nil}, {"Clock", d.Clock == nil}, {"IDs", d.IDs == nil}, {"Blobs", d.Blobs == nil},
		{"Mailer", d.Mailer == nil}, {"Enricher", d.Enricher == nil}, {"Incidents", d.Incidents == nil}, {"Signer", d.Signer == nil},
		{"Webhooks", d.Webhooks == nil}} {
		if p.nil {
			missing = append(missing, p.name)
		}
	}
	if len(missing) > 0 {
		return nil, errors.New("usecases: missing dependencies: " + strings.Join(missing, ", "))
	}
	log := d.Logger
	if log == nil {
		log = slog.Default()
	}
	public := strings.TrimRight(d.PublicURL, "/")
	unit := uow.Unit[stores.Tx]{Store: d.Store, Clock: d.Clock, IDs: d.IDs, Notify: d.Notify}
	mail := mailonce.Mail[stores.Tx]{Store: d.Store, Clock: d.Clock, Mailer: d.Mailer, Log: log}
	u := &UseCases{store: d.Store, blobs: d.Blobs}
	var err error
	// The webhooks area comes first: every other area records its events
	// through the unit's Events, which is the webhooks area's Emit.
	if u.Webhooks, err = webhooks.NewService(webhooks.Deps{Unit: narrowUnit[webhooks.Tx](unit), Mail: narrowMail[webhooks.Tx](mail), Sender: d.Webhooks, PublicURL: public, Log: log}); err != nil {
		return nil, err
	}
	unit.Events = func(ctx context.Context, tx stores.Tx, ev domainevent.Event) error {
		return u.Webhooks.Emit(ctx, tx, ev)
	}
	if u.Accounts, err = accounts.NewService(accounts.Deps{Unit: narrowUnit[accounts.Tx](unit), Mail: narrowMail[accounts.Tx](mail), PublicURL: public, Log: log,
		Opened: func(ctx context.Context, tx accounts.Tx, accountID uuid.UUID, now time.Time) error {
			return lists.OpenMaster(ctx, whole(tx), d.IDs.New(), accountID, now)
		},
		Files: func(ctx context.Context, tx accounts.Tx, accountID uuid.UUID) ([]string, error) {
			evidence, err := assessments.AccountFiles(ctx, whole(tx), accountID)
			if err != nil {
				return nil, err
			}
			held, err := attestations.AccountFiles(ctx, whole(tx), accountID)
			return append(evidence, held...), err
		}}); err != nil {
		return nil, err
	}
	if u.Vendors, err = vendors.NewService(vendors.Deps{Unit: narrowUnit[vendors.Tx](unit), Enricher: d.Enricher, Websites: d.Websites, Incidents: d.Incidents, Views: d.Views, Log: log}); err != nil {
		return nil, err
	}
	if u.Lists, err = lists.NewService(lists.Deps{Unit: narrowUnit[lists.Tx](unit), Directory: u.Vendors,
		Files: func(ctx context.Context, tx lists.Tx, accountID, listID uuid.UUID) ([]string, error) {
			return assessments.ListFiles(ctx, whole(tx), accountID, listID)
		}}); err != nil {
		return nil, err
	}
	if u.Assessments, err = assessments.NewService(assessments.Deps{Unit: narrowUnit[assessments.Tx](unit), Blobs: d.Blobs, Mail: narrowMail[assessments.Tx](mail), Signer: d.Signer, Lists: u.Lists, PublicURL: public, Log: log}); err != nil {
		return nil, err
	}
	if u.Alerts, err = alerts.NewService(alerts.Deps{Unit: narrowUnit[alerts.Tx](unit), Mail: narrowMail[alerts.Tx](mail), Signer: d.Signer, PublicURL: public}); err != nil {
		return nil, err
	}
	if u.Records, err = records.NewService(records.Deps{Unit: narrowUnit[records.Tx](unit), Mail: narrowMail[records.Tx](mail), PublicURL: public, Log: log}); err != nil {
		return nil, err
	}
	if u.Incidents, err = incidents.NewService(incidents.Deps{Unit: narrowUnit[incidents.Tx](unit), Sources: d.IncidentSources, Reader: d.IncidentReader,
		BuildIndex: d.NameIndex, Metrics: d.IncidentMetrics, Log: log}); err != nil {
		return nil, err
	}
	if u.Contracts, err = contracts.NewService(contracts.Deps{Unit: narrowUnit[contracts.Tx](unit)}); err != nil {
		return nil, err
	}
	if u.Attestations, err = attestations.NewService(attestations.Deps{Unit: narrowUnit[attestations.Tx](unit), Files: d.Blobs, Log: log}); err != nil {
		return nil, err
	}
	return u, nil
}

// Ready reports whether the store answers.
func (u *UseCases) Ready(ctx context.Context) error { return u.store.Ping(ctx) }
