package webhooks_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// tick moves the clock on, so that the outbox, oldest first, shows the
// messages in the order they were written.
func (c *clock) tick() { c.now = c.now.Add(time.Minute) }

type mailer struct{ sent []mailtmpl.Mail }

func (m *mailer) Send(_ context.Context, mail mailtmpl.Mail) error {
	m.sent = append(m.sent, mail)
	return nil
}

// sender answers status for every attempt and retries while more is true.
type sender struct {
	status int
	more   bool
	urlErr error
	sent   []string // message ids
}

func (s *sender) Send(_ context.Context, _ webhooks.Endpoint, id string, _ domainevent.Event) webhooks.Outcome {
	s.sent = append(s.sent, id)
	if s.status/100 == 2 {
		return webhooks.Outcome{StatusCode: s.status, Duration: time.Millisecond}
	}
	return webhooks.Outcome{StatusCode: s.status, Duration: time.Millisecond, Err: errors.New("not 2xx")}
}
func (s *sender) NextRetry(_ int, _, now time.Time) (time.Time, bool) {
	return now.Add(5 * time.Second), s.more
}
func (s *sender) NewSecret() (string, error) { return "whsec_c2VjcmV0", nil }
func (s *sender) CheckURL(string) error      { return s.urlErr }

type fixture struct {
	s                      *memstore.Store
	acc                    accounts.Account
	svc                    *webhooks.Service
	snd                    *sender
	mail                   *mailer
	clk                    *clock
	owner, member, watcher accounts.Actor
	ref                    accounts.AccountRef
}

