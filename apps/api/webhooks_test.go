package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/relay"
	"github.com/vetted-dev/vetted/ports/stores"
)

// hit is one request a test receiver got.
type hit struct {
	id, typ  string
	verified bool
	body     map[string]any
}

// receiver is a webhook receiver on loopback that verifies each request's
// signature with the Standard Webhooks library and its Webhook-Timestamp
// against the test's clock (now), within the library's tolerance, as a
// real receiver checks it against its own; it answers fail(n) for the n-th
// request (from 1), 204 when fail is nil.
type receiver struct {
	now    func() time.Time
	srv    *httptest.Server
	mu     sync.Mutex
	secret string
	hits   []hit
	fail   func(n int) int
}

func newReceiver(t *testing.T, now func() time.Time, fail func(n int) int) *receiver {
	r := &receiver{now: now, fail: fail}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		h := hit{id: req.Header.Get("webhook-id")}
		if wh, err := standardwebhooks.NewWebhook(r.secret); err == nil {
			h.verified = wh.VerifyIgnoringTimestamp(body, req.Header) == nil && r.timely(req.Header.Get("webhook-timestamp"))
		}
		_ = json.Unmarshal(body, &h.body)
		h.typ, _ = h.body["type"].(string)
		r.hits = append(r.hits, h)
		n := len(r.hits)
		r.mu.Unlock()
		status := http.StatusNoContent
		if r.fail != nil {
			status = r.fail(n)
		}
		w.WriteHeader(status)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

// timely reports whether a Webhook-Timestamp (Unix seconds) is within
// the Standard Webhooks tolerance of five minutes of the test's clock.
func (r *receiver) timely(header string) bool {
	sec, err := strconv.ParseInt(header, 10, 64)
	if err != nil {
		return false
	}
	d := r.now().Sub(time.Unix(sec, 0))
	return d <= 5*time.Minute && d >= -5*time.Minute
}

func (r *receiver) got() []hit {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hit(nil), r.hits...)
}

// loopbackEnv is an app whose fetcher may reach loopback
// (VETTED_FETCH_ALLOW_PRIVATE), as the receivers of these tests are there.
func loopbackEnv(t *testing.T, opts ...apitest.Option) *apitest.Env {
	return apitest.New(t, append(opts, apitest.WithConfig(func(c *app.Config) { c.FetchAllowPrivate = true }))...)
}

// createHook registers an endpoint and returns its id and secret.
func createHook(t *testing.T, env *apitest.Env, tok, acct, u string, events ...string) (string, string) {
	t.Helper()
	m := apitest.Must(t, env.Do(t, "POST", q("/webhooks", "account-id", acct), tok, map[string]any{"url": u, "events": events}), 201).Map(t)
	return m["id"].(string), m["secret"].(string)
}

// runDue relays the outbox and runs its jobs, moving the clock on by step
// whenever nothing is due, until nothing is pending (retries due hours
// later included) or maxSteps steps have passed.
func runDue(t *testing.T, env *apitest.Env, step time.Duration, maxSteps int) {
	t.Helper()
	ctx := t.Context()
	for i := 0; ; i++ {
		n, err := env.App.Relay.RunOnce(ctx)
		if err != nil {
			t.Fatalf("relay: %v", err)
		}
		if err := env.App.Jobs.Wait(ctx); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			continue
		}
		if env.Pending(t) == 0 {
			return
		}
		if i >= maxSteps {
			t.Fatalf("%d outbox messages still pending after %d steps", env.Pending(t), i)
		}
		env.Clock.Advance(step)
	}
}

type deliveriesPage struct {
	Total      int `json:"total"`
	Deliveries []struct {
		MessageID   string     `json:"message_id"`
		EventType   string     `json:"event_type"`
		Attempt     int        `json:"attempt"`
		OK          bool       `json:"ok"`
		StatusCode  int        `json:"status_code"`
		DurationMS  float64    `json:"duration_ms"`
		Error       string     `json:"error"`
		NextRetryAt *time.Time `json:"next_retry_at"`
	} `json:"deliveries"`
}

func deliveries(t *testing.T, env *apitest.Env, tok, acct, hook string) deliveriesPage {
	t.Helper()
	var p deliveriesPage
	apitest.Must(t, env.Do(t, "GET", q("/webhooks/deliveries", "account-id", acct, "webhook-id", hook), tok, nil), 200).JSON(t, &p)
	return p
}

