package alerts_test

import (
	"context"
	"errors"
	"strings"
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
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

type mailer struct{ sent []mailtmpl.Mail }

func (m *mailer) Send(_ context.Context, ml mailtmpl.Mail) error {
	m.sent = append(m.sent, ml)
	return nil
}

// fixture is one organization on the memory store with one list,
// Critical, a verified member (Ann, who acts) and an unverified viewer
// (Bob), and the alert service on it.
type fixture struct {
	svc    *alerts.Service
	st     *memstore.Store
	clk    *clock
	mails  *mailer
	caller accounts.Actor
	acc    accounts.Account
	ref    accounts.AccountRef
	list   lists.List
	lr     lists.ListRef
	t      *testing.T
}

func setup(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{st: memstore.New(), clk: &clock{now: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}, mails: &mailer{}, t: t,
		caller: accounts.Actor{UserID: uuid.New(), Email: "ann@acme.test", Verified: true}}
	f.acc = accounts.Account{ID: uuid.New(), Name: "Acme", Active: true}
	f.ref = accounts.AccountRef{ID: f.acc.ID}
	f.list = lists.List{ID: uuid.New(), AccountID: f.acc.ID, Name: "Critical"}
	f.lr = lists.ListRef{ID: f.list.ID}
	bob := accounts.User{ID: uuid.New(), Email: "bob@acme.test"}
	f.write(func(ctx context.Context, tx alerts.Tx) error {
		if err := tx.Accounts().Create(ctx, f.acc); err != nil {
			return err
		}
		for _, u := range []accounts.User{{ID: f.caller.UserID, Email: f.caller.Email, EmailVerified: true}, bob} {
			if err := tx.Users().Save(ctx, u); err != nil {
				return err
			}
		}
		if err := tx.Members().Put(ctx, []accounts.Member{{AccountID: f.acc.ID, UserID: f.caller.UserID, Role: accounts.RoleMember},
			{AccountID: f.acc.ID, UserID: bob.ID, Role: accounts.RoleViewer}}); err != nil {
			return err
		}
		return tx.Lists().Create(ctx, f.list)
	})
	var err error
	f.svc, err = alerts.NewService(alerts.Deps{Unit: uow.Unit[alerts.Tx]{Store: ports.Narrow[alerts.Tx](f.st), Clock: f.clk, IDs: ports.UUIDv7{}},
		Mail: mailonce.Mail[alerts.Tx]{Store: ports.Narrow[alerts.Tx](f.st), Clock: f.clk, Mailer: f.mails}, Signer: signerOf(t), PublicURL: "https://vetted.test"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// write runs fn in a unit of work on the store; read in a read-only one.
func (f *fixture) write(fn func(context.Context, alerts.Tx) error) {
	f.t.Helper()
	if err := ports.Narrow[alerts.Tx](f.st).InTx(f.t.Context(), fn); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(fn func(context.Context, alerts.Tx) error) {
	f.t.Helper()
	if err := ports.Narrow[alerts.Tx](f.st).View(f.t.Context(), fn); err != nil {
		f.t.Fatal(err)
	}
}

// outbox returns what the units of work queued since clearOutbox.
func (f *fixture) outbox() []outbox.Message { return f.st.Undelivered() }

// clearOutbox marks every queued message delivered.
func (f *fixture) clearOutbox() {
	f.t.Helper()
	var ids []uuid.UUID
	for _, m := range f.outbox() {
		ids = append(ids, m.ID)
	}
	f.write(func(ctx context.Context, tx alerts.Tx) error { return tx.Outbox().MarkDelivered(ctx, ids, f.clk.now) })
}

// subscribers returns the list's subscribers.
func (f *fixture) subscribers() (ss []alerts.Subscriber) {
	f.t.Helper()
	f.read(func(ctx context.Context, tx alerts.Tx) (err error) {
		ss, err = tx.Subscribers().List(ctx, f.list.ID)
		return err
	})
	return ss
}

// onList puts a new vendor named name on the list, with alerts on.
func (f *fixture) onList(name vendors.Name) vendors.Vendor {
	f.t.Helper()
	v := vendors.Vendor{ID: uuid.New(), Name: name}
	f.write(func(ctx context.Context, tx alerts.Tx) error {
		if _, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{v}); err != nil {
			return err
		}
		return tx.Lists().AddEntries(ctx, f.list.ID, []uuid.UUID{v.ID}, f.clk.now)
	})
	return v
}

// alertsOn turns the list's alerts for the vendor on or off.
func (f *fixture) alertsOn(v vendors.Vendor, on bool) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx alerts.Tx) error { return tx.Lists().SetAlerts(ctx, f.list.ID, v.ID, on) })
}

// TestSubscriberConfirmation: a verified member of the account is
// confirmed at once; anyone else (an unverified member, an outsider) is
// pending with a confirmation mail queued, confirms by the signed link, and
// adding a confirmed subscriber again changes nothing.
func TestSubscriberConfirmation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	svc, clk, caller, lr, mails, ref := f.svc, f.clk, f.caller, f.lr, f.mails, f.ref
	ctx := context.Background()
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
	if len(f.outbox()) != 2 {
		t.Fatalf("%d confirmation mails queued, want 2", len(f.outbox()))
	}
	for _, m := range f.outbox() {
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
	before := len(f.outbox())
	again, err := svc.AddSubscribers(ctx, caller, ref, lr, []string{"carol@example.test"})
	if err != nil || again[0].Status != alerts.SubscriberConfirmed || len(f.outbox()) != before {
		t.Fatalf("again: %+v, %v, %d queued", again, err, len(f.outbox())-before)
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
	f := setup(t)
	svc, clk, caller, lr, ref := f.svc, f.clk, f.caller, f.lr, f.ref
	ctx := context.Background()
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
	if len(f.subscribers()) != 1 {
		t.Fatal("a failed removal removed someone")
	}
	// The unsubscribe link removes; again is success.
	dan := f.subscribers()[0]
	tok := signerOf(t).Sign(alerts.PurposeUnsubscribe, dan.ID.String(), clk.now.Add(time.Hour))
	for range 2 {
		if _, err := svc.Unsubscribe(ctx, tok); err != nil {
			t.Fatal(err)
		}
	}
	if len(f.subscribers()) != 0 {
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
	f := setup(t)
	svc, caller, lr, mails := f.svc, f.caller, f.lr, f.mails
	ctx := context.Background()
	slack := f.onList("Slack")
	live := vendors.Incident{ID: uuid.New(), VendorID: slack.ID, Title: "Breach", ExternalID: "breach"}
	old := vendors.Incident{ID: uuid.New(), VendorID: slack.ID, Title: "Old", ExternalID: "old", Backfilled: true}
	f.write(func(ctx context.Context, tx alerts.Tx) error {
		if err := tx.Incidents().Create(ctx, live); err != nil {
			return err
		}
		return tx.Incidents().Create(ctx, old)
	})
	if _, err := svc.AddSubscribers(ctx, caller, f.ref, lr, []string{"ann@acme.test", "pending@example.test"}); err != nil {
		t.Fatal(err)
	}
	f.clearOutbox()
	for _, id := range []uuid.UUID{old.ID, uuid.New(), live.ID} {
		if err := svc.FanOut(ctx, outbox.IncidentFanout{IncidentID: id}); err != nil {
			t.Fatal(err)
		}
	}
	queued := f.outbox()
	if len(queued) != 1 || queued[0].Kind != outbox.KindAlertMail {
		t.Fatalf("fan-out queued %+v", queued)
	}
	p, ok := queued[0].Payload.(outbox.AlertMail)
	if !ok {
		t.Fatalf("payload is %T", queued[0].Payload)
	}
	if p.AccountName != "Acme" || p.VendorName != "Slack" || p.ListName != "Critical" {
		t.Fatalf("alert %+v", p)
	}
	f.alertsOn(slack, false)
	if err := svc.SendAlert(ctx, p); err != nil || len(mails.sent) != 0 {
		t.Fatalf("alerts off since: %v, %d sent", err, len(mails.sent))
	}
	f.alertsOn(slack, true)
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

// TestIncidentAlertCarriesTheEvidence: the alert of a matched incident
// says why the vendor was matched, lists the merged sources, and for an
// affected product whether the subscriber's list records it.
func TestIncidentAlertCarriesTheEvidence(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := context.Background()
	ivanti := f.onList("Ivanti")
	at := f.clk.now.Add(-time.Hour)
	if _, err := f.svc.AddSubscribers(ctx, f.caller, f.ref, f.lr, []string{"ann@acme.test"}); err != nil {
		t.Fatal(err)
	}
	alert := func(cve string) mailtmpl.Mail {
		t.Helper()
		in := vendors.Incident{ID: uuid.New(), VendorID: ivanti.ID, Title: cve + ": overflow", ExternalID: cve, Source: "kev",
			URL: "https://nvd.test/" + cve, AffectedService: "Connect Secure", PublishedAt: at,
			Match:   &vendors.IncidentMatch{Rule: "kev_vendor_project", MatchedText: `vendorProject "Ivanti"`, Confidence: 0.95},
			Sources: []vendors.IncidentItem{{Source: "news", URL: "https://news.test/ivanti", PublishedAt: at}, {Source: "kev", URL: "https://nvd.test/" + cve, PublishedAt: at}}}
		f.write(func(ctx context.Context, tx alerts.Tx) error { return tx.Incidents().Create(ctx, in) })
		f.clearOutbox()
		if err := f.svc.FanOut(ctx, outbox.IncidentFanout{IncidentID: in.ID}); err != nil {
			t.Fatal(err)
		}
		f.mails.sent = nil
		if err := f.svc.SendAlert(ctx, f.outbox()[0].Payload.(outbox.AlertMail)); err != nil || len(f.mails.sent) != 1 {
			t.Fatalf("send: %v, %d sent", err, len(f.mails.sent))
		}
		return f.mails.sent[0]
	}
	m := alert("CVE-2025-1")
	for _, want := range []string{`Why this vendor: kev_vendor_project: vendorProject "Ivanti" (confidence 0.95)`,
		"Affected product: Connect Secure (not recorded on this list)", "- https://news.test/ivanti", "- https://nvd.test/CVE-2025-1"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("mail text lacks %q:\n%s", want, m.Text)
		}
	}
	f.write(func(ctx context.Context, tx alerts.Tx) error {
		pr, err := lists.NewProduct(uuid.New(), f.list.ID, ivanti.ID, "Ivanti Connect Secure", f.clk.now)
		if err != nil {
			return err
		}
		return tx.Lists().AddProduct(ctx, pr)
	})
	if m := alert("CVE-2025-2"); !strings.Contains(m.Text, "Affected product: Connect Secure (recorded on this list)") || !strings.Contains(m.HTML, "(recorded on this list)") {
		t.Fatalf("with the product on the list:\n%s", m.Text)
	}
}
