package webhooks

import (
	"context"
	"errors"
	"log/slog"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
)

// Deps are the ports the webhook use cases need.
type Deps struct {
	uow.Unit[Tx]
	Mail   mailonce.Mail[Tx]
	Sender WebhookSender
	// PublicURL is the base URL for links in mail (no trailing slash).
	PublicURL string
	Log       *slog.Logger
}

// Service implements the webhook use cases.
type Service struct{ d Deps }

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	missing := d.Missing()
	if d.Mail.Mailer == nil {
		missing = append(missing, "Mailer")
	}
	if d.Sender == nil {
		missing = append(missing, "Sender")
	}
	if len(missing) > 0 {
		return nil, errors.New("webhooks: missing dependencies: " + strings.Join(missing, ", "))
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{d: d}, nil
}

// CreateInput is a new endpoint as the caller gives it.
type CreateInput struct {
	URL         string
	Events      []string
	Description string
}

// Create registers an endpoint and returns it with its secret: the only
// answer that ever shows the secret. Admins and owners only.
func (s *Service) Create(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, in CreateInput) (Endpoint, error) {
	var errs core.Fields
	raw := strings.TrimSpace(in.URL)
	if raw == "" {
		errs.Add("CreateInput.URL", "is required")
	} else if err := s.d.Sender.CheckURL(raw); err != nil && !errs.AddErr(err) {
		return Endpoint{}, err
	}
	events, err := ParseEvents(in.Events)
	if err != nil && !errs.AddErr(err) {
		return Endpoint{}, err
	}
	desc, err := CheckDescription(in.Description)
	if err != nil && !errs.AddErr(err) {
		return Endpoint{}, err
	}
	if err := errs.Err(); err != nil {
		return Endpoint{}, err
	}
	secret, err := s.d.Sender.NewSecret()
	if err != nil {
		return Endpoint{}, err
	}
	var e Endpoint
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ManageRole)
		if err != nil {
			return err
		}
		have, err := tx.Webhooks().List(ctx, acc.Account.ID)
		if err != nil {
			return err
		}
		if len(have) >= MaxEndpoints {
			return core.Invalid("CreateInput.URL", "the account has %d endpoints, the most it may have; delete one first", len(have))
		}
		e = Endpoint{ID: s.d.IDs.New(), AccountID: acc.Account.ID, URL: raw, Description: desc, Events: events,
			Secret: secret, CreatedAt: s.d.Now(), CreatedBy: a.Email}
		return tx.Webhooks().Create(ctx, e)
	})
	return e, err
}

// List returns the account's endpoints without their secrets; every member
// may read them.
func (s *Service) List(ctx context.Context, a accounts.Actor, ref accounts.AccountRef) ([]Endpoint, error) {
	var out []Endpoint
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		out, err = tx.Webhooks().List(ctx, acc.Account.ID)
		return err
	})
	for i := range out {
		out[i].Secret = ""
	}
	return out, err
}

// Delete removes an endpoint with its delivery log; its pending attempts
// find it gone and stop. Admins and owners only.
func (s *Service) Delete(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID) error {
	return s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ManageRole)
		if err != nil {
			return err
		}
		return tx.Webhooks().Delete(ctx, acc.Account.ID, id)
	})
}

// Page bounds of the delivery log.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// AttemptPage is a page of an endpoint's delivery log, newest first.
type AttemptPage struct {
	Attempts []Attempt
	Total    int
	Offset   int
	Limit    int
}

// Deliveries returns a page of an endpoint's attempts, newest first; every
// member may read it. limit 0 takes the default.
func (s *Service) Deliveries(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID, offset, limit int) (AttemptPage, error) {
	if offset < 0 {
		return AttemptPage{}, core.Invalid("DeliveryQuery.Offset", "must not be negative")
	}
	if limit < 0 || limit > MaxPageSize {
		return AttemptPage{}, core.Invalid("DeliveryQuery.Limit", "must be between 1 and %d", MaxPageSize)
	}
	if limit == 0 {
		limit = DefaultPageSize
	}
	p := AttemptPage{Offset: offset, Limit: limit}
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		if _, err := tx.Webhooks().Get(ctx, acc.Account.ID, id); err != nil {
			return err
		}
		p.Attempts, p.Total, err = tx.Webhooks().Attempts(ctx, id, offset, limit)
		return err
	})
	return p, err
}