func TestWebhookSignedEventsAndSecretShownOnce(t *testing.T) {
	t.Parallel()
	env := loopbackEnv(t)
	rcv := newReceiver(t, env.Clock.Now, nil)
	acct := env.NewAccount(t, "Hooked", "owner@hook.test")
	tok := env.Token("owner@hook.test", apitest.Verified())
	id, secret := createHook(t, env, tok, acct, rcv.srv.URL+"/in", "list.vendors_changed", "incident.created")
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q", secret)
	}
	rcv.mu.Lock()
	rcv.secret = secret
	rcv.mu.Unlock()
	// The list and the member's reads never show the secret again.
	list := apitest.Must(t, env.Do(t, "GET", q("/webhooks", "account-id", acct), tok, nil), 200)
	if strings.Contains(list.String(), secret) || strings.Contains(list.String(), `"secret"`) {
		t.Fatalf("list shows the secret: %s", list)
	}
	var l struct {
		Webhooks []struct {
			ID, Status string
			Events     []string
		}
	}
	list.JSON(t, &l)
	if len(l.Webhooks) != 1 || l.Webhooks[0].ID != id || l.Webhooks[0].Status != "active" || len(l.Webhooks[0].Events) != 2 {
		t.Fatalf("list = %+v", l)
	}

	start := time.Now()
	env.SaveVendors(t, tok, acct, "Hooked Supplier")
	env.Drain(t)
	apitest.Must(t, env.Do(t, "POST", "/vendor/"+url.PathEscape("Hooked Supplier")+"/incidents", env.Token("ops@platform.test", apitest.Admin(), apitest.Verified()),
		map[string]any{"title": "Breach at the supplier", "severity": "high"}), 201)
	env.Drain(t)
	t.Logf("2 events delivered on loopback in %v (enqueue to receipt, jobs included)", time.Since(start).Round(time.Millisecond))
	hits := rcv.got()
	if len(hits) != 2 {
		t.Fatalf("receiver got %d requests, want 2: %+v", len(hits), hits)
	}
	for _, h := range hits {
		if !h.verified || !strings.HasPrefix(h.id, "msg_") {
			t.Fatalf("request %+v: not verified by the library", h)
		}
	}
	if hits[0].typ != "list.vendors_changed" || hits[1].typ != "incident.created" {
		t.Fatalf("types %q, %q", hits[0].typ, hits[1].typ)
	}
	data := hits[0].body["data"].(map[string]any)
	if data["list_name"] != "master-list" || len(data["added"].([]any)) != 1 || hits[0].body["timestamp"] == nil {
		t.Fatalf("list event body %v", hits[0].body)
	}
	inc := hits[1].body["data"].(map[string]any)
	if inc["title"] != "Breach at the supplier" || inc["vendor"].(map[string]any)["name"] != "Hooked Supplier" {
		t.Fatalf("incident event body %v", hits[1].body)
	}
	p := deliveries(t, env, tok, acct, id)
	if p.Total != 2 || !p.Deliveries[0].OK || p.Deliveries[0].StatusCode != 204 || p.Deliveries[0].NextRetryAt != nil ||
		p.Deliveries[0].EventType != "incident.created" || p.Deliveries[0].MessageID != hits[1].id {
		t.Fatalf("deliveries = %+v", p)
	}
	t.Logf("time per delivery on loopback: %.2f ms and %.2f ms", p.Deliveries[1].DurationMS, p.Deliveries[0].DurationMS)

	// An event the endpoint did not ask for is not sent; deleting the
	// endpoint stops everything.
	apitest.Must(t, env.Do(t, "DELETE", q("/webhooks", "account-id", acct, "webhook-id", id), tok, nil), 204)
	env.SaveVendors(t, tok, acct, "Hooked Supplier", "Second Supplier")
	env.Drain(t)
	if n := len(rcv.got()); n != 2 {
		t.Fatalf("%d requests after the endpoint was deleted", n)
	}
	apitest.Must(t, env.Do(t, "GET", q("/webhooks/deliveries", "account-id", acct, "webhook-id", id), tok, nil), 404)
}

