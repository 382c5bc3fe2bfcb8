package alerts_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
)

// store is one organization with one list, its members and subscribers,
// and the outbox: what the subscriber use cases read and write. Units of
// work run one at a time on it and are not rolled back (no test fails one
// half-way). Every repository method it does not implement is nil.
type store struct {
	acc     accounts.Account
	caller  uuid.UUID
	list    lists.List
	members []accounts.Member
	subs    map[uuid.UUID]alerts.Subscriber
	outbox  []outbox.Message
	sent    map[string]bool
	// For the fan-out: the incidents, the vendor they are of, and whether
	// the list has alerts on for it.
	incidents []vendors.Incident
	vendor    vendors.Vendor
	alertsOn  bool
	// The rating history, oldest first.
	ratings []vendors.RatingRecord
}

func (s *store) InTx(ctx context.Context, fn func(context.Context, alerts.Tx) error) error {
	return fn(ctx, tx{s: s})
}
func (s *store) View(ctx context.Context, fn func(context.Context, alerts.Tx) error) error {
	return fn(ctx, tx{s: s})
}
func (s *store) Ping(context.Context) error { return nil }

type tx struct {
	alerts.Tx
	s *store
}

func (t tx) Accounts() accounts.AccountRepo     { return accountsFake{s: t.s} }
func (t tx) Lists() lists.ListRepo              { return listsFake{s: t.s} }
func (t tx) Members() accounts.MemberRepo       { return members{s: t.s} }
func (t tx) Subscribers() alerts.SubscriberRepo { return subs{s: t.s} }
func (t tx) Outbox() outbox.Repo                { return box{s: t.s} }
func (t tx) Deliveries() mailonce.Repo          { return deliveries{s: t.s} }
func (t tx) Incidents() vendors.IncidentRepo    { return incidents{s: t.s} }
func (t tx) Vendors() vendors.VendorRepo        { return vendorsFake{s: t.s} }
func (t tx) Profiles() vendors.ProfileRepo      { return profiles{s: t.s} }

type incidents struct {
	vendors.IncidentRepo
	s *store
}

func (r incidents) Get(_ context.Context, id uuid.UUID) (vendors.Incident, error) {
	for _, in := range r.s.incidents {
		if in.ID == id {
			return in, nil
		}
	}
	return vendors.Incident{}, core.ErrNotFound
}

type vendorsFake struct {
	vendors.VendorRepo
	s *store
}

func (r vendorsFake) Get(context.Context, uuid.UUID) (vendors.Vendor, error) { return r.s.vendor, nil }

// deliveries remembers the keys sent.
type deliveries struct{ s *store }

func (r deliveries) Claim(_ context.Context, key string, now time.Time, _ time.Duration) (mailonce.Delivery, error) {
	if r.s.sent[key] {
		return mailonce.Delivery{State: mailonce.DeliverySent}, nil
	}
	return mailonce.Delivery{State: mailonce.DeliveryClaimed, ClaimedAt: now}, nil
}

func (r deliveries) MarkSent(_ context.Context, key string, _ time.Time) error {
	r.s.sent[key] = true
	return nil
}

func (r deliveries) Release(context.Context, string) error { return nil }

type accountsFake struct {
	accounts.AccountRepo
	s *store
}

func (r accountsFake) MembershipOf(_ context.Context, accountID, userID uuid.UUID) (accounts.Membership, error) {
	if accountID != r.s.acc.ID || userID != r.s.caller {
		return accounts.Membership{}, core.ErrNotFound
	}
	return accounts.Membership{Account: r.s.acc, Role: accounts.RoleMember}, nil
}

func (r accountsFake) Get(_ context.Context, id uuid.UUID) (accounts.Account, error) {
	if id != r.s.acc.ID {
		return accounts.Account{}, core.ErrNotFound
	}
	return r.s.acc, nil
}

type listsFake struct {
	lists.ListRepo
	s *store
}

func (r listsFake) Get(_ context.Context, accountID, id uuid.UUID) (lists.List, error) {
	if accountID != r.s.list.AccountID || id != r.s.list.ID {
		return lists.List{}, core.ErrNotFound
	}
	return r.s.list, nil
}

