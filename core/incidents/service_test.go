package incidents_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/incidents/incidentstest"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// reader serves each endpoint's next batch (or error) from a script and
// records the validators each read was given.
type reader struct {
	batches map[string]incidents.Batch
	fail    map[string]error
	prev    map[string][]incidents.Validators
}

func (r *reader) Read(_ context.Context, ep incidents.Endpoint, prev incidents.Validators) (incidents.Batch, error) {
	r.prev[ep.URL] = append(r.prev[ep.URL], prev)
	if err := r.fail[ep.URL]; err != nil {
		return incidents.Batch{}, err
	}
	return r.batches[ep.URL], nil
}

type counts map[string]int

func (c counts) SourceFetched(s incidents.Source, result string) { c[string(s)+" "+result]++ }

// fixture is the incident service on the memory store with a directory of
// Okta, Ivanti, Box (ambiguous) and Twilio, an account whose list Critical
// carries Okta and Ivanti, and the four sources.
type fixture struct {
	t       *testing.T
	st      *memstore.Store
	clk     *clock
	rd      *reader
	metrics counts
	svc     *incidents.Service
	vendors map[string]vendors.Vendor
	events  []domainevent.Event
	admin   accounts.Actor
	viewer  accounts.Actor
	acc     accounts.AccountRef
	list    lists.List
}

var (
	epNewsA = incidents.Endpoint{Kind: incidents.SourceNews, URL: "http://127.0.0.1:1/a.xml"}
	epNewsB = incidents.Endpoint{Kind: incidents.SourceNews, URL: "http://127.0.0.1:1/b.xml"}
	epNewsC = incidents.Endpoint{Kind: incidents.SourceNews, URL: "http://127.0.0.1:1/c.json"}
	epKEV   = incidents.Endpoint{Kind: incidents.SourceKEV, URL: "http://127.0.0.1:1/kev.json"}
	epHIBP  = incidents.Endpoint{Kind: incidents.SourceBreach, URL: "http://127.0.0.1:1/breaches"}
)

func setup(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{t: t, st: memstore.New(), clk: &clock{now: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)},
		rd:      &reader{batches: map[string]incidents.Batch{}, fail: map[string]error{}, prev: map[string][]incidents.Validators{}},
		metrics: counts{}, vendors: map[string]vendors.Vendor{},
		admin:  accounts.Actor{UserID: uuid.New(), Email: "root@vetted.test", PlatformAdmin: true},
		viewer: accounts.Actor{UserID: uuid.New(), Email: "val@acme.test", Verified: true}}
	acc := accounts.Account{ID: uuid.New(), Name: "Acme", Active: true}
	f.acc = accounts.AccountRef{ID: acc.ID}
	f.list = lists.List{ID: uuid.New(), AccountID: acc.ID, Name: "Critical"}
	f.write(func(ctx context.Context, tx incidents.Tx) error {
		for _, v := range []struct{ name, site string }{{"Okta", "https://www.okta.com"}, {"Ivanti", "https://ivanti.com"},
			{"Box", "https://box.com"}, {"Twilio", "https://twilio.com"}} {
			nv, err := vendors.New(uuid.New(), v.name, v.site, f.clk.now)
			if err != nil {
				return err
			}
			got, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{nv})
			if err != nil {
				return err
			}
			f.vendors[v.name] = got[0]
		}
		if err := tx.Accounts().Create(ctx, acc); err != nil {
			return err
		}
		if err := tx.Users().Save(ctx, accounts.User{ID: f.viewer.UserID, Email: f.viewer.Email, EmailVerified: true}); err != nil {
			return err
		}
		if err := tx.Members().Put(ctx, []accounts.Member{{AccountID: acc.ID, UserID: f.viewer.UserID, Role: accounts.RoleViewer}}); err != nil {
			return err
		}
		if err := tx.Lists().Create(ctx, f.list); err != nil {
			return err
		}
		return tx.Lists().AddEntries(ctx, f.list.ID, []uuid.UUID{f.vendors["Okta"].ID, f.vendors["Ivanti"].ID}, f.clk.now)
	})
	var err error
	f.svc, err = incidents.NewService(incidents.Deps{Unit: uow.Unit[incidents.Tx]{Store: ports.Narrow[incidents.Tx](f.st), Clock: f.clk, IDs: ports.UUIDv7{},
		Events: func(_ context.Context, _ incidents.Tx, ev domainevent.Event) error {
			f.events = append(f.events, ev)
			return nil
		}},
		Reader: f.rd, Sources: []incidents.Endpoint{epNewsA, epNewsB, epNewsC, epKEV, epHIBP}, BuildIndex: incidentstest.ScanIndex, Metrics: f.metrics})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) write(fn func(context.Context, incidents.Tx) error) {
	f.t.Helper()
	if err := ports.Narrow[incidents.Tx](f.st).InTx(f.t.Context(), fn); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) poll() {
	f.t.Helper()
	if err := f.svc.Poll(f.t.Context()); err != nil {
		f.t.Fatal(err)
	}
}