func TestWebhookRetriesKeepTheWebhookID(t *testing.T) {
	t.Parallel()
	env := loopbackEnv(t)
	rcv := newReceiver(t, env.Clock.Now, func(n int) int {
		if n <= 3 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	acct := env.NewAccount(t, "Flaky", "owner@flaky.test")
	tok := env.Token("owner@flaky.test", apitest.Verified())
	id, secret := createHook(t, env, tok, acct, rcv.srv.URL, "list.vendors_changed")
	rcv.mu.Lock()
	rcv.secret = secret
	rcv.mu.Unlock()
	ping := apitest.Must(t, env.Do(t, "POST", q("/webhooks/test", "account-id", acct, "webhook-id", id), tok, nil), 202).Map(t)
	runDue(t, env, time.Minute, 200)
	hits := rcv.got()
	if len(hits) != 4 {
		t.Fatalf("receiver got %d requests, want 4", len(hits))
	}
	for _, h := range hits {
		if h.id != ping["message_id"] || !h.verified || h.typ != "webhook.ping" {
			t.Fatalf("request %+v, want webhook-id %v, signed", h, ping["message_id"])
		}
	}
	p := deliveries(t, env, tok, acct, id)
	if p.Total != 4 {
		t.Fatalf("deliveries = %+v", p)
	}
	for i, d := range p.Deliveries { // newest first
		if d.Attempt != 4-i || d.MessageID != ping["message_id"] {
			t.Fatalf("attempt %d = %+v", i, d)
		}
		if i == 0 && (!d.OK || d.StatusCode != 200 || d.NextRetryAt != nil) {
			t.Fatalf("last attempt %+v", d)
		}
		if i > 0 && (d.OK || d.StatusCode != 503 || d.NextRetryAt == nil || d.Error == "") {
			t.Fatalf("failed attempt %+v", d)
		}
	}
	t.Logf("4 attempts, 3 retries, the same webhook-id; durations %.2f %.2f %.2f %.2f ms",
		p.Deliveries[3].DurationMS, p.Deliveries[2].DurationMS, p.Deliveries[1].DurationMS, p.Deliveries[0].DurationMS)
}

func TestWebhookDisabledAfterADayOfFailures(t *testing.T) {
	t.Parallel()
	env := loopbackEnv(t)
	rcv := newReceiver(t, env.Clock.Now, func(int) int { return http.StatusInternalServerError })
	acct := env.NewAccount(t, "Down", "owner@down.test", "admin@down.test")
	env.AddMember(t, acct, env.Token("owner@down.test", apitest.Verified()), "viewer@down.test", "viewer")
	tok := env.Token("owner@down.test", apitest.Verified())
	id, _ := createHook(t, env, tok, acct, rcv.srv.URL, "list.vendors_changed")
	env.SaveVendors(t, tok, acct, "Down Supplier")
	runDue(t, env, 10*time.Minute, 24*6+10)
	p := deliveries(t, env, tok, acct, id)
	// 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then the last try when the 24
	// hours are over: eight attempts.
	if p.Total != 8 || len(rcv.got()) != 8 || p.Deliveries[0].NextRetryAt != nil || p.Deliveries[1].NextRetryAt == nil {
		t.Fatalf("%d requests, deliveries %+v", len(rcv.got()), p)
	}
	var l struct {
		Webhooks []struct{ Status string }
	}
	apitest.Must(t, env.Do(t, "GET", q("/webhooks", "account-id", acct), tok, nil), 200).JSON(t, &l)
	if len(l.Webhooks) != 1 || l.Webhooks[0].Status != "disabled" {
		t.Fatalf("endpoint %+v, want disabled", l)
	}
	mails := env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.Contains(m.Subject, "Webhook endpoint disabled") })
	var to []string
	for _, m := range mails {
		to = append(to, m.To)
	}
	if len(mails) != 2 || !strings.Contains(strings.Join(to, ","), "owner@down.test") || !strings.Contains(strings.Join(to, ","), "admin@down.test") {
		t.Fatalf("disabled mails to %v, want the owner and the admin", to)
	}
	// A disabled endpoint gets no new events.
	env.SaveVendors(t, tok, acct, "Down Supplier", "Another")
	runDue(t, env, time.Minute, 10)
	if n := len(rcv.got()); n != 8 {
		t.Fatalf("%d requests after the endpoint was disabled", n)
	}
}

