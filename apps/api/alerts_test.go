package api_test

import (
	"context"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// alertsSent returns the recipients of the alert mails about a vendor,
// sorted, one entry per mail.
func alertsSent(env *apitest.Env, vendorName string) []string {
	var out []string
	for _, m := range env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.Contains(m.Subject, "Incident at "+vendorName) }) {
		out = append(out, m.To)
	}
	sort.Strings(out)
	return out
}

// recordIncident records a live (or backfilled) incident as a platform
// admin and returns its id.
func recordIncident(t *testing.T, o *org, vendorName, title string, backfilled bool) string {
	t.Helper()
	return apitest.Must(t, o.env.Do(t, "POST", "/vendor/"+url.PathEscape(vendorName)+"/incidents", o.admin,
		map[string]any{"title": title, "severity": "high", "backfilled": backfilled}), 201).Map(t)["id"].(string)
}

// replay runs an outbox job again, as a relay that handed it over twice would.
func replay(t *testing.T, env *apitest.Env, kind outbox.Kind, payload any) {
	t.Helper()
	if err := env.Svc.Handle(context.Background(), kind, payload); err != nil {
		t.Fatalf("replay %s: %v", kind, err)
	}
}

func sameList(a, b []string) bool { return strings.Join(a, ",") == strings.Join(b, ",") }

func TestIncidentAlertsEndToEnd(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	// Two lists carry Slack and Zoom; the second has alerts off for Slack.
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+o.acct+"&vendor-list=Second", o.owner, nil), 201)
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+o.acct+"&operation=save-vendors&vendor-list=Second", o.owner,
		map[string]any{"vendors": []string{"Slack", "Zoom"}}), 200)
	apitest.Must(t, env.Do(t, "PATCH", "/vendor-lists?account-id="+o.acct+"&operation=alerts-enabled&vendor-list=Second", o.owner,
		map[string]any{"vendor-id": o.vendor["Slack"], "alerts_enabled": false}), 200)

	subscribeConfirmed(t, o, "master-list", "owner@acme.test") // verified member: confirmed at once
	subscribeConfirmed(t, o, "master-list", "c1@ext.test")
	subscribeConfirmed(t, o, "master-list", "u1@ext.test")
	subscribe(t, o, "master-list", "p1@ext.test") // stays pending
	subscribeConfirmed(t, o, "Second", "c2@ext.test")
	env.Drain(t)
	env.Mail.Reset()

	// Zoom has alerts on in both lists: every confirmed subscriber, once.
	recordIncident(t, o, "Zoom", "Zoom outage", false)
	env.Drain(t)
	if got, want := alertsSent(env, "Zoom"), []string{"c1@ext.test", "c2@ext.test", "owner@acme.test", "u1@ext.test"}; !sameList(got, want) {
		t.Fatalf("Zoom alerts went to %v, want %v", got, want)
	}
	if n := len(env.Mail.Sent()); n != 4 {
		t.Fatalf("%d mails sent, want 4", n)
	}
	// u1 unsubscribes with its alert's one-click link.
	u1 := mailsTo(env, "u1@ext.test")[0]
	apitest.Must(t, sendRaw(t, env, "POST", linkIn(t, u1, unsubscribeLinkRe), map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
		strings.NewReader("List-Unsubscribe=One-Click")), 200)

	// Slack: alerts off on Second, u1 gone, p1 pending: owner and c1 only.
	slack := recordIncident(t, o, "Slack", "Slack breach", false)
	env.Drain(t)
	if got, want := alertsSent(env, "Slack"), []string{"c1@ext.test", "owner@acme.test"}; !sameList(got, want) {
		t.Fatalf("Slack alerts went to %v, want %v", got, want)
	}
	total := len(env.Mail.Sent())

	// Draining again, re-running the fan-out and re-sending one alert job
	// send nothing new.
	env.Drain(t)
	replay(t, env, outbox.KindIncidentFanout, outbox.IncidentFanout{IncidentID: uuid.MustParse(slack)})
	env.Drain(t)
	c1 := env.Mail.Find(func(m mailtmpl.Mail) bool { return m.To == "c1@ext.test" && strings.Contains(m.Subject, "Slack") })[0]
	sub := strings.TrimPrefix(c1.Key, "alert:"+slack+":")
	replay(t, env, outbox.KindAlertMail, outbox.AlertMail{IncidentID: uuid.MustParse(slack), SubscriberID: uuid.MustParse(sub)})
	env.Drain(t)
	if n := len(env.Mail.Sent()); n != total {
		t.Fatalf("re-relaying sent %d more mails", n-total)
	}

	// A backfilled (historical) incident alerts nobody.
	recordIncident(t, o, "Slack", "Old Slack breach", true)
	env.Drain(t)
	if n := len(env.Mail.Sent()); n != total {
		t.Fatalf("a backfilled incident sent %d mails", n-total)
	}
	for _, m := range env.Mail.Sent() {
		if m.To == "p1@ext.test" {
			t.Fatalf("a pending subscriber got %q", m.Subject)
		}
	}
}