// newFixture makes an account with an owner, a member and a viewer.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{s: memstore.New(), snd: &sender{status: 204}, mail: &mailer{}, clk: &clock{now: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}}
	f.acc = accounts.Account{ID: uuid.New(), Name: "Acme", Active: true}
	f.owner = accounts.Actor{UserID: uuid.New(), Email: "owner@acme.test"}
	f.member = accounts.Actor{UserID: uuid.New(), Email: "member@acme.test"}
	f.watcher = accounts.Actor{UserID: uuid.New(), Email: "viewer@acme.test"}
	f.ref = accounts.AccountRef{ID: f.acc.ID}
	f.write(t, func(ctx context.Context, tx webhooks.Tx) error {
		if err := tx.Accounts().Create(ctx, f.acc); err != nil {
			return err
		}
		for a, role := range map[accounts.Actor]accounts.Role{f.owner: accounts.RoleOwner, f.member: accounts.RoleMember, f.watcher: accounts.RoleViewer} {
			if err := tx.Users().Save(ctx, accounts.User{ID: a.UserID, Email: a.Email}); err != nil {
				return err
			}
			if err := tx.Members().Put(ctx, []accounts.Member{{AccountID: f.acc.ID, UserID: a.UserID, Role: role}}); err != nil {
				return err
			}
		}
		return nil
	})
	store := ports.Narrow[webhooks.Tx](f.s)
	unit := uow.Unit[webhooks.Tx]{Store: store, Clock: f.clk, IDs: ports.UUIDv7{}}
	var err error
	f.svc, err = webhooks.NewService(webhooks.Deps{Unit: unit, Mail: mailonce.Mail[webhooks.Tx]{Store: store, Clock: f.clk, Mailer: f.mail}, Sender: f.snd, PublicURL: "https://v.test"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// write runs fn in a unit of work of the store.
func (f *fixture) write(t *testing.T, fn func(context.Context, webhooks.Tx) error) {
	t.Helper()
	if err := ports.Narrow[webhooks.Tx](f.s).InTx(t.Context(), fn); err != nil {
		t.Fatal(err)
	}
}

// outbox returns what the units of work emitted (nothing relays it).
func (f *fixture) outbox() []outbox.Message { return f.s.Undelivered() }

func (f *fixture) kinds() []outbox.Kind {
	var out []outbox.Kind
	for _, m := range f.outbox() {
		out = append(out, m.Kind)
	}
	return out
}

// endpoint returns the stored endpoint and its attempts, newest first.
func (f *fixture) endpoint(t *testing.T, id uuid.UUID) (e webhooks.Endpoint, as []webhooks.Attempt) {
	t.Helper()
	f.write(t, func(ctx context.Context, tx webhooks.Tx) (err error) {
		if e, err = tx.Webhooks().Get(ctx, f.acc.ID, id); err != nil {
			return err
		}
		as, _, err = tx.Webhooks().Attempts(ctx, id, 0, 100)
		return err
	})
	return e, as
}

func TestNewNamesWhatIsMissing(t *testing.T) {
	t.Parallel()
	if _, err := webhooks.NewService(webhooks.Deps{}); err == nil {
		t.Fatal("New with nothing succeeded")
	}
}

func TestCreateListAndRoles(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	_, err := f.svc.Create(ctx, f.owner, f.ref, webhooks.CreateInput{})
	if fs := core.Failures(err); len(fs) != 2 || fs[0].Field != "CreateInput.URL" || fs[1].Field != "CreateInput.Events" {
		t.Fatalf("empty input: %v", err)
	}
	f.snd.urlErr = core.Invalid("url", "refused: a loopback address")
	_, err = f.svc.Create(ctx, f.owner, f.ref, webhooks.CreateInput{URL: "https://127.0.0.1/", Events: []string{"incident.created"}})
	if fs := core.Failures(err); len(fs) != 1 || fs[0].Field != "url" {
		t.Fatalf("refused URL: %v", err)
	}
	f.snd.urlErr = nil
	in := webhooks.CreateInput{URL: "https://hooks.example.com/x", Events: []string{"incident.created"}}
	for _, a := range []accounts.Actor{f.member, f.watcher} {
		if _, err := f.svc.Create(ctx, a, f.ref, in); !errors.Is(err, core.ErrForbidden) {
			t.Fatalf("%s creates: %v", a.Email, err)
		}
	}
	e, err := f.svc.Create(ctx, f.owner, f.ref, in)
	if err != nil || e.Secret == "" || e.CreatedBy != f.owner.Email {
		t.Fatalf("Create = %+v, %v", e, err)
	}
	es, err := f.svc.List(ctx, f.watcher, f.ref)
	if err != nil || len(es) != 1 || es[0].Secret != "" {
		t.Fatalf("List = %+v, %v", es, err)
	}
	if _, err := f.svc.Test(ctx, f.member, f.ref, e.ID); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("member tests: %v", err)
	}
	if _, err := f.svc.Deliveries(ctx, f.watcher, f.ref, e.ID, 0, 500); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("limit 500: %v", err)
	}
}