// incidentsOf returns a vendor's incidents, newest first.
func (f *fixture) incidentsOf(name string) (out []vendors.Incident) {
	f.t.Helper()
	if err := ports.Narrow[incidents.Tx](f.st).View(f.t.Context(), func(ctx context.Context, tx incidents.Tx) (err error) {
		out, err = tx.Incidents().ListByVendor(ctx, f.vendors[name].ID)
		return err
	}); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// fanouts counts the queued alert fan-outs and incident.created events.
func (f *fixture) fanouts() int {
	n := 0
	for _, m := range f.st.Undelivered() {
		if m.Kind == outbox.KindIncidentFanout {
			n++
		}
	}
	return n
}

func news(title, summary, url string, at time.Time) incidents.NewsItem {
	return incidents.NewsItem{Title: title, Summary: summary, URL: url, Published: at}
}

// primed polls every source once with empty batches, so the next poll is
// live.
func (f *fixture) primed() {
	f.t.Helper()
	f.poll()
	if f.fanouts() != 0 {
		f.t.Fatalf("an empty first poll queued %d alerts", f.fanouts())
	}
}

func TestFirstPollIsHistoryAndAlertsNobody(t *testing.T) {
	f := setup(t)
	f.rd.batches[epNewsA.URL] = incidents.Batch{News: []incidents.NewsItem{
		news("Okta confirms its support system was breached", "Attackers used stolen credentials.", "https://news.test/okta-1", f.clk.now.Add(-48*time.Hour))},
		Validators: incidents.Validators{ETag: `"v1"`}}
	f.poll()
	got := f.incidentsOf("Okta")
	if len(got) != 1 || !got[0].Backfilled {
		t.Fatalf("first poll: %+v, want one backfilled incident", got)
	}
	if f.fanouts() != 0 {
		t.Fatalf("first poll queued %d alerts, want none", f.fanouts())
	}
	// The next poll sends back the validators and alerts what is new.
	f.rd.batches[epNewsA.URL] = incidents.Batch{News: []incidents.NewsItem{
		news("Okta confirms its support system was breached", "Attackers used stolen credentials.", "https://news.test/okta-1", f.clk.now.Add(-48*time.Hour)),
		news("Ivanti Connect Secure zero-day exploited by hackers", "", "https://news.test/ivanti-1", f.clk.now)}}
	f.poll()
	if p := f.rd.prev[epNewsA.URL]; len(p) != 2 || p[1].ETag != `"v1"` {
		t.Fatalf("validators sent: %+v", p)
	}
	if got := f.incidentsOf("Okta"); len(got) != 1 {
		t.Fatalf("a story read again made %d incidents", len(got))
	}
	iv := f.incidentsOf("Ivanti")
	if len(iv) != 1 || iv[0].Backfilled || iv[0].Match == nil || iv[0].Match.Rule != incidents.RuleNewsName || iv[0].Severity != "high" {
		t.Fatalf("live incident: %+v", iv)
	}
	if f.fanouts() != 1 {
		t.Fatalf("second poll queued %d alerts, want 1", f.fanouts())
	}
}

func TestOneEventFromThreeFeedsIsOneIncident(t *testing.T) {
	f := setup(t)
	f.primed()
	title := "Okta confirms its support system was breached"
	f.rd.batches[epNewsA.URL] = incidents.Batch{News: []incidents.NewsItem{news(title, "", "https://a.test/1", f.clk.now)}}
	f.rd.batches[epNewsB.URL] = incidents.Batch{News: []incidents.NewsItem{news("OKTA confirms its support-system was  breached!", "", "https://b.test/9", f.clk.now.Add(5*time.Hour))}}
	f.rd.batches[epNewsC.URL] = incidents.Batch{News: []incidents.NewsItem{news(title, "", "https://c.test/x", f.clk.now.Add(70*time.Hour))}}
	f.poll()
	got := f.incidentsOf("Okta")
	if len(got) != 1 {
		t.Fatalf("%d incidents, want one: %+v", len(got), got)
	}
	var urls []string
	for _, s := range got[0].Sources {
		urls = append(urls, s.URL)
	}
	if !slices.Equal(urls, []string{"https://a.test/1", "https://b.test/9", "https://c.test/x"}) {
		t.Fatalf("sources = %v", urls)
	}
	if f.fanouts() != 1 {
		t.Fatalf("%d alerts, want 1", f.fanouts())
	}
	// The same title more than 72 hours later is another event.
	f.rd.batches[epNewsA.URL] = incidents.Batch{News: []incidents.NewsItem{news(title, "", "https://a.test/2", f.clk.now.Add(76*time.Hour))}}
	f.poll()
	if got := f.incidentsOf("Okta"); len(got) != 2 {
		t.Fatalf("a title 76 h later: %d incidents, want 2", len(got))
	}
}

func TestKEVEntryJoinsTheNewsOfItsCVE(t *testing.T) {
	f := setup(t)
	f.primed()
	f.rd.batches[epNewsA.URL] = incidents.Batch{News: []incidents.NewsItem{
		news("Hackers exploit Ivanti flaw CVE-2025-0282", "Ivanti warned customers.", "https://a.test/ivanti", f.clk.now)}}
	f.rd.batches[epKEV.URL] = incidents.Batch{KEV: []incidents.KEVEntry{{CVEID: "CVE-2025-0282", VendorProject: "Ivanti", Product: "Connect Secure",
		VulnerabilityName: "Ivanti Connect Secure Stack-Based Buffer Overflow", DateAdded: "2026-11-21", KnownRansomwareCampaignUse: "Known"}}}
	f.poll()
	got := f.incidentsOf("Ivanti")
	if len(got) != 1 {
		t.Fatalf("%d incidents, want 1: %+v", len(got), got)
	}
	in := got[0]
	if in.AffectedService != "Connect Secure" || in.Severity != "critical" || len(in.Sources) != 2 || in.Sources[1].Source != "kev" {
		t.Fatalf("merged incident: service %q severity %q sources %+v", in.AffectedService, in.Severity, in.Sources)
	}
	if f.fanouts() != 1 {
		t.Fatalf("%d alerts, want 1", f.fanouts())
	}
}

func TestAFailingSourceLeavesTheOthersWorking(t *testing.T) {
	f := setup(t)
	f.primed()
	f.rd.fail[epNewsA.URL] = errors.New("news http://127.0.0.1:1/a.xml: status 500")
	f.rd.batches[epHIBP.URL] = incidents.Batch{Breaches: []incidents.Breach{{Name: "Twilio", Title: "Twilio", Domain: "twilio.com",
		AddedDate: "2026-11-20T08:00:00Z", DataClasses: []string{"Email addresses", "Passwords"}}}}
	f.poll()
	got := f.incidentsOf("Twilio")
	if len(got) != 1 || got[0].Severity != "high" || got[0].Match.Rule != incidents.RuleBreachDomain {
		t.Fatalf("breach beside a failing feed: %+v", got)
	}
	if f.metrics["news error"] != 1 || f.metrics["breach ok"] != 2 {
		t.Fatalf("metrics = %v", f.metrics)
	}
	var st incidents.SourceState
	if err := ports.Narrow[incidents.Tx](f.st).View(t.Context(), func(ctx context.Context, tx incidents.Tx) (err error) {
		st, err = tx.Sources().Get(ctx, epNewsA.String())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if st.LastResult != incidents.FetchError || !strings.Contains(st.LastError, "500") || !st.Polled {
		t.Fatalf("state of the failing source: %+v", st)
	}
}

func TestNotModifiedChangesNothing(t *testing.T) {
	f := setup(t)
	f.primed()
	f.rd.batches[epKEV.URL] = incidents.Batch{NotModified: true, KEV: []incidents.KEVEntry{{CVEID: "CVE-2026-1", VendorProject: "Okta", Product: "Verify"}}}
	f.poll()
	if got := f.incidentsOf("Okta"); len(got) != 0 {
		t.Fatalf("a 304 made incidents: %+v", got)
	}
	if f.metrics["kev not_modified"] != 1 {
		t.Fatalf("metrics = %v", f.metrics)
	}
}

func TestPossibleMatchesAreConfirmedOrDismissed(t *testing.T) {
	f := setup(t)
	f.primed()
	// "Box" alone is an ordinary word: a possible match, not an incident.
	f.rd.batches[epNewsA.URL] = incidents.Batch{News: []incidents.NewsItem{
		news("Box hit by ransomware attack", "", "https://a.test/box", f.clk.now),
		news("Box data leaked online after breach", "", "https://a.test/box2", f.clk.now)}}
	f.poll()
	if got := f.incidentsOf("Box"); len(got) != 0 {
		t.Fatalf("ambiguous name made incidents: %+v", got)
	}
	if _, err := f.svc.PossibleMatches(t.Context(), f.viewer, "", 0); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("viewer read the queue: %v", err)
	}
	ps, err := f.svc.PossibleMatches(t.Context(), f.admin, "", 0)
	if err != nil || len(ps) != 2 {
		t.Fatalf("queue = %+v, %v", ps, err)
	}
	f.poll() // read again: no second entry
	if again, _ := f.svc.PossibleMatches(t.Context(), f.admin, "", 0); len(again) != 2 {
		t.Fatalf("a re-read added possible matches: %d", len(again))
	}
	p, in, err := f.svc.ConfirmPossible(t.Context(), f.admin, ps[0].ID)
	if err != nil || p.Status != incidents.PossibleConfirmed || p.IncidentID != in.ID || p.DecidedBy != f.admin.Email {
		t.Fatalf("confirm = %+v %+v %v", p, in, err)
	}
	if got := f.incidentsOf("Box"); len(got) != 1 || got[0].Match == nil || got[0].Backfilled {
		t.Fatalf("confirmed incident: %+v", got)
	}
	if f.fanouts() != 1 {
		t.Fatalf("confirmation queued %d alerts, want 1", f.fanouts())
	}
	if _, _, err := f.svc.ConfirmPossible(t.Context(), f.admin, ps[0].ID); !errors.Is(err, core.ErrConflict) {
		t.Fatalf("second confirmation: %v", err)
	}
	d, err := f.svc.DismissPossible(t.Context(), f.admin, ps[1].ID)
	if err != nil || d.Status != incidents.PossibleDismissed {
		t.Fatalf("dismiss = %+v %v", d, err)
	}
	if got := f.incidentsOf("Box"); len(got) != 1 {
		t.Fatalf("dismissal made an incident: %d", len(got))
	}
	if left, _ := f.svc.PossibleMatches(t.Context(), f.admin, "", 0); len(left) != 0 {
		t.Fatalf("pending after both decisions: %+v", left)
	}
	if _, err := f.svc.DismissPossible(t.Context(), f.admin, uuid.New()); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("unknown id: %v", err)
	}
}

func TestAliasesReachTheMatcher(t *testing.T) {
	f := setup(t)
	f.primed()
	f.rd.batches[epKEV.URL] = incidents.Batch{KEV: []incidents.KEVEntry{{CVEID: "CVE-2026-7", VendorProject: "Pulse Secure", Product: "Pulse Connect Secure"}}}
	f.poll()
	if got := f.incidentsOf("Ivanti"); len(got) != 0 {
		t.Fatalf("matched before the alias: %+v", got)
	}
	f.write(func(ctx context.Context, tx incidents.Tx) error {
		v := f.vendors["Ivanti"]
		v.Aliases = []string{"Pulse Secure"}
		return tx.Vendors().Update(ctx, v)
	})
	f.rd.batches[epKEV.URL] = incidents.Batch{KEV: []incidents.KEVEntry{{CVEID: "CVE-2026-8", VendorProject: "Pulse Secure", Product: "Pulse Connect Secure"}}}
	f.poll()
	if got := f.incidentsOf("Ivanti"); len(got) != 1 || got[0].AffectedService != "Pulse Connect Secure" {
		t.Fatalf("after the alias: %+v", got)
	}
}

func TestAccountIncidents(t *testing.T) {
	f := setup(t)
	f.primed()
	var items []incidents.NewsItem
	for i := range 5 {
		items = append(items, news(fmt.Sprintf("Okta breach number %d", i), "", fmt.Sprintf("https://a.test/okta/%d", i), f.clk.now.Add(time.Duration(i)*time.Minute)))
	}
	f.rd.batches[epNewsA.URL] = incidents.Batch{News: items}
	f.rd.batches[epKEV.URL] = incidents.Batch{KEV: []incidents.KEVEntry{{CVEID: "CVE-2026-9", VendorProject: "Ivanti", Product: "EPMM", DateAdded: "2026-11-19"}}}
	f.rd.batches[epHIBP.URL] = incidents.Batch{Breaches: []incidents.Breach{{Name: "Twilio", Title: "Twilio", Domain: "twilio.com"}}}
	f.poll()
	all, more, err := f.svc.AccountIncidents(t.Context(), f.viewer, f.acc, incidents.AccountFilter{})
	if err != nil || more || len(all) != 6 {
		t.Fatalf("all = %d %v %v (Twilio is on no list)", len(all), more, err)
	}
	if all[0].Title != "Okta breach number 4" || all[0].VendorName != "Okta" || len(all[0].Lists) != 1 || all[0].Lists[0].Name != "Critical" {
		t.Fatalf("newest = %+v", all[0])
	}
	kev, _, err := f.svc.AccountIncidents(t.Context(), f.viewer, f.acc, incidents.AccountFilter{Sources: []incidents.Source{incidents.SourceKEV}})
	if err != nil || len(kev) != 1 || kev[0].VendorName != "Ivanti" {
		t.Fatalf("kev = %+v %v", kev, err)
	}
	high, _, _ := f.svc.AccountIncidents(t.Context(), f.viewer, f.acc, incidents.AccountFilter{Severities: []string{"high"}})
	if len(high) != 1 || high[0].Source != "kev" {
		t.Fatalf("high = %+v", high)
	}
	page, more, _ := f.svc.AccountIncidents(t.Context(), f.viewer, f.acc, incidents.AccountFilter{Limit: 4})
	if len(page) != 4 || !more {
		t.Fatalf("page = %d more %v", len(page), more)
	}
	last := page[3]
	rest, more, _ := f.svc.AccountIncidents(t.Context(), f.viewer, f.acc, incidents.AccountFilter{Limit: 4,
		After: &vendors.IncidentCursor{PublishedAt: last.PublishedAt, CreatedAt: last.CreatedAt, ID: last.ID}})
	if len(rest) != 2 || more {
		t.Fatalf("rest = %d more %v", len(rest), more)
	}
	if _, _, err := f.svc.AccountIncidents(t.Context(), f.viewer, f.acc, incidents.AccountFilter{List: &lists.ListRef{Name: "Nope"}}); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("unknown list: %v", err)
	}
	stranger := accounts.Actor{UserID: uuid.New(), Email: "eve@else.test"}
	if _, _, err := f.svc.AccountIncidents(t.Context(), stranger, f.acc, incidents.AccountFilter{}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("stranger: %v", err)
	}
	if _, _, err := f.svc.AccountIncidents(t.Context(), f.viewer, f.acc, incidents.AccountFilter{Sources: []incidents.Source{"tv"}}); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("bad source: %v", err)
	}
}