func TestWebhookRolesAndValidation(t *testing.T) {
	t.Parallel()
	env := apitest.New(t) // private addresses not allowed
	acct := env.NewAccount(t, "Strict", "owner@strict.test", "admin@strict.test")
	owner := env.Token("owner@strict.test", apitest.Verified())
	env.AddMember(t, acct, owner, "member@strict.test", "member")
	env.AddMember(t, acct, owner, "viewer@strict.test", "viewer")
	body := map[string]any{"url": "https://hooks.invalid/x", "events": []string{"review.overdue"}}
	for _, who := range []string{"viewer", "member"} {
		tok := env.Token(who+"@strict.test", apitest.Verified())
		apitest.Must(t, env.Do(t, "POST", q("/webhooks", "account-id", acct), tok, body), 403)
	}
	admin := env.Token("admin@strict.test", apitest.Verified())
	id, _ := createHook(t, env, admin, acct, "https://hooks.invalid/x", "review.overdue")
	for _, who := range []string{"viewer", "member"} {
		tok := env.Token(who+"@strict.test", apitest.Verified())
		apitest.Must(t, env.Do(t, "POST", q("/webhooks/test", "account-id", acct, "webhook-id", id), tok, nil), 403)
		apitest.Must(t, env.Do(t, "DELETE", q("/webhooks", "account-id", acct, "webhook-id", id), tok, nil), 403)
		list := apitest.Must(t, env.Do(t, "GET", q("/webhooks", "account-id", acct), tok, nil), 200)
		if strings.Contains(list.String(), "whsec_") {
			t.Fatalf("%s sees a secret: %s", who, list)
		}
		apitest.Must(t, env.Do(t, "GET", q("/webhooks/deliveries", "account-id", acct, "webhook-id", id), tok, nil), 200)
	}
	for _, c := range []struct{ url, field, says string }{
		{"https://169.254.169.254/latest/meta-data", "body.url", "metadata"},
		{"http://127.0.0.1:8080/hook", "body.url", "https"},
		{"https://127.0.0.1/hook", "body.url", "loopback"},
		{"https://10.0.0.8/hook", "body.url", "private"},
		{"https://hooks.example.com:8443/x", "body.url", "port"},
		{"", "body.url", "required"},
	} {
		r := apitest.Must(t, env.Do(t, "POST", q("/webhooks", "account-id", acct), admin, map[string]any{"url": c.url, "events": []string{"incident.created"}}), 422)
		if !strings.Contains(r.String(), c.field) || !strings.Contains(strings.ToLower(r.String()), c.says) {
			t.Errorf("%q: %s, want %s naming %q", c.url, r, c.field, c.says)
		}
	}
	r := apitest.Must(t, env.Do(t, "POST", q("/webhooks", "account-id", acct), admin, map[string]any{"url": "https://h.example", "events": []string{"vendor.deleted"}}), 422)
	if !strings.Contains(r.String(), "body.events") {
		t.Fatalf("unknown event: %s", r)
	}
}

// TestWebhookRedirectIsNotFollowed: a receiver that redirects to another
// one on loopback fails the attempt; the target is never called.
func TestWebhookRedirectIsNotFollowed(t *testing.T) {
	t.Parallel()
	env := loopbackEnv(t)
	target := newReceiver(t, env.Clock.Now, nil)
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.srv.URL, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirect.Close)
	acct := env.NewAccount(t, "Redirected", "owner@redir.test")
	tok := env.Token("owner@redir.test", apitest.Verified())
	id, _ := createHook(t, env, tok, acct, redirect.URL, "incident.created")
	apitest.Must(t, env.Do(t, "POST", q("/webhooks/test", "account-id", acct, "webhook-id", id), tok, nil), 202)
	if _, err := env.App.Relay.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := env.App.Jobs.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	p := deliveries(t, env, tok, acct, id)
	if len(target.got()) != 0 || p.Total != 1 || p.Deliveries[0].OK || p.Deliveries[0].StatusCode != http.StatusTemporaryRedirect {
		t.Fatalf("target got %d, deliveries %+v", len(target.got()), p)
	}
}

// downQueue is a job queue that is down.
type downQueue struct{}

func (downQueue) Enqueue(context.Context, outbox.Message) error {
	return errors.New("queue unreachable")
}