// Test queues a ping to one endpoint, delivered as every event is (the
// answer does not wait for it: the delivery log shows how it went), and
// returns the delivery. Admins and owners only.
func (s *Service) Test(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID) (Delivery, error) {
	var d Delivery
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ManageRole)
		if err != nil {
			return err
		}
		e, err := tx.Webhooks().Get(ctx, acc.Account.ID, id)
		if err != nil {
			return err
		}
		now := s.d.Now()
		ev := domainevent.Event{ID: s.d.IDs.New(), Type: domainevent.Ping, AccountID: e.AccountID, OccurredAt: now,
			Data: domainevent.Data{EndpointID: e.ID}}
		ds, err := s.queue(ctx, tx, ev, []Endpoint{e})
		if err != nil || len(ds) == 0 {
			return err
		}
		d = ds[0]
		return nil
	})
	return d, err
}

// Emit records an event in the caller's unit of work (uow.Unit.Event),
// to be fanned out after it commits. An event no endpoint wants now is not
// recorded at all, so accounts without webhooks add nothing to the outbox.
func (s *Service) Emit(ctx context.Context, tx Tx, ev domainevent.Event) error {
	es, err := s.endpointsFor(ctx, tx, ev)
	if err != nil || len(es) == 0 {
		return err
	}
	if ev.ID == uuid.Nil {
		ev.ID = s.d.IDs.New()
	}
	if ev.OccurredAt.IsZero() {
		ev.OccurredAt = s.d.Now()
	}
	ev.OccurredAt = ev.OccurredAt.UTC()
	return s.d.Emit(ctx, tx, outbox.KindWebhookEvent, outbox.WebhookEvent{Event: ev})
}

// endpointsFor returns the endpoints that want ev: of its account, or of
// every account carrying its vendor.
func (s *Service) endpointsFor(ctx context.Context, tx Tx, ev domainevent.Event) ([]Endpoint, error) {
	var (
		all []Endpoint
		err error
	)
	if ev.ForVendor() {
		all, err = tx.Webhooks().ForVendor(ctx, ev.Data.VendorID)
	} else {
		all, err = tx.Webhooks().List(ctx, ev.AccountID)
	}
	if err != nil {
		return nil, err
	}
	var out []Endpoint
	for _, e := range all {
		if e.Wants(ev.Type) {
			out = append(out, e)
		}
	}
	return out, nil
}

// FanOut records one delivery of an event per endpoint that wants it now
// and queues the first attempt of each (the job of KindWebhookEvent). Run
// again, it finds the deliveries recorded and queues nothing more.
func (s *Service) FanOut(ctx context.Context, p outbox.WebhookEvent) error {
	return s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		es, err := s.endpointsFor(ctx, tx, p.Event)
		if err != nil {
			return err
		}
		_, err = s.queue(ctx, tx, p.Event, es)
		return err
	})
}

// queue records the deliveries of ev to es that are new and queues their
// first attempts.
func (s *Service) queue(ctx context.Context, tx Tx, ev domainevent.Event, es []Endpoint) ([]Delivery, error) {
	now := s.d.Now()
	ds := make([]Delivery, len(es))
	for i, e := range es {
		acc := ev.AccountID
		if acc == uuid.Nil {
			acc = e.AccountID
		}
		ds[i] = Delivery{ID: DeliveryID(ev.ID, e.ID), EndpointID: e.ID, AccountID: acc, Event: ev, CreatedAt: now}
	}
	fresh, err := tx.Webhooks().AddDeliveries(ctx, ds)
	if err != nil {
		return nil, err
	}
	msgs := make([]outbox.Message, len(fresh))
	for i, d := range fresh {
		msgs[i] = outbox.New(s.d.IDs.New(), outbox.KindWebhookAttempt, outbox.WebhookAttempt{DeliveryID: d.ID, Number: 1}, now)
	}
	return fresh, uow.Add(ctx, tx, msgs...)
}