func TestKEVEventTellsWhetherEachListRecordsTheProduct(t *testing.T) {
	f := setup(t)
	f.primed()
	other := lists.List{ID: uuid.New(), AccountID: f.list.AccountID, Name: "Infra"}
	f.write(func(ctx context.Context, tx incidents.Tx) error {
		if err := tx.Lists().Create(ctx, other); err != nil {
			return err
		}
		if err := tx.Lists().AddEntries(ctx, other.ID, []uuid.UUID{f.vendors["Ivanti"].ID}, f.clk.now); err != nil {
			return err
		}
		p, err := lists.NewProduct(uuid.New(), f.list.ID, f.vendors["Ivanti"].ID, "Ivanti Connect Secure", f.clk.now)
		if err != nil {
			return err
		}
		return tx.Lists().AddProduct(ctx, p)
	})
	f.rd.batches[epKEV.URL] = incidents.Batch{KEV: []incidents.KEVEntry{{CVEID: "CVE-2026-11", VendorProject: "Ivanti", Product: "Connect Secure", DateAdded: "2026-11-20"}}}
	f.poll()
	if len(f.events) != 1 {
		t.Fatalf("%d events, want 1", len(f.events))
	}
	d := f.events[0].Data
	if d.Match == nil || d.Match.Rule != incidents.RuleKEVVendor || d.AffectedService != "Connect Secure" || len(d.Sources) != 1 || d.Sources[0].Source != "kev" {
		t.Fatalf("event data: %+v", d)
	}
	got := map[string]bool{}
	for _, p := range d.ProductLists {
		got[p.ListName] = p.Recorded
	}
	if len(got) != 2 || !got["Critical"] || got["Infra"] {
		t.Fatalf("product lists = %+v, want Critical recorded and Infra not", d.ProductLists)
	}
}