// TestWebhookEventSurvivesAQueueOutage: while the queue cannot take jobs the
// event stays in the outbox, and is delivered once it can.
func TestWebhookEventSurvivesAQueueOutage(t *testing.T) {
	t.Parallel()
	env := loopbackEnv(t)
	rcv := newReceiver(t, env.Clock.Now, nil)
	acct := env.NewAccount(t, "Outage", "owner@outage.test")
	tok := env.Token("owner@outage.test", apitest.Verified())
	createHook(t, env, tok, acct, rcv.srv.URL, "list.vendors_changed")
	env.Drain(t)
	// A relay in front of a queue that is down, before the app's relay runs.
	down, err := relay.New(env.Store, downQueue{}, env.Clock, relay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	env.SaveVendors(t, tok, acct, "Outage Supplier")
	for range 3 {
		if _, err := down.RunOnce(t.Context()); err == nil {
			t.Fatal("a relay to a queue that is down succeeded")
		}
		env.Clock.Advance(time.Minute)
	}
	if !pendingKind(t, env, outbox.KindWebhookEvent) {
		t.Fatal("the webhook event is not in the outbox")
	}
	if len(rcv.got()) != 0 {
		t.Fatal("delivered while the queue was down")
	}
	env.Drain(t)
	if n := len(rcv.got()); n != 1 {
		t.Fatalf("receiver got %d requests after the queue came back, want 1", n)
	}
}

// pendingKind reports whether a message of kind waits in the outbox; it
// claims in a unit of work it rolls back, so nothing is marked.
func pendingKind(t *testing.T, env *apitest.Env, kind outbox.Kind) bool {
	t.Helper()
	found := false
	errLook := errors.New("only looking")
	err := env.Store.InTx(t.Context(), func(ctx context.Context, tx stores.Tx) error {
		ms, err := tx.Outbox().Claim(ctx, 1000, env.Clock.Now().Add(time.Hour))
		if err != nil {
			return err
		}
		for _, m := range ms {
			found = found || m.Kind == kind
		}
		return errLook
	})
	if !errors.Is(err, errLook) {
		t.Fatal(err)
	}
	return found
}

// TestWebhookAssessmentAndReviewEvents: a status change is told once; a
// review entering a reminder window is told once per window however often
// the reminder job runs, due_soon before the due date and overdue after it.
func TestWebhookAssessmentAndReviewEvents(t *testing.T) {
	t.Parallel()
	env := loopbackEnv(t)
	rcv := newReceiver(t, env.Clock.Now, nil)
	acct := env.NewAccount(t, "Reviewing", "owner@rev.test")
	tok := env.Token("owner@rev.test", apitest.Verified())
	saved := env.SaveVendors(t, tok, acct, "Slack")
	master := saved["list"].(map[string]any)["id"].(string)
	_, secret := createHook(t, env, tok, acct, rcv.srv.URL, "assessment.status_changed", "review.due_soon", "review.overdue")
	rcv.mu.Lock()
	rcv.secret = secret
	rcv.mu.Unlock()
	path := q("/vendor-assessments", "account-id", acct, "vendor-list-id", master)
	apitest.Must(t, env.Do(t, "POST", path, tok, map[string]any{"vendor_name": "Slack", "tier": "high",
		"compliance_approval_status": "approved", "sponsor_contact": "s@vendor.test"}), 201)
	apitest.Must(t, env.Do(t, "POST", path, tok, map[string]any{"vendor_name": "Slack", "sponsor_contact": "t@vendor.test"}), 200)
	env.Drain(t)
	hits := rcv.got()
	if len(hits) != 1 || hits[0].typ != "assessment.status_changed" || !hits[0].verified {
		t.Fatalf("after the upserts: %+v", hits)
	}
	data := hits[0].body["data"].(map[string]any)
	if data["old_status"] != "not-started" || data["new_status"] != "approved" || data["list_name"] != "master-list" {
		t.Fatalf("status event data %v", data)
	}
	// High: due a year after the approval (2027-11-22 unshifted).
	for _, c := range []struct {
		day   time.Time
		typ   string
		total int
	}{{env.Clock.Date(1, 0, -21), "review.due_soon", 2}, {env.Clock.Date(1, 0, -20), "", 2}, {env.Clock.Date(1, 0, 8), "review.overdue", 3}} {
		env.Clock.Advance(c.day.Sub(env.Clock.Now()))
		for range 2 {
			if err := env.Svc.Handle(t.Context(), outbox.KindReviewReminders, nil); err != nil {
				t.Fatal(err)
			}
		}
		env.Drain(t)
		hits = rcv.got()
		if len(hits) != c.total || (c.typ != "" && hits[len(hits)-1].typ != c.typ) {
			t.Fatalf("on %s: %d requests (%+v), want %d ending with %s", c.day.Format(time.DateOnly), len(hits), hits, c.total, c.typ)
		}
	}
	last := hits[len(hits)-1].body["data"].(map[string]any)
	if last["due_date"] != env.Clock.Date(1, 0, 0).Format(time.DateOnly) || last["days_left"].(float64) >= 0 {
		t.Fatalf("overdue data %v", last)
	}
}
