package api_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
)

var (
	confirmLinkRe     = regexp.MustCompile(`https?://\S+/subscribers/confirm\?token=[^\s"<>]+`)
	unsubscribeLinkRe = regexp.MustCompile(`https?://\S+/unsubscribe\?token=[^\s"<>]+`)
)

// mailsTo returns the mails sent to an address.
func mailsTo(env *apitest.Env, email string) []mailtmpl.Mail {
	return env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.EqualFold(m.To, email) })
}

// linkIn returns the one link a mail's text carries that re matches.
func linkIn(t *testing.T, m mailtmpl.Mail, re *regexp.Regexp) string {
	t.Helper()
	l := re.FindString(m.Text)
	if l == "" {
		t.Fatalf("mail %q has no link matching %s:\n%s", m.Subject, re, m.Text)
	}
	return l
}

// subscribe posts subscriber-email (a string or a list) to a list and
// returns the subscribers answered.
func subscribe(t *testing.T, o *org, list string, emails any) []map[string]any {
	t.Helper()
	var out struct {
		Subscribers []map[string]any `json:"subscribers"`
	}
	apitest.Must(t, o.env.Do(t, "POST", "/subscribers?account-id="+o.acct+"&vendor-list="+url.QueryEscape(list), o.owner,
		map[string]any{"subscriber-email": emails}), 201).JSON(t, &out)
	return out.Subscribers
}

// subscribeConfirmed subscribes an address and, unless it is confirmed at
// once, follows the confirmation mail's link by POST.
func subscribeConfirmed(t *testing.T, o *org, list, email string) {
	t.Helper()
	if s := subscribe(t, o, list, email); s[0]["status"] == "confirmed" {
		return
	}
	o.env.Drain(t)
	ms := mailsTo(o.env, email)
	if len(ms) == 0 {
		t.Fatalf("no confirmation mail to %s", email)
	}
	link := linkIn(t, ms[len(ms)-1], confirmLinkRe)
	apitest.Must(t, sendRaw(t, o.env, "POST", link, nil, nil), 200)
}

// subscriberStates maps e-mail to status on a list.
func subscriberStates(t *testing.T, o *org, list string) map[string]string {
	t.Helper()
	var out struct {
		VendorListID string           `json:"vendor_list_id"`
		Subscribers  []map[string]any `json:"subscribers"`
	}
	apitest.Must(t, o.env.Do(t, "GET", "/subscribers?account-id="+o.acct+"&vendor-list="+url.QueryEscape(list), o.owner, nil), 200).JSON(t, &out)
	if out.VendorListID == "" {
		t.Fatal("subscriber listing without vendor_list_id")
	}
	m := map[string]string{}
	for _, s := range out.Subscribers {
		m[s["email"].(string)] = s["status"].(string)
	}
	return m
}