// Attempt makes one attempt of a delivery (the job of KindWebhookAttempt)
// and records it; a failure queues the next attempt, due when the sender's
// backoff says, or, once the retry window is over, disables the endpoint
// and mails its account's admins and owners. An attempt of a delivery
// whose endpoint was deleted or disabled since does nothing.
func (s *Service) Attempt(ctx context.Context, p outbox.WebhookAttempt) error {
	var (
		d Delivery
		e Endpoint
	)
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) (err error) {
		if d, err = tx.Webhooks().Delivery(ctx, p.DeliveryID); err != nil {
			return err
		}
		e, err = tx.Webhooks().Get(ctx, d.AccountID, d.EndpointID)
		return err
	})
	if errors.Is(err, core.ErrNotFound) {
		return nil // the endpoint was deleted with its deliveries
	}
	if err != nil {
		return err
	}
	if e.DisabledAt != nil && d.Event.Type != domainevent.Ping {
		return nil
	}
	out := s.d.Sender.Send(ctx, e, MessageID(d.ID), d.Event)
	now := s.d.Now()
	att := Attempt{DeliveryID: d.ID, EndpointID: e.ID, EventType: d.Event.Type, EventID: d.Event.ID, Number: p.Number,
		At: now, StatusCode: out.StatusCode, Duration: out.Duration, Error: out.ErrorText()}
	// The attempt is recorded whatever became of the request; ctx may be
	// ending (a worker shutting down) and the send happened all the same.
	book := context.WithoutCancel(ctx)
	err = s.d.Write(book, func(ctx context.Context, tx Tx) error {
		var next outbox.Message
		var disable bool
		if out.Err != nil {
			if at, more := s.d.Sender.NextRetry(p.Number, d.CreatedAt, now); more {
				att.NextRetryAt = at
				// Stamped with its due time as well, so that a retry
				// waiting hours does not read as an outbox backlog that
				// old (the backlog-age metric counts from CreatedAt).
				next = outbox.New(s.d.IDs.New(), outbox.KindWebhookAttempt, outbox.WebhookAttempt{DeliveryID: d.ID, Number: p.Number + 1}, at)
				next.DueAt = at
			} else {
				disable = d.Event.Type != domainevent.Ping
			}
		}
		if err := tx.Webhooks().AddAttempt(ctx, att); err != nil {
			return err
		}
		switch {
		case next.ID != uuid.Nil:
			return uow.Add(ctx, tx, next)
		case disable:
			if err := tx.Webhooks().Disable(ctx, e.ID, now); err != nil {
				return err
			}
			return s.d.Emit(ctx, tx, outbox.KindWebhookDisabledMail, outbox.WebhookDisabledMail{EndpointID: e.ID, AccountID: e.AccountID,
				URL: e.URL, LastError: att.Error, Attempts: p.Number})
		}
		return nil
	})
	switch {
	case errors.Is(err, core.ErrConflict):
		s.d.Log.Info("webhook attempt already recorded", "delivery", d.ID, "attempt", p.Number)
		return nil // this job ran before and queued what follows
	case errors.Is(err, core.ErrNotFound):
		return nil // deleted while the request was out
	}
	return err
}

// SendDisabledMail tells the admins and owners of an endpoint's account
// that it was disabled (the job of KindWebhookDisabledMail); each mail goes
// once, by its delivery key, however often the job runs.
func (s *Service) SendDisabledMail(ctx context.Context, p outbox.WebhookDisabledMail) error {
	var (
		acc   accounts.Account
		staff []string
	)
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		if acc, err = tx.Accounts().Get(ctx, p.AccountID); err != nil {
			return err
		}
		ms, err := tx.Members().List(ctx, p.AccountID)
		staff = accounts.Staff(ms)
		return err
	})
	if errors.Is(err, core.ErrNotFound) {
		return nil // the account is gone
	}
	if err != nil {
		return err
	}
	name := acc.Name
	if acc.Personal {
		name = "your personal space"
	}
	var errs []error
	for _, to := range staff {
		key := "webhook-disabled:" + p.EndpointID.String() + ":" + to
		m := mailtmpl.WebhookDisabledMail(to, key, mailtmpl.WebhookDisabledData{AccountName: name, URL: p.URL, LastError: p.LastError,
			Attempts: p.Attempts, AppURL: s.d.PublicURL + "/app/"})
		if err := s.d.Mail.Once(ctx, m); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
