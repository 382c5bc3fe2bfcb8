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
)

// world is one account with its members, endpoints, deliveries,
// attempts, delivery keys and outbox. Units of work are not rolled back.
type world struct {
	acc        accounts.Account
	roles      map[uuid.UUID]accounts.Role
	emails     map[uuid.UUID]string
	endpoints  []webhooks.Endpoint
	deliveries map[uuid.UUID]webhooks.Delivery
	attempts   []webhooks.Attempt
	sent       map[string]bool
	outbox     []outbox.Message
}

func (w *world) InTx(ctx context.Context, fn func(context.Context, webhooks.Tx) error) error {
	return fn(ctx, wtx{w: w})
}
func (w *world) View(ctx context.Context, fn func(context.Context, webhooks.Tx) error) error {
	return fn(ctx, wtx{w: w})
}
func (w *world) Ping(context.Context) error { return nil }

type wtx struct {
	webhooks.Tx
	w *world
}

func (t wtx) Accounts() accounts.AccountRepo { return wAccounts{w: t.w} }
func (t wtx) Members() accounts.MemberRepo   { return wMembers{w: t.w} }
func (t wtx) Webhooks() webhooks.WebhookRepo { return wHooks{w: t.w} }
func (t wtx) Outbox() outbox.Repo            { return wOutbox{w: t.w} }
func (t wtx) Deliveries() mailonce.Repo      { return wKeys{w: t.w} }

type wAccounts struct {
	accounts.AccountRepo
	w *world
}

func (r wAccounts) MembershipOf(_ context.Context, id, user uuid.UUID) (accounts.Membership, error) {
	role, ok := r.w.roles[user]
	if id != r.w.acc.ID || !ok {
		return accounts.Membership{}, core.ErrNotFound
	}
	return accounts.Membership{Account: r.w.acc, Role: role}, nil
}
func (r wAccounts) Get(context.Context, uuid.UUID) (accounts.Account, error) { return r.w.acc, nil }

type wMembers struct {
	accounts.MemberRepo
	w *world
}

func (r wMembers) List(context.Context, uuid.UUID) ([]accounts.Member, error) {
	var out []accounts.Member
	for u, role := range r.w.roles {
		out = append(out, accounts.Member{UserID: u, Email: r.w.emails[u], Role: role})
	}
	return out, nil
}

type wHooks struct {
	webhooks.WebhookRepo
	w *world
}

func (r wHooks) Create(_ context.Context, e webhooks.Endpoint) error {
	r.w.endpoints = append(r.w.endpoints, e)
	return nil
}
func (r wHooks) Get(_ context.Context, acc, id uuid.UUID) (webhooks.Endpoint, error) {
	for _, e := range r.w.endpoints {
		if e.ID == id && e.AccountID == acc {
			return e, nil
		}
	}
	return webhooks.Endpoint{}, core.NotFound("no endpoint")
}
func (r wHooks) List(context.Context, uuid.UUID) ([]webhooks.Endpoint, error) {
	return slices.Clone(r.w.endpoints), nil
}
func (r wHooks) Disable(_ context.Context, id uuid.UUID, now time.Time) error {
	for i := range r.w.endpoints {
		if r.w.endpoints[i].ID == id && r.w.endpoints[i].DisabledAt == nil {
			r.w.endpoints[i].DisabledAt = &now
		}
	}
	return nil
}
func (r wHooks) AddDeliveries(_ context.Context, ds []webhooks.Delivery) ([]webhooks.Delivery, error) {
	var out []webhooks.Delivery
	for _, d := range ds {
		if _, ok := r.w.deliveries[d.ID]; !ok {
			r.w.deliveries[d.ID] = d
			out = append(out, d)
		}
	}
	return out, nil
}
func (r wHooks) Delivery(_ context.Context, id uuid.UUID) (webhooks.Delivery, error) {
	d, ok := r.w.deliveries[id]
	if !ok {
		return d, core.NotFound("no delivery")
	}
	return d, nil
}
func (r wHooks) AddAttempt(_ context.Context, a webhooks.Attempt) error {
	for _, b := range r.w.attempts {
		if b.DeliveryID == a.DeliveryID && b.Number == a.Number {
			return core.Conflict("attempt exists")
		}
	}
	r.w.attempts = append(r.w.attempts, a)
	return nil
}