func TestAlertOneClickUnsubscribe(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	subscribeConfirmed(t, o, "master-list", "owner@acme.test")
	subscribeConfirmed(t, o, "master-list", "c1@ext.test")
	env.Drain(t)
	env.Mail.Reset()
	recordIncident(t, o, "Slack", "Breach", false)
	env.Drain(t)
	ms := mailsTo(env, "c1@ext.test")
	if len(ms) != 1 {
		t.Fatalf("%d alerts to c1, want 1", len(ms))
	}
	m := ms[0]
	if m.Headers["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
		t.Fatalf("List-Unsubscribe-Post = %q", m.Headers["List-Unsubscribe-Post"])
	}
	h := m.Headers["List-Unsubscribe"]
	if !strings.HasPrefix(h, "<") || !strings.Contains(h, ">") {
		t.Fatalf("List-Unsubscribe = %q", h)
	}
	link := h[1:strings.Index(h, ">")]
	if !strings.HasPrefix(link, env.URL+"/unsubscribe?token=") || link != linkIn(t, m, unsubscribeLinkRe) {
		t.Fatalf("unsubscribe URL %q (text link %q)", link, linkIn(t, m, unsubscribeLinkRe))
	}

	// GET only shows a page with a button.
	page := apitest.Must(t, sendRaw(t, env, "GET", link, nil, nil), 200)
	if !strings.Contains(page.String(), `method="post"`) || !strings.Contains(page.String(), "c1@ext.test") {
		t.Fatalf("unsubscribe page: %s", page.Body)
	}
	if st := subscriberStates(t, o, "master-list"); st["c1@ext.test"] != "confirmed" {
		t.Fatalf("GET unsubscribed: %v", st)
	}
	// RFC 8058 POST, no bearer token: 200; again: still 200.
	one := map[string]string{"Content-Type": "application/x-www-form-urlencoded"}
	apitest.Must(t, sendRaw(t, env, "POST", link, one, strings.NewReader("List-Unsubscribe=One-Click")), 200)
	apitest.Must(t, sendRaw(t, env, "POST", link, nil, strings.NewReader("anything")), 200)
	st := subscriberStates(t, o, "master-list")
	if _, ok := st["c1@ext.test"]; ok || st["owner@acme.test"] != "confirmed" {
		t.Fatalf("after unsubscribe: %v", st)
	}
	// No further alert reaches the address; others still get theirs.
	env.Mail.Reset()
	recordIncident(t, o, "Slack", "Second breach", false)
	env.Drain(t)
	if got := alertsSent(env, "Slack"); !sameList(got, []string{"owner@acme.test"}) {
		t.Fatalf("after unsubscribe alerts went to %v", got)
	}
	// The page of a spent link says so, without error.
	apitest.Must(t, sendRaw(t, env, "GET", link, nil, nil), 200)
}