type members struct {
	accounts.MemberRepo
	s *store
}

func (r members) List(context.Context, uuid.UUID) ([]accounts.Member, error) { return r.s.members, nil }

func (r listsFake) Entries(context.Context, uuid.UUID) ([]lists.Entry, error) {
	return []lists.Entry{{ListID: r.s.list.ID, VendorID: r.s.vendor.ID, AlertsEnabled: r.s.alertsOn}}, nil
}

type subs struct{ s *store }

func (r subs) List(context.Context, uuid.UUID) ([]alerts.Subscriber, error) {
	var out []alerts.Subscriber
	for _, s := range r.s.subs {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b alerts.Subscriber) int { return compare(a.Email, b.Email) })
	return out, nil
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (r subs) Get(_ context.Context, id uuid.UUID) (alerts.Subscriber, error) {
	s, ok := r.s.subs[id]
	if !ok {
		return s, core.ErrNotFound
	}
	return s, nil
}

func (r subs) GetByEmail(_ context.Context, _ uuid.UUID, email string) (alerts.Subscriber, error) {
	for _, s := range r.s.subs {
		if s.Email == email {
			return s, nil
		}
	}
	return alerts.Subscriber{}, core.ErrNotFound
}

func (r subs) Save(_ context.Context, s alerts.Subscriber) error { r.s.subs[s.ID] = s; return nil }

func (r subs) Delete(_ context.Context, _ uuid.UUID, emails []string) (int, error) {
	n := 0
	for id, s := range r.s.subs {
		if slices.Contains(emails, s.Email) {
			delete(r.s.subs, id)
			n++
		}
	}
	return n, nil
}

func (r subs) Recipients(context.Context, uuid.UUID) ([]alerts.Recipient, error) {
	var out []alerts.Recipient
	for _, s := range r.s.subs {
		if s.Status == alerts.SubscriberConfirmed && r.s.alertsOn {
			out = append(out, alerts.Recipient{SubscriberID: s.ID, AccountID: s.AccountID, ListName: r.s.list.Name, Email: s.Email})
		}
	}
	return out, nil
}

type box struct {
	outbox.Repo
	s *store
}

func (r box) Add(_ context.Context, ms ...outbox.Message) error {
	r.s.outbox = append(r.s.outbox, ms...)
	return nil
}

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

type seq struct{}

func (seq) New() uuid.UUID { return uuid.New() }

type mailer struct{ sent []mailtmpl.Mail }

func (m *mailer) Send(_ context.Context, ml mailtmpl.Mail) error {
	m.sent = append(m.sent, ml)
	return nil
}

func setup(t *testing.T) (*alerts.Service, *store, *clock, accounts.Actor, lists.ListRef, *mailer) {
	t.Helper()
	caller := accounts.Actor{UserID: uuid.New(), Email: "ann@acme.test", Verified: true}
	acc := accounts.Account{ID: uuid.New(), Name: "Acme", Active: true}
	st := &store{acc: acc, caller: caller.UserID, list: lists.List{ID: uuid.New(), AccountID: acc.ID, Name: "Critical"},
		members: []accounts.Member{{AccountID: acc.ID, UserID: caller.UserID, Email: "ann@acme.test", Verified: true, Role: accounts.RoleMember},
			{AccountID: acc.ID, UserID: uuid.New(), Email: "bob@acme.test", Role: accounts.RoleViewer}},
		subs: map[uuid.UUID]alerts.Subscriber{}, sent: map[string]bool{}}
	clk := &clock{now: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}
	signer, err := signedlink.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	mails := &mailer{}
	svc, err := alerts.NewService(alerts.Deps{Unit: uow.Unit[alerts.Tx]{Store: st, Clock: clk, IDs: seq{}},
		Mail: mailonce.Mail[alerts.Tx]{Store: st, Clock: clk, Mailer: mails}, Signer: signer, PublicURL: "https://vetted.test"})
	if err != nil {
		t.Fatal(err)
	}
	return svc, st, clk, caller, lists.ListRef{ID: st.list.ID}, mails
}