func (r wHooks) Attempts(_ context.Context, id uuid.UUID, offset, limit int) ([]webhooks.Attempt, int, error) {
	var out []webhooks.Attempt
	for _, a := range slices.Backward(r.w.attempts) {
		if a.EndpointID == id {
			out = append(out, a)
		}
	}
	return out[min(offset, len(out)):min(offset+limit, len(out))], len(out), nil
}

type wOutbox struct {
	outbox.Repo
	w *world
}

func (r wOutbox) Add(_ context.Context, ms ...outbox.Message) error {
	r.w.outbox = append(r.w.outbox, ms...)
	return nil
}

type wKeys struct {
	mailonce.Repo
	w *world
}

func (r wKeys) Claim(_ context.Context, key string, now time.Time, _ time.Duration) (mailonce.Delivery, error) {
	if r.w.sent[key] {
		return mailonce.Delivery{State: mailonce.DeliverySent}, nil
	}
	return mailonce.Delivery{State: mailonce.DeliveryClaimed, ClaimedAt: now}, nil
}
func (r wKeys) MarkSent(_ context.Context, key string, _ time.Time) error {
	r.w.sent[key] = true
	return nil
}

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

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
	w                      *world
	svc                    *webhooks.Service
	snd                    *sender
	mail                   *mailer
	clk                    *clock
	owner, member, watcher accounts.Actor
	ref                    accounts.AccountRef
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{snd: &sender{status: 204}, mail: &mailer{}, clk: &clock{now: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}}
	acc := accounts.Account{ID: uuid.New(), Name: "Acme", Active: true}
	f.owner = accounts.Actor{UserID: uuid.New(), Email: "owner@acme.test"}
	f.member = accounts.Actor{UserID: uuid.New(), Email: "member@acme.test"}
	f.watcher = accounts.Actor{UserID: uuid.New(), Email: "viewer@acme.test"}
	f.w = &world{acc: acc, deliveries: map[uuid.UUID]webhooks.Delivery{}, sent: map[string]bool{},
		roles:  map[uuid.UUID]accounts.Role{f.owner.UserID: accounts.RoleOwner, f.member.UserID: accounts.RoleMember, f.watcher.UserID: accounts.RoleViewer},
		emails: map[uuid.UUID]string{f.owner.UserID: f.owner.Email, f.member.UserID: f.member.Email, f.watcher.UserID: f.watcher.Email}}
	f.ref = accounts.AccountRef{ID: acc.ID}
	unit := uow.Unit[webhooks.Tx]{Store: f.w, Clock: f.clk, IDs: ports.UUIDv7{}}
	var err error
	f.svc, err = webhooks.NewService(webhooks.Deps{Unit: unit, Mail: mailonce.Mail[webhooks.Tx]{Store: f.w, Clock: f.clk, Mailer: f.mail}, Sender: f.snd, PublicURL: "https://v.test"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) kinds() []outbox.Kind {
	var out []outbox.Kind
	for _, m := range f.w.outbox {
		out = append(out, m.Kind)
	}
	return out
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
	ev := domainevent.VendorsChanged(f.w.acc.ID, uuid.New(), "Main", []uuid.UUID{uuid.New()}, nil, f.clk.now)
	emit := func() {
		t.Helper()
		if err := f.w.InTx(ctx, func(ctx context.Context, tx webhooks.Tx) error { return f.svc.Emit(ctx, tx, ev) }); err != nil {
			t.Fatal(err)
		}
	}
	emit()
	if len(f.w.outbox) != 0 {
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
	p := f.w.outbox[0].Payload.(outbox.WebhookEvent)
	for range 2 { // a fan-out run twice delivers once
		if err := f.svc.FanOut(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if len(f.w.deliveries) != 1 || len(f.w.outbox) != 2 || f.w.outbox[1].Kind != outbox.KindWebhookAttempt {
		t.Fatalf("deliveries %d, outbox %v", len(f.w.deliveries), f.kinds())
	}
	first := f.w.outbox[1].Payload.(outbox.WebhookAttempt)
	// The receiver fails: the next attempt is queued, due at the backoff.
	f.snd.status, f.snd.more = 503, true
	if err := f.svc.Attempt(ctx, first); err != nil {
		t.Fatal(err)
	}
	next := f.w.outbox[2]
	if n := next.Payload.(outbox.WebhookAttempt); n.Number != 2 || n.DeliveryID != first.DeliveryID || !next.DueAt.Equal(f.clk.now.Add(5*time.Second)) {
		t.Fatalf("next attempt %+v due %v", n, next.DueAt)
	}
	if a := f.w.attempts[0]; a.Number != 1 || a.StatusCode != 503 || a.Error == "" || a.NextRetryAt.IsZero() {
		t.Fatalf("attempt %+v", a)
	}
	// The same job run again records nothing more and queues nothing.
	if err := f.svc.Attempt(ctx, first); err != nil || len(f.w.attempts) != 1 || len(f.w.outbox) != 3 {
		t.Fatalf("replayed attempt: %v, %d attempts, outbox %v", err, len(f.w.attempts), f.kinds())
	}
	// The window is over: the endpoint is disabled and its staff mailed.
	f.snd.more = false
	if err := f.svc.Attempt(ctx, next.Payload.(outbox.WebhookAttempt)); err != nil {
		t.Fatal(err)
	}
	if f.w.endpoints[0].DisabledAt == nil || f.w.outbox[3].Kind != outbox.KindWebhookDisabledMail {
		t.Fatalf("endpoint %+v, outbox %v", f.w.endpoints[0], f.kinds())
	}
	if len(f.snd.sent) != 3 || f.snd.sent[0] != webhooks.MessageID(first.DeliveryID) || f.snd.sent[2] != f.snd.sent[0] {
		t.Fatalf("webhook-ids %v", f.snd.sent)
	}
	for range 2 {
		if err := f.svc.SendDisabledMail(ctx, f.w.outbox[3].Payload.(outbox.WebhookDisabledMail)); err != nil {
			t.Fatal(err)
		}
	}
	if len(f.mail.sent) != 1 || f.mail.sent[0].To != f.owner.Email {
		t.Fatalf("mails %+v, want one to the owner", f.mail.sent)
	}
	// A disabled endpoint gets nothing new; a ping still goes.
	emit()
	if len(f.w.outbox) != 4 {
		t.Fatalf("event for a disabled endpoint: %v", f.kinds())
	}
	f.snd.status = 200
	d, err := f.svc.Test(ctx, f.owner, f.ref, e.ID)
	if err != nil || d.Event.Type != domainevent.Ping {
		t.Fatalf("Test = %+v, %v", d, err)
	}
	if err := f.svc.Attempt(ctx, f.w.outbox[4].Payload.(outbox.WebhookAttempt)); err != nil || len(f.snd.sent) != 4 {
		t.Fatalf("ping: %v, %d sends", err, len(f.snd.sent))
	}
	page, err := f.svc.Deliveries(ctx, f.watcher, f.ref, e.ID, 0, 0)
	if err != nil || page.Limit != webhooks.DefaultPageSize || page.Total != 3 || page.Attempts[0].EventType != domainevent.Ping {
		t.Fatalf("Deliveries = %+v, %v", page, err)
	}
	// An attempt of a delivery whose endpoint was deleted does nothing.
	f.w.endpoints = nil
	if err := f.svc.Attempt(ctx, first); err != nil {
		t.Fatalf("attempt after delete: %v", err)
	}
}