func TestSubscriberConfirmation(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	// owner@acme.test is a verified member (its verified token was seen):
	// confirmed at once, no mail. subscriber-email as a plain string.
	s := subscribe(t, o, "master-list", "owner@acme.test")
	if len(s) != 1 || s[0]["status"] != "confirmed" || s[0]["is_member"] != true || s[0]["confirmed_at"] == nil || s[0]["created_at"] == nil {
		t.Fatalf("verified member = %v", s)
	}
	// An outsider and a member who never signed in: pending, one mail each.
	env.AddMember(t, o.acct, o.owner, "new@acme.test", "member")
	env.Drain(t)
	env.Mail.Reset()
	s = subscribe(t, o, "master-list", []string{"ext@partner.test", "new@acme.test"})
	if len(s) != 2 || s[0]["status"] != "pending" || s[1]["status"] != "pending" || s[0]["confirmed_at"] != nil || s[1]["is_member"] != true {
		t.Fatalf("pending subscribers = %v", s)
	}
	env.Drain(t)
	if n := len(mailsTo(env, "owner@acme.test")); n != 0 {
		t.Fatalf("verified member got %d mails", n)
	}
	ms := mailsTo(env, "ext@partner.test")
	if len(ms) != 1 || len(mailsTo(env, "new@acme.test")) != 1 {
		t.Fatalf("confirmation mails: %d to ext, %d to new", len(ms), len(mailsTo(env, "new@acme.test")))
	}
	link := linkIn(t, ms[0], confirmLinkRe)

	// GET shows a page with a POST button and confirms nothing (scanners follow links).
	page := apitest.Must(t, sendRaw(t, env, "GET", link, nil, nil), 200)
	if !strings.HasPrefix(page.Header.Get("Content-Type"), "text/html") || !strings.Contains(page.String(), `method="post"`) {
		t.Fatalf("confirm page: %s %s", page.Header.Get("Content-Type"), page.Body)
	}
	if st := subscriberStates(t, o, "master-list"); st["ext@partner.test"] != "pending" {
		t.Fatalf("GET confirmed the subscriber: %v", st)
	}
	// POST confirms; again is harmless.
	done := apitest.Must(t, sendRaw(t, env, "POST", link, nil, nil), 200)
	if !strings.Contains(done.String(), "ext@partner.test") {
		t.Fatalf("confirmed page: %s", done.Body)
	}
	apitest.Must(t, sendRaw(t, env, "POST", link, nil, nil), 200)
	st := subscriberStates(t, o, "master-list")
	if st["ext@partner.test"] != "confirmed" || st["new@acme.test"] != "pending" || st["owner@acme.test"] != "confirmed" {
		t.Fatalf("states = %v", st)
	}
	// State is per list: the same address on another list starts over.
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+o.acct+"&vendor-list=Second", o.owner, nil), 201)
	if s := subscribe(t, o, "Second", "ext@partner.test"); s[0]["status"] != "pending" {
		t.Fatalf("second list = %v", s)
	}
	// Adding a confirmed subscriber again keeps it confirmed and mails nothing.
	env.Drain(t)
	env.Mail.Reset()
	if s := subscribe(t, o, "master-list", "ext@partner.test"); s[0]["status"] != "confirmed" {
		t.Fatalf("re-added confirmed subscriber = %v", s)
	}
	env.Drain(t)
	if n := len(env.Mail.Sent()); n != 0 {
		t.Fatalf("re-adding a confirmed subscriber sent %d mails", n)
	}
}

func TestSubscribersByListIDAndRemove(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	q := "/subscribers?account-id=" + o.acct + "&vendor-list-id=" + o.master
	apitest.Must(t, env.Do(t, "POST", q, o.owner, map[string]any{"subscriber-email": []string{"a@x.test", "b@x.test", "c@x.test", "d@x.test"}}), 201)
	got := apitest.Must(t, env.Do(t, "GET", q, o.owner, nil), 200).Map(t)
	if got["vendor_list_id"] != o.master || len(got["subscribers"].([]any)) != 4 {
		t.Fatalf("GET by vendor-list-id = %v", got)
	}
	// DELETE by body (string or array) and by query (repeated or comma-separated).
	rm := apitest.Must(t, env.Do(t, "DELETE", q, o.owner, map[string]any{"subscriber-email": "a@x.test"}), 200).Map(t)
	if r := rm["removed"].([]any); len(r) != 1 || r[0] != "a@x.test" {
		t.Fatalf("removed = %v", rm)
	}
	apitest.Must(t, env.Do(t, "DELETE", q+"&subscriber-email=b@x.test,c@x.test", o.owner, nil), 200)
	apitest.Must(t, env.Do(t, "DELETE", q, o.owner, map[string]any{"subscriber-email": []string{"d@x.test"}}), 200)
	if st := subscriberStates(t, o, "master-list"); len(st) != 0 {
		t.Fatalf("left after removal: %v", st)
	}
	// Not subscribed: 404, all or nothing. Bad input: 422. Unknown list: 404.
	apitest.Must(t, env.Do(t, "POST", q, o.owner, map[string]any{"subscriber-email": "e@x.test"}), 201)
	mustProblem(t, env.Do(t, "DELETE", q, o.owner, map[string]any{"subscriber-email": []string{"e@x.test", "zz@x.test"}}), 404, "zz@x.test")
	if st := subscriberStates(t, o, "master-list"); len(st) != 1 {
		t.Fatalf("a failed removal removed something: %v", st)
	}
	mustProblem(t, env.Do(t, "DELETE", q, o.owner, nil), 422, "subscriber-email")
	mustProblem(t, env.Do(t, "POST", q, o.owner, map[string]any{"subscriber-email": "not-an-address"}), 422, "subscriber-email")
	mustProblem(t, env.Do(t, "POST", q, o.owner, map[string]any{"subscriber-email": 42}), 422)
	mustProblem(t, env.Do(t, "GET", "/subscribers?account-id="+o.acct+"&vendor-list=Nope", o.owner, nil), 404)
	mustProblem(t, env.Do(t, "GET", "/subscribers?account-id="+o.acct, o.owner, nil), 422, "vendor-list")
}

