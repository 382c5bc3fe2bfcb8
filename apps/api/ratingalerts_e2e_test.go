package api_test

import (
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/enrich/scantest"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

// ratingAlertsSent returns the recipients of the rating change mails about
// a vendor, sorted, one entry per mail.
func ratingAlertsSent(env *apitest.Env, vendorName string) []string {
	var out []string
	for _, m := range env.Mail.Find(func(m mailtmpl.Mail) bool { return strings.Contains(m.Subject, "Security posture of "+vendorName) }) {
		out = append(out, m.To)
	}
	sort.Strings(out)
	return out
}

// TestRatingChangeAlerts (the vendor saved as "Good Co" is named "Good"
// in the directory): a fixture site whose certificate is swapped for
// one expiring in 10 days between two scans makes exactly one event, and
// one mail per confirmed subscriber of each list alerting on the vendor,
// with one-click unsubscribe; a pending subscriber and a list with alerts
// off get none, and replaying the event or a mail sends nothing more. The
// rating history keeps both scans, newest first and paged; the dashboard
// shows the event beside incidents.
func TestRatingChangeAlerts(t *testing.T) {
	t.Parallel()
	clock := apitest.NewTestClock(t)
	w := scantest.Start(t, clock.Now, scantest.Good("good.test"))
	env := apitest.New(t, apitest.WithClock(clock), apitest.WithConfiguredEnricher(), apitest.WithConfig(func(c *app.Config) {
		c.ScanResolver, c.ScanRootCAs, c.FetchAllowPrivate = w.Resolver, w.CAFile, true
		c.ScanTimeout, c.ScanDNSTimeout, c.ScanConcurrency = 5*time.Second, time.Second, 2
	}))
	o := &org{env: env, vendor: map[string]string{}}
	o.acct = env.NewAccount(t, "Acme", "owner@acme.test")
	o.owner = env.Token("owner@acme.test", apitest.Verified())
	o.admin = env.Token("ops@platform.test", apitest.Admin(), apitest.Verified())
	save := func(list string) {
		apitest.Must(t, env.Do(t, "POST", "/vendor-lists?operation=save-vendors&account-id="+o.acct+"&vendor-list="+list, o.owner, map[string]any{
			"vendors": []map[string]string{{"vendor_name": "Good Co", "website_url": "https://good.test"}},
		}), 200)
	}
	save("master-list")
	for _, l := range []string{"Second", "Quiet"} {
		apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+o.acct+"&vendor-list="+l, o.owner, nil), 201)
		save(l)
	}
	var vendor struct {
		ID string `json:"id"`
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor/Good%20Co", o.owner, nil), 200).JSON(t, &vendor)
	apitest.Must(t, env.Do(t, "PATCH", "/vendor-lists?account-id="+o.acct+"&operation=alerts-enabled&vendor-list=Quiet", o.owner,
		map[string]any{"vendor-id": vendor.ID, "alerts_enabled": false}), 200)
	subscribeConfirmed(t, o, "master-list", "owner@acme.test")
	subscribeConfirmed(t, o, "master-list", "c1@ext.test")
	subscribe(t, o, "master-list", "p1@ext.test") // stays pending
	subscribeConfirmed(t, o, "Second", "c2@ext.test")
	subscribeConfirmed(t, o, "Quiet", "q1@ext.test") // alerts off for Good Co there
	// A webhook receiver that wants rating changes (issue 23: a posture
	// change reaches subscribers and a webhook receiver once each).
	rcv := newReceiver(t, env.Clock.Now, nil)
	_, rcv.secret = createHook(t, env, o.owner, o.acct, rcv.srv.URL+"/in", "vendor.rating_changed")
	env.Drain(t) // the first scan: the baseline
	env.Mail.Reset()

	// A second scan with nothing changed is no event.
	apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{"vendors": []string{"Good Co"}}), 202)
	env.Drain(t)
	if got := ratingAlertsSent(env, "Good"); len(got) != 0 {
		t.Fatalf("an unchanged scan mailed %v", got)
	}
	// The certificate is swapped for one that expires in 10 days.
	w.SetTLS("good.test", scantest.TLSExpiring)
	apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{"vendors": []string{"Good Co"}}), 202)
	env.Drain(t)
	if got, want := ratingAlertsSent(env, "Good"), []string{"c1@ext.test", "c2@ext.test", "owner@acme.test"}; !sameList(got, want) {
		t.Fatalf("rating alerts went to %v, want %v", got, want)
	}
	if n := len(env.Mail.Sent()); n != 3 {
		t.Fatalf("%d mails sent, want 3", n)
	}
	hooked := func() {
		t.Helper()
		hits := rcv.got()
		if len(hits) != 1 || hits[0].typ != "vendor.rating_changed" || !hits[0].verified {
			t.Fatalf("the webhook receiver got %+v, want one signed vendor.rating_changed", hits)
		}
	}
	hooked()
	m := mailsTo(env, "c1@ext.test")[0]
	if m.Headers["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" || !strings.Contains(m.Text, "certificate expires on") ||
		unsubscribeLinkRe.FindString(m.Text) == "" {
		t.Errorf("rating mail %q headers %v:\n%s", m.Subject, m.Headers, m.Text)
	}

	// The history: three scans, newest first, the last one the event.
	var page api.RatingHistoryBody
	apitest.Must(t, env.Do(t, "GET", "/vendor/Good%20Co/rating-history?limit=2", o.owner, nil), 200).JSON(t, &page)
	if len(page.History) != 2 || page.NextCursor == "" || len(page.History[0].Changes) != 1 || page.History[0].Changes[0].Kind != "certificate_expiring" ||
		len(page.History[1].Changes) != 0 || !page.History[0].ScannedAt.After(page.History[1].ScannedAt) || page.History[0].Grade == "" ||
		page.History[0].CertificateExpiresAt == nil || page.History[0].SecurityRating == nil {
		t.Fatalf("rating history page %+v", page)
	}
	if n := len(vendors.Checks()); page.History[0].ChecksRun == nil || page.History[0].ChecksTotal == nil ||
		*page.History[0].ChecksRun != n || *page.History[0].ChecksTotal != n {
		t.Fatalf("the scan's coverage %v of %v, want all %d checks ran", page.History[0].ChecksRun, page.History[0].ChecksTotal, n)
	}
	var rest api.RatingHistoryBody
	apitest.Must(t, env.Do(t, "GET", "/vendor/Good%20Co/rating-history?limit=2&cursor="+url.QueryEscape(page.NextCursor), o.owner, nil), 200).JSON(t, &rest)
	if len(rest.History) != 1 || rest.NextCursor != "" || len(rest.History[0].Changes) != 0 {
		t.Fatalf("second page %+v", rest)
	}
	mustProblem(t, env.Do(t, "GET", "/vendor/Good%20Co/rating-history?cursor=bogus", o.owner, nil), 422, "cursor")

	// Replaying the event and one mail job sends nothing more.
	total := len(env.Mail.Sent())
	event := uuid.MustParse(page.History[0].ID)
	replay(t, env, outbox.KindRatingChanged, outbox.RatingChanged{EventID: event, VendorID: uuid.MustParse(vendor.ID)})
	env.Drain(t)
	sub := strings.TrimPrefix(m.Key, "rating-alert:"+event.String()+":")
	replay(t, env, outbox.KindRatingMail, outbox.RatingMail{EventID: event, SubscriberID: uuid.MustParse(sub)})
	env.Drain(t)
	if n := len(env.Mail.Sent()); n != total {
		t.Fatalf("replaying sent %d more mails", n-total)
	}
	// Scanned again, still expiring: no new event.
	apitest.Must(t, env.Do(t, "POST", "/vendor/enrich", o.admin, map[string]any{"vendors": []string{"Good Co"}}), 202)
	env.Drain(t)
	if n := len(env.Mail.Sent()); n != total {
		t.Fatalf("a scan with the same expiring certificate sent %d more mails", n-total)
	}
	hooked() // still once

	// The dashboard shows the event beside incidents.
	var feed []api.RatingChangeFeedJSON
	apitest.Must(t, env.Do(t, "GET", "/metrics/recent-rating-changes?account-id="+o.acct, o.owner, nil), 200).JSON(t, &feed)
	if len(feed) != 1 || feed[0].ID != event.String() || feed[0].Kind != "rating_change" || feed[0].VendorName != "Good" ||
		len(feed[0].Changes) != 1 || feed[0].Changes[0].Kind != "certificate_expiring" {
		t.Fatalf("recent rating changes %+v", feed)
	}
	apitest.Must(t, env.Do(t, "GET", "/metrics/recent-incidents?account-id="+o.acct, o.owner, nil), 200)
}