// TestSubscriberConfirmation: a verified member of the account is
// confirmed at once; anyone else (an unverified member, an outsider) is
// pending with a confirmation mail queued, confirms by the signed link, and
// adding a confirmed subscriber again changes nothing.
func TestSubscriberConfirmation(t *testing.T) {
	t.Parallel()
	svc, st, clk, caller, lr, mails := setup(t)
	ctx := context.Background()
	ref := accounts.AccountRef{ID: st.acc.ID}
	got, err := svc.AddSubscribers(ctx, caller, ref, lr, []string{"Ann@Acme.test", "bob@acme.test", "carol@example.test", "carol@example.test"})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, s := range got {
		status[s.Email] = s.Status
	}
	if len(got) != 3 || status["ann@acme.test"] != alerts.SubscriberConfirmed || status["bob@acme.test"] != alerts.SubscriberPending ||
		status["carol@example.test"] != alerts.SubscriberPending {
		t.Fatalf("subscribers %v", status)
	}
	if len(st.outbox) != 2 {
		t.Fatalf("%d confirmation mails queued, want 2", len(st.outbox))
	}
	for _, m := range st.outbox {
		if m.Kind != outbox.KindSubscriberConfirm {
			t.Fatalf("queued %s", m.Kind)
		}
	}
	var carol alerts.Subscriber
	for _, s := range got {
		if s.Email == "carol@example.test" {
			carol = s
		}
	}

	// A forged link and one for another purpose are refused.
	if _, err := svc.ConfirmSubscriber(ctx, "forged"); err == nil {
		t.Fatal("a forged link confirmed")
	}
	// The link of the confirmation mail confirms; twice is fine.
	confirm := outbox.SubscriberConfirm{EventID: uuid.New(), SubscriberID: carol.ID}
	for range 2 { // a retried job mails once
		if err := svc.SendConfirmation(ctx, confirm); err != nil {
			t.Fatal(err)
		}
	}
	if ms := mails.sent; len(ms) != 1 || ms[0].To != "carol@example.test" {
		t.Fatalf("mails %+v", ms)
	}
	tok := signerOf(t).Sign(alerts.PurposeConfirm, carol.ID.String(), clk.now.Add(alerts.ConfirmTTL))
	if _, err := svc.ConfirmSubscriber(ctx, signerOf(t).Sign(alerts.PurposeUnsubscribe, carol.ID.String(), clk.now.Add(time.Hour))); err == nil {
		t.Fatal("an unsubscribe link confirmed")
	}
	for range 2 {
		target, err := svc.ConfirmSubscriber(ctx, tok)
		if err != nil || target.Subscriber.Status != alerts.SubscriberConfirmed || target.ListName != "Critical" {
			t.Fatalf("confirm: %+v, %v", target, err)
		}
	}
	// An expired link is refused.
	clk.now = clk.now.Add(alerts.ConfirmTTL + time.Second)
	if _, err := svc.PeekLink(ctx, alerts.PurposeConfirm, tok); err == nil {
		t.Fatal("an expired link was accepted")
	}

	// Adding a confirmed subscriber again leaves it confirmed, queues nothing.
	before := len(st.outbox)
	again, err := svc.AddSubscribers(ctx, caller, ref, lr, []string{"carol@example.test"})
	if err != nil || again[0].Status != alerts.SubscriberConfirmed || len(st.outbox) != before {
		t.Fatalf("again: %+v, %v, %d queued", again, err, len(st.outbox)-before)
	}

	// The list shows who is a member of the account.
	_, ss, err := svc.Subscribers(ctx, caller, ref, lr)
	if err != nil || len(ss) != 3 || !ss[0].IsMember || ss[2].IsMember {
		t.Fatalf("subscribers %+v, %v", ss, err)
	}
}