func TestSubscriberRoles(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	env.AddMember(t, o.acct, o.owner, "viewer@acme.test", "viewer")
	env.AddMember(t, o.acct, o.owner, "member@acme.test", "member")
	viewer, member := env.Token("viewer@acme.test", apitest.Verified()), env.Token("member@acme.test", apitest.Verified())
	stranger := env.Token("stranger@else.test", apitest.Verified())
	q := "/subscribers?account-id=" + o.acct + "&vendor-list=master-list"
	apitest.Must(t, env.Do(t, "GET", q, viewer, nil), 200)
	mustProblem(t, env.Do(t, "POST", q, viewer, map[string]any{"subscriber-email": "v@x.test"}), 403)
	apitest.Must(t, env.Do(t, "POST", q, member, map[string]any{"subscriber-email": "v@x.test"}), 201)
	mustProblem(t, env.Do(t, "DELETE", q, viewer, map[string]any{"subscriber-email": "v@x.test"}), 403)
	mustProblem(t, env.Do(t, "GET", q, stranger, nil), 403)
	apitest.Must(t, env.Do(t, "DELETE", q, member, map[string]any{"subscriber-email": "v@x.test"}), 200)
}

func TestMailLinkRefusals(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	// A list name that needs escaping shows up escaped on the page.
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+o.acct+"&vendor-list="+url.QueryEscape("<b>Ops</b>"), o.owner, nil), 201)
	subscribe(t, o, "<b>Ops</b>", "ext@partner.test")
	env.Drain(t)
	link := linkIn(t, mailsTo(env, "ext@partner.test")[0], confirmLinkRe)
	page := apitest.Must(t, sendRaw(t, env, "GET", link, nil, nil), 200).String()
	if strings.Contains(page, "<b>Ops</b>") || !strings.Contains(page, "&lt;b&gt;Ops&lt;/b&gt;") {
		t.Fatalf("list name not escaped:\n%s", page)
	}

	u, _ := url.Parse(link)
	tok := u.Query().Get("token")
	tampered := tok[:len(tok)-2] + map[bool]string{true: "AA", false: "BB"}[!strings.HasSuffix(tok, "AA")]
	bad := map[string]string{
		"tampered":  "/subscribers/confirm?token=" + url.QueryEscape(tampered),
		"garbage":   "/subscribers/confirm?token=nonsense",
		"missing":   "/subscribers/confirm",
		"purpose":   "/unsubscribe?token=" + url.QueryEscape(tok), // a confirm token cannot unsubscribe
		"injection": "/subscribers/confirm?token=" + url.QueryEscape(`"><script>alert(1)</script>`),
	}
	for name, p := range bad {
		for _, m := range []string{"GET", "POST"} {
			r := sendRaw(t, env, m, p, nil, nil)
			if r.Status != 403 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || strings.Contains(r.String(), "<script>") {
				t.Fatalf("%s %s link: %d %s %s", m, name, r.Status, r.Header.Get("Content-Type"), r.Body)
			}
		}
		j := sendRaw(t, env, "POST", p, map[string]string{"Accept": "application/json"}, nil)
		mustProblem(t, j, 403)
	}
	if st := subscriberStates(t, o, "<b>Ops</b>"); st["ext@partner.test"] != "pending" {
		t.Fatalf("a refused link changed state: %v", st)
	}
	// Expired: the confirmation link lives a week.
	env.Clock.Advance(8 * 24 * time.Hour)
	mustProblem(t, sendRaw(t, env, "POST", link, map[string]string{"Accept": "application/problem+json"}, nil), 403, "expired")
	if st := subscriberStates(t, o, "<b>Ops</b>"); st["ext@partner.test"] != "pending" {
		t.Fatalf("an expired link confirmed: %v", st)
	}
}