func TestEmitFanOutAndAttempts(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	ev := domainevent.VendorsChanged(f.acc.ID, uuid.New(), "Main", []uuid.UUID{uuid.New()}, nil, f.clk.now)
	emit := func() {
		t.Helper()
		f.write(t, func(ctx context.Context, tx webhooks.Tx) error { return f.svc.Emit(ctx, tx, ev) })
	}
	emit()
	if len(f.outbox()) != 0 {
		t.Fatalf("an event nobody wants was recorded: %v", f.kinds())
	}
	e, err := f.svc.Create(ctx, f.owner, f.ref, webhooks.CreateInput{URL: "https://h.example/", Events: []string{"list.vendors_changed"}})
	if err != nil {
		t.Fatal(err)
	}
	emit()
	if !slices.Equal(f.kinds(), []outbox.Kind{outbox.KindWebhookEvent}) {
		t.Fatalf("outbox %v", f.kinds())
	}
	p := f.outbox()[0].Payload.(outbox.WebhookEvent)
	f.clk.tick()
	for range 2 { // a fan-out run twice delivers once
		if err := f.svc.FanOut(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if len(f.outbox()) != 2 || f.outbox()[1].Kind != outbox.KindWebhookAttempt {
		t.Fatalf("outbox %v, want one delivery's attempt", f.kinds())
	}
	first := f.outbox()[1].Payload.(outbox.WebhookAttempt)
	// The receiver fails: the next attempt is queued, due at the backoff.
	f.snd.status, f.snd.more = 503, true
	f.clk.tick()
	if err := f.svc.Attempt(ctx, first); err != nil {
		t.Fatal(err)
	}
	next := f.outbox()[2]
	if n := next.Payload.(outbox.WebhookAttempt); n.Number != 2 || n.DeliveryID != first.DeliveryID || !next.DueAt.Equal(f.clk.now.Add(5*time.Second)) {
		t.Fatalf("next attempt %+v due %v", n, next.DueAt)
	}
	if _, as := f.endpoint(t, e.ID); len(as) != 1 {
		t.Fatalf("attempts %+v", as)
	} else if a := as[0]; a.Number != 1 || a.StatusCode != 503 || a.Error == "" || a.NextRetryAt.IsZero() {
		t.Fatalf("attempt %+v", a)
	}
	// The same job run again records nothing more and queues nothing.
	if err := f.svc.Attempt(ctx, first); err != nil {
		t.Fatal(err)
	}
	if _, as := f.endpoint(t, e.ID); len(as) != 1 || len(f.outbox()) != 3 {
		t.Fatalf("replayed attempt: %d attempts, outbox %v", len(as), f.kinds())
	}
	// The window is over: the endpoint is disabled and its staff mailed.
	f.snd.more = false
	f.clk.tick()
	if err := f.svc.Attempt(ctx, next.Payload.(outbox.WebhookAttempt)); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.endpoint(t, e.ID); got.DisabledAt == nil || f.outbox()[3].Kind != outbox.KindWebhookDisabledMail {
		t.Fatalf("endpoint %+v, outbox %v", got, f.kinds())
	}
	if len(f.snd.sent) != 3 || f.snd.sent[0] != webhooks.MessageID(first.DeliveryID) || f.snd.sent[2] != f.snd.sent[0] {
		t.Fatalf("webhook-ids %v", f.snd.sent)
	}
	for range 2 {
		if err := f.svc.SendDisabledMail(ctx, f.outbox()[3].Payload.(outbox.WebhookDisabledMail)); err != nil {
			t.Fatal(err)
		}
	}
	if len(f.mail.sent) != 1 || f.mail.sent[0].To != f.owner.Email {
		t.Fatalf("mails %+v, want one to the owner", f.mail.sent)
	}
	// A disabled endpoint gets nothing new; a ping still goes.
	emit()
	if len(f.outbox()) != 4 {
		t.Fatalf("event for a disabled endpoint: %v", f.kinds())
	}
	f.snd.status = 200
	f.clk.tick()
	d, err := f.svc.Test(ctx, f.owner, f.ref, e.ID)
	if err != nil || d.Event.Type != domainevent.Ping {
		t.Fatalf("Test = %+v, %v", d, err)
	}
	if err := f.svc.Attempt(ctx, f.outbox()[4].Payload.(outbox.WebhookAttempt)); err != nil || len(f.snd.sent) != 4 {
		t.Fatalf("ping: %v, %d sends", err, len(f.snd.sent))
	}
	page, err := f.svc.Deliveries(ctx, f.watcher, f.ref, e.ID, 0, 0)
	if err != nil || page.Limit != webhooks.DefaultPageSize || page.Total != 3 || page.Attempts[0].EventType != domainevent.Ping {
		t.Fatalf("Deliveries = %+v, %v", page, err)
	}
	// An attempt of a delivery whose endpoint was deleted does nothing.
	f.write(t, func(ctx context.Context, tx webhooks.Tx) error { return tx.Webhooks().Delete(ctx, f.acc.ID, e.ID) })
	if err := f.svc.Attempt(ctx, first); err != nil {
		t.Fatalf("attempt after delete: %v", err)
	}
}