func signerOf(t *testing.T) *signedlink.Signer {
	s, err := signedlink.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSubscriberLimitsAndRemoval(t *testing.T) {
	t.Parallel()
	svc, st, clk, caller, lr, _ := setup(t)
	ctx := context.Background()
	ref := accounts.AccountRef{ID: st.acc.ID}
	if _, err := svc.AddSubscribers(ctx, caller, ref, lr, nil); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("no address: %v", err)
	}
	many := make([]string, 501)
	for i := range many {
		many[i] = uuid.NewString() + "@example.test"
	}
	if _, err := svc.AddSubscribers(ctx, caller, ref, lr, many); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("501 addresses: %v", err)
	}
	if _, err := svc.AddSubscribers(ctx, caller, ref, lr, []string{"dan@example.test"}); err != nil {
		t.Fatal(err)
	}
	// Removing is all or nothing.
	if _, err := svc.RemoveSubscribers(ctx, caller, ref, lr, []string{"dan@example.test", "eve@example.test"}); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("remove with an unknown address: %v", err)
	}
	if len(st.subs) != 1 {
		t.Fatal("a failed removal removed someone")
	}
	// The unsubscribe link removes; again is success.
	var dan alerts.Subscriber
	for _, s := range st.subs {
		dan = s
	}
	tok := signerOf(t).Sign(alerts.PurposeUnsubscribe, dan.ID.String(), clk.now.Add(time.Hour))
	for range 2 {
		if _, err := svc.Unsubscribe(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	if len(st.subs) != 0 {
		t.Fatal("unsubscribe removed nothing")
	}
	if _, err := svc.RemoveSubscribers(ctx, caller, ref, lr, []string{"not an address"}); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("remove a bad address: %v", err)
	}
	// An outsider is forbidden.
	if _, err := svc.AddSubscribers(ctx, accounts.Actor{UserID: uuid.New()}, ref, lr, []string{"x@example.test"}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("outsider: %v", err)
	}
}

// TestIncidentFanOut: a live incident makes one alert per confirmed
// subscriber of a list with alerts on; a backfilled one none; an alert
// whose list turned alerts off since is not mailed.
func TestIncidentFanOut(t *testing.T) {
	t.Parallel()
	svc, st, _, caller, lr, mails := setup(t)
	ctx := context.Background()
	st.vendor, st.alertsOn = vendors.Vendor{ID: uuid.New(), Name: "Slack"}, true
	live := vendors.Incident{ID: uuid.New(), VendorID: st.vendor.ID, Title: "Breach"}
	old := vendors.Incident{ID: uuid.New(), VendorID: st.vendor.ID, Title: "Old", Backfilled: true}
	st.incidents = []vendors.Incident{live, old}
	if _, err := svc.AddSubscribers(ctx, caller, accounts.AccountRef{ID: st.acc.ID}, lr, []string{"ann@acme.test", "pending@example.test"}); err != nil {
		t.Fatal(err)
	}
	st.outbox = nil
	for _, id := range []uuid.UUID{old.ID, uuid.New(), live.ID} {
		if err := svc.FanOut(ctx, outbox.IncidentFanout{IncidentID: id}); err != nil {
			t.Fatal(err)
		}
	}
	if len(st.outbox) != 1 || st.outbox[0].Kind != outbox.KindAlertMail {
		t.Fatalf("fan-out queued %+v", st.outbox)
	}
	p, ok := st.outbox[0].Payload.(outbox.AlertMail)
	if !ok {
		t.Fatalf("payload is %T", st.outbox[0].Payload)
	}
	if p.AccountName != "Acme" || p.VendorName != "Slack" || p.ListName != "Critical" {
		t.Fatalf("alert %+v", p)
	}
	st.alertsOn = false
	if err := svc.SendAlert(ctx, p); err != nil || len(mails.sent) != 0 {
		t.Fatalf("alerts off since: %v, %d sent", err, len(mails.sent))
	}
	st.alertsOn = true
	for range 2 {
		if err := svc.SendAlert(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if len(mails.sent) != 1 || mails.sent[0].To != "ann@acme.test" || mails.sent[0].Key != alerts.AlertKey(live.ID, p.SubscriberID) {
		t.Fatalf("sent %+v", mails.sent)
	}
	p.SubscriberID = uuid.New() // unsubscribed since
	if err := svc.SendAlert(ctx, p); err != nil {
		t.Fatal(err)
	}
}
