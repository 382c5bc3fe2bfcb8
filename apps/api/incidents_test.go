package api_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// incidentDoc is an incident of GET /incidents as a client reads it.
type incidentDoc struct {
	ID          string    `json:"id"`
	VendorID    string    `json:"vendor_id"`
	VendorName  string    `json:"vendor_name"`
	Title       string    `json:"title"`
	Severity    string    `json:"severity"`
	Source      string    `json:"source"`
	URL         string    `json:"url"`
	PublishedAt time.Time `json:"published_at"`
	Match       *struct {
		Rule        string  `json:"rule"`
		MatchedText string  `json:"matched_text"`
		Confidence  float64 `json:"confidence"`
	} `json:"match"`
	Sources []struct {
		Source      string    `json:"source"`
		URL         string    `json:"url"`
		PublishedAt time.Time `json:"published_at"`
	} `json:"sources"`
	Lists []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"lists"`
}

type incidentsPage struct {
	Incidents  []incidentDoc `json:"incidents"`
	NextCursor string        `json:"next_cursor"`
}

// seededIncident is an incident of platform-wide sources as the incidents
// area stores it: with its evidence, its items and the source: keys the
// source filter reads (core/incidents' merge keys).
type seededIncident struct {
	vendor   string // vendor id
	title    string
	severity string
	sources  []string // the sources of its items, first seen first
	at       time.Time
	match    *vendors.IncidentMatch
}

func (s seededIncident) incident(t *testing.T, id uuid.UUID, now time.Time) vendors.Incident {
	t.Helper()
	in := vendors.Incident{ID: id, VendorID: uuid.MustParse(s.vendor), Title: s.title, Severity: s.severity, Source: s.sources[0],
		URL: "https://news.example/" + id.String(), ExternalID: id.String(), PublishedAt: s.at, CreatedAt: now, Backfilled: true,
		Match: s.match, Keys: []string{"url:https://news.example/" + id.String()}}
	for i, src := range s.sources {
		in.Sources = append(in.Sources, vendors.IncidentItem{Source: src, URL: in.URL + "/" + src, PublishedAt: s.at.Add(time.Duration(i) * time.Hour)})
		in.Keys = append(in.Keys, "source:"+src)
	}
	in, err := vendors.NewIncident(in)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// seedIncidents stores incidents as the incidents area's poll does, and
// answers their ids in order.
func seedIncidents(t *testing.T, env *apitest.Env, ss ...seededIncident) []string {
	t.Helper()
	ids := make([]string, len(ss))
	err := env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		ins := make([]vendors.Incident, len(ss))
		for i, s := range ss {
			id := uuid.New()
			ids[i] = id.String()
			ins[i] = s.incident(t, id, env.Clock.Now())
		}
		_, err := tx.Incidents().Merge(ctx, ins)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// masterVendors answers master-list's id and its vendors' ids by name.
func masterVendors(t *testing.T, env *apitest.Env, token, acct string) (string, map[string]string) {
	t.Helper()
	m := apitest.Must(t, env.Do(t, http.MethodGet, "/vendor-lists?account-id="+url.QueryEscape(acct)+"&vendor-list=master-list", token, nil), 200).Map(t)
	ids := map[string]string{}
	for _, v := range m["vendors"].([]any) {
		e := v.(map[string]any)
		ids[e["vendor_name"].(string)] = e["vendor_id"].(string)
	}
	return m["list"].(map[string]any)["id"].(string), ids
}

func titles(ins []incidentDoc) []string {
	out := make([]string, len(ins))
	for i, in := range ins {
		out[i] = in.Title
	}
	return out
}

// GET /incidents answers the incidents of the vendors an account follows,
// newest first, with their evidence, vendor and lists; it filters by
// source, severity and list, pages with an opaque cursor, and refuses what
// it cannot read.
func TestAccountIncidents(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.Token("admin@vetted.test", apitest.Admin(), apitest.Verified())
	acct := env.NewAccount(t, "Incidents Inc", "owner@inc.test")
	owner := env.Token("owner@inc.test", apitest.Verified())
	env.AddMember(t, acct, owner, "viewer@inc.test", "viewer")
	viewer := env.Token("viewer@inc.test", apitest.Verified())
	stranger := env.Token("stranger@else.test", apitest.Verified())
	q := "/incidents?account-id=" + url.QueryEscape(acct)

	env.SaveVendors(t, owner, acct, "Okta", "Ivanti", "Twilio")
	masterID, ids := masterVendors(t, env, owner, acct)
	crit := apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists?account-id="+acct+"&vendor-list=Critical", owner, nil), 201).Map(t)["id"].(string)
	apitest.Must(t, env.Do(t, http.MethodPost, "/vendor-lists?account-id="+acct+"&operation=save-vendors&vendor-list-id="+crit, owner,
		map[string]any{"vendors": []string{"Okta"}}), 200)
	other := env.NewAccount(t, "Other Inc", "owner@other.test")
	otherTok := env.Token("owner@other.test", apitest.Verified())
	env.SaveVendors(t, otherTok, other, "Snowflake")
	_, otherIDs := masterVendors(t, env, otherTok, other)

	t0 := env.Clock.Date(0, 0, -10)
	kev := &vendors.IncidentMatch{Rule: incidents.RuleKEVVendor, MatchedText: `vendorProject "Ivanti"`, Confidence: 1}
	news := &vendors.IncidentMatch{Rule: incidents.RuleNewsName, MatchedText: `named "okta"; security term "breached"`, Confidence: 0.9}
	breach := &vendors.IncidentMatch{Rule: incidents.RuleBreachDomain, MatchedText: `domain "twilio.com"`, Confidence: 1}
	seeded := seedIncidents(t, env,
		seededIncident{ids["Okta"], "Okta support system breached", "medium", []string{"news", "kev"}, t0.Add(3 * time.Hour), news},
		seededIncident{ids["Ivanti"], "Ivanti Connect Secure exploited", "critical", []string{"kev"}, t0.Add(2 * time.Hour), kev},
		seededIncident{ids["Twilio"], "Twilio breach", "high", []string{"breach"}, t0.Add(1 * time.Hour), breach},
		seededIncident{otherIDs["Snowflake"], "Snowflake breach", "high", []string{"news"}, t0.Add(4 * time.Hour), news},
	)
	// A status-page or manual incident has no evidence and one item.
	manual := apitest.Must(t, env.Do(t, http.MethodPost, "/vendor/Okta/incidents", admin, map[string]any{
		"title": "Okta outage", "published_at": t0, "backfilled": true}), 201).Map(t)
	if manual["match"] != nil || len(manual["sources"].([]any)) != 1 {
		t.Fatalf("a manual incident: match %v, sources %v", manual["match"], manual["sources"])
	}

	var all incidentsPage
	apitest.Must(t, env.Do(t, http.MethodGet, q, viewer, nil), 200).JSON(t, &all)
	if got, want := titles(all.Incidents), []string{"Okta support system breached", "Ivanti Connect Secure exploited", "Twilio breach", "Okta outage"}; !slices.Equal(got, want) {
		t.Fatalf("incidents = %q, want %q (newest first, the account's vendors only)", got, want)
	}
	if all.NextCursor != "" {
		t.Fatalf("one page: next_cursor %q", all.NextCursor)
	}
	okta := all.Incidents[0]
	if okta.ID != seeded[0] || okta.VendorID != ids["Okta"] || okta.VendorName != "Okta" || okta.Severity != "medium" {
		t.Fatalf("okta = %+v", okta)
	}
	if okta.Match == nil || okta.Match.Rule != "news_named" || okta.Match.MatchedText != news.MatchedText || okta.Match.Confidence != 0.9 {
		t.Fatalf("okta's evidence = %+v", okta.Match)
	}
	if len(okta.Sources) != 2 || okta.Sources[0].Source != "news" || okta.Sources[1].Source != "kev" || okta.Sources[1].URL == "" ||
		!okta.Sources[1].PublishedAt.Equal(t0.Add(4*time.Hour)) {
		t.Fatalf("okta's sources = %+v", okta.Sources)
	}
	lists := map[string]string{}
	for _, l := range okta.Lists {
		lists[l.Name] = l.ID
	}
	if len(okta.Lists) != 2 || lists["master-list"] != masterID || lists["Critical"] != crit {
		t.Fatalf("okta's lists = %+v", okta.Lists)
	}
	if last := all.Incidents[3]; last.Match != nil || len(last.Sources) != 1 || last.Sources[0].Source != "manual" {
		t.Fatalf("the manual incident = %+v", last)
	}

	// The vendor's own incidents carry the same evidence.
	var byVendor struct{ Incidents []incidentDoc }
	apitest.Must(t, env.Do(t, http.MethodGet, "/vendor/Ivanti/incidents", viewer, nil), 200).JSON(t, &byVendor)
	if len(byVendor.Incidents) != 1 || byVendor.Incidents[0].Match == nil || byVendor.Incidents[0].Match.Rule != "kev_vendor_project" ||
		len(byVendor.Incidents[0].Sources) != 1 {
		t.Fatalf("GET /vendor/Ivanti/incidents = %+v", byVendor.Incidents)
	}

	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"&source=kev", []string{"Okta support system breached", "Ivanti Connect Secure exploited"}},
		{"&source=kev,breach", []string{"Okta support system breached", "Ivanti Connect Secure exploited", "Twilio breach"}},
		{"&source=kev&source=breach", []string{"Okta support system breached", "Ivanti Connect Secure exploited", "Twilio breach"}},
		{"&source=filing", []string{}},
		{"&severity=critical,high", []string{"Ivanti Connect Secure exploited", "Twilio breach"}},
		{"&severity=medium&source=news", []string{"Okta support system breached"}},
		{"&vendor-list-id=" + crit, []string{"Okta support system breached", "Okta outage"}},
	} {
		var p incidentsPage
		apitest.Must(t, env.Do(t, http.MethodGet, q+tc.query, viewer, nil), 200).JSON(t, &p)
		if got := titles(p.Incidents); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.query, got, tc.want)
		}
		if tc.query == "&vendor-list-id="+crit && len(p.Incidents) > 0 && (len(p.Incidents[0].Lists) != 1 || p.Incidents[0].Lists[0].Name != "Critical") {
			t.Errorf("one list asked for: lists %+v", p.Incidents[0].Lists)
		}
	}

	// Pages of one follow each other to the same incidents, and the last
	// has no cursor.
	var paged []string
	cursor := ""
	for range 10 {
		var p incidentsPage
		apitest.Must(t, env.Do(t, http.MethodGet, q+"&limit=1&cursor="+url.QueryEscape(cursor), viewer, nil), 200).JSON(t, &p)
		paged = append(paged, titles(p.Incidents)...)
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if want := titles(all.Incidents); !slices.Equal(paged, want) {
		t.Fatalf("paged one at a time: %q, want %q", paged, want)
	}

	for _, tc := range []struct {
		name, path, token string
		status            int
		location          string
	}{
		{"unknown source", q + "&source=kev,rss", viewer, 422, "query.source"},
		{"unknown severity", q + "&severity=urgent", viewer, 422, "query.severity"},
		{"not a cursor", q + "&cursor=bm9wZQ", viewer, 422, "query.cursor"},
		{"unknown list", q + "&vendor-list-id=" + uuid.NewString(), viewer, 404, ""},
		{"another account's list", q + "&vendor-list-id=" + crit, otherTok, 403, ""},
		{"not a member", q, stranger, 403, ""},
		{"no token", q, "", 401, ""},
	} {
		r := env.Do(t, http.MethodGet, tc.path, tc.token, nil)
		if r.Status != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, r.Status, tc.status, r.Body)
			continue
		}
		p := readProblem(t, r)
		if tc.location != "" && !slices.Contains(p.locations(), tc.location) {
			t.Errorf("%s: locations %q, want %s", tc.name, p.locations(), tc.location)
		}
	}
}

// possibleDoc is a possible match as a client reads it.
type possibleDoc struct {
	ID         string      `json:"id"`
	VendorID   string      `json:"vendor_id"`
	VendorName string      `json:"vendor_name"`
	Status     string      `json:"status"`
	CreatedAt  time.Time   `json:"created_at"`
	DecidedAt  *time.Time  `json:"decided_at"`
	DecidedBy  string      `json:"decided_by"`
	IncidentID *string     `json:"incident_id"`
	Incident   incidentDoc `json:"incident"`
}

// seedPossible stores a pending possible match for a vendor, as the
// incidents area's poll keeps a near miss.
func seedPossible(t *testing.T, env *apitest.Env, vendorID, vendorName, title string, at time.Time) string {
	t.Helper()
	id := uuid.New()
	draft := seededIncident{vendorID, title, "medium", []string{"news"}, at,
		&vendors.IncidentMatch{Rule: incidents.RuleNewsName, MatchedText: `named "` + vendorName + `"; no security term`, Confidence: 0.5}}.
		incident(t, uuid.New(), env.Clock.Now())
	draft.Backfilled = false
	err := env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		_, err := tx.Possible().Add(ctx, incidents.PossibleMatch{ID: id, Key: vendorID + "|news|" + draft.ExternalID, VendorName: vendorName,
			Draft: draft, Status: incidents.PossiblePending, CreatedAt: at})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id.String()
}

// Platform admins read the possible matches of a status and confirm or
// dismiss each pending one once; a confirmation makes the vendor's
// incident, which the account then sees.
func TestPossibleMatches(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	admin := env.Token("admin@vetted.test", apitest.Admin(), apitest.Verified())
	acct := env.NewAccount(t, "Possible Inc", "owner@pos.test")
	owner := env.Token("owner@pos.test", apitest.Verified())
	env.SaveVendors(t, owner, acct, "Okta", "Box")
	_, ids := masterVendors(t, env, owner, acct)
	t0 := env.Clock.Date(0, 0, -2)
	oktaP := seedPossible(t, env, ids["Okta"], "Okta", "Okta announces new pricing", t0)
	boxP := seedPossible(t, env, ids["Box"], "Box", "Out of the box thinking at a bank", t0.Add(time.Hour))

	list := func(status string) []possibleDoc {
		t.Helper()
		var out struct{ Possible []possibleDoc }
		apitest.Must(t, env.Do(t, http.MethodGet, "/incidents/possible?status="+status, admin, nil), 200).JSON(t, &out)
		return out.Possible
	}
	pending := list("")
	if len(pending) != 2 || pending[0].ID != boxP || pending[1].ID != oktaP {
		t.Fatalf("pending = %+v, want Box then Okta (newest first)", pending)
	}
	p := pending[1]
	if p.VendorID != ids["Okta"] || p.VendorName != "Okta" || p.Status != "pending" || p.DecidedAt != nil || p.DecidedBy != "" ||
		p.IncidentID != nil || p.Incident.Title != "Okta announces new pricing" || p.Incident.Match == nil ||
		p.Incident.Match.Rule != "news_named" || len(p.Incident.Sources) != 1 {
		t.Fatalf("pending match = %+v", p)
	}
	if got := list("pending"); len(got) != 2 {
		t.Fatalf("status=pending: %d", len(got))
	}

	var confirmed struct {
		Possible possibleDoc `json:"possible"`
		Incident incidentDoc `json:"incident"`
	}
	apitest.Must(t, env.Do(t, http.MethodPost, "/incidents/possible/"+oktaP+"/confirm", admin, nil), 200).JSON(t, &confirmed)
	c := confirmed.Possible
	if c.ID != oktaP || c.Status != "confirmed" || c.DecidedAt == nil || c.DecidedBy != "admin@vetted.test" || c.IncidentID == nil ||
		*c.IncidentID != confirmed.Incident.ID || confirmed.Incident.VendorID != ids["Okta"] || confirmed.Incident.Match == nil {
		t.Fatalf("confirm = %+v", confirmed)
	}
	var dismissed struct {
		Possible possibleDoc `json:"possible"`
	}
	apitest.Must(t, env.Do(t, http.MethodPost, "/incidents/possible/"+boxP+"/dismiss", admin, nil), 200).JSON(t, &dismissed)
	if d := dismissed.Possible; d.Status != "dismissed" || d.DecidedAt == nil || d.IncidentID != nil {
		t.Fatalf("dismiss = %+v", d)
	}
	if got := list(""); len(got) != 0 {
		t.Fatalf("pending after deciding both: %+v", got)
	}
	if got := list("confirmed"); len(got) != 1 || got[0].ID != oktaP {
		t.Fatalf("confirmed = %+v", got)
	}
	if got := list("dismissed"); len(got) != 1 || got[0].ID != boxP {
		t.Fatalf("dismissed = %+v", got)
	}

	// The confirmed match is the vendor's incident, seen by the account.
	var mine incidentsPage
	apitest.Must(t, env.Do(t, http.MethodGet, "/incidents?account-id="+acct, owner, nil), 200).JSON(t, &mine)
	if len(mine.Incidents) != 1 || mine.Incidents[0].ID != *c.IncidentID || mine.Incidents[0].Match == nil {
		t.Fatalf("the account's incidents = %+v", mine.Incidents)
	}

	for _, tc := range []struct {
		name, method, path, token string
		status                    int
		location                  string
	}{
		{"confirm twice", http.MethodPost, "/incidents/possible/" + oktaP + "/confirm", admin, 409, ""},
		{"dismiss a confirmed one", http.MethodPost, "/incidents/possible/" + oktaP + "/dismiss", admin, 409, ""},
		{"confirm a dismissed one", http.MethodPost, "/incidents/possible/" + boxP + "/confirm", admin, 409, ""},
		{"unknown", http.MethodPost, "/incidents/possible/" + uuid.NewString() + "/confirm", admin, 404, ""},
		{"unknown dismissed", http.MethodPost, "/incidents/possible/" + uuid.NewString() + "/dismiss", admin, 404, ""},
		{"not an id", http.MethodPost, "/incidents/possible/nope/dismiss", admin, 422, "path.id"},
		{"unknown status", http.MethodGet, "/incidents/possible?status=maybe", admin, 422, "query.status"},
		{"list, not an admin", http.MethodGet, "/incidents/possible", owner, 403, ""},
		{"confirm, not an admin", http.MethodPost, "/incidents/possible/" + oktaP + "/confirm", owner, 403, ""},
		{"dismiss, not an admin", http.MethodPost, "/incidents/possible/" + boxP + "/dismiss", owner, 403, ""},
	} {
		r := env.Do(t, tc.method, tc.path, tc.token, nil)
		if r.Status != tc.status {
			t.Errorf("%s: status %d, want %d: %s", tc.name, r.Status, tc.status, r.Body)
			continue
		}
		p := readProblem(t, r)
		if tc.location != "" && !slices.Contains(p.locations(), tc.location) {
			t.Errorf("%s: locations %q, want %s", tc.name, p.locations(), tc.location)
		}
	}
}

// The incidents of the poll reach the API with their evidence: a KEV entry
// naming a vendor is its incident (the KEV product as affected_service); a
// news item naming another vendor without a security term waits in the
// possible-match queue until a platform admin confirms it, and then the
// account sees it too.
func TestIncidentsFromThePoll(t *testing.T) {
	t.Parallel()
	const kev = `{"vulnerabilities": [{"cveID": "CVE-2026-21887", "vendorProject": "Ivanti", "product": "Connect Secure",
		"vulnerabilityName": "Ivanti Connect Secure Command Injection Vulnerability", "dateAdded": "2026-11-20",
		"shortDescription": "A command injection vulnerability.", "knownRansomwareCampaignUse": "Known"}]}`
	const news = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Desk</title><link>https://news.example.test/</link>
		<description>Test news</description><item><title>Qorvanta announces new pricing for its platform</title>
		<link>https://news.example.test/qorvanta-pricing</link><guid>https://news.example.test/qorvanta-pricing</guid>
		<pubDate>Fri, 20 Nov 2026 10:00:00 +0000</pubDate><description>Qorvanta changes its plans.</description></item></channel></rss>`
	feeds := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/kev.json" {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, kev)
			return
		}
		w.Header().Set("Content-Type", "application/rss+xml")
		_, _ = io.WriteString(w, news)
	}))
	t.Cleanup(feeds.Close)
	env := apitest.New(t, apitest.WithConfig(func(c *app.Config) {
		c.FetchAllowPrivate = true // the feeds are on loopback
		c.IncidentSources = []incidents.Endpoint{{Kind: incidents.SourceKEV, URL: feeds.URL + "/kev.json"},
			{Kind: incidents.SourceNews, URL: feeds.URL + "/news.rss"}}
	}))
	admin := env.Token("admin@vetted.test", apitest.Admin(), apitest.Verified())
	acct := env.NewAccount(t, "Polled Inc", "owner@polled.test")
	owner := env.Token("owner@polled.test", apitest.Verified())
	env.SaveVendors(t, owner, acct, "Ivanti", "Qorvanta")
	if err := env.Svc.Incidents.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}

	var page incidentsPage
	apitest.Must(t, env.Do(t, http.MethodGet, "/incidents?account-id="+acct, owner, nil), 200).JSON(t, &page)
	if len(page.Incidents) != 1 {
		t.Fatalf("incidents after the poll = %+v, want Ivanti's", page.Incidents)
	}
	iv := page.Incidents[0]
	if iv.VendorName != "Ivanti" || iv.Severity != "critical" || iv.Match == nil || iv.Match.Rule != "kev_vendor_project" ||
		iv.Match.Confidence <= 0 || len(iv.Sources) != 1 || iv.Sources[0].Source != "kev" {
		t.Fatalf("Ivanti's incident = %+v", iv)
	}
	var raw struct {
		Incidents []map[string]any `json:"incidents"`
	}
	apitest.Must(t, env.Do(t, http.MethodGet, "/incidents?account-id="+acct+"&source=kev", owner, nil), 200).JSON(t, &raw)
	if len(raw.Incidents) != 1 || raw.Incidents[0]["affected_service"] != "Connect Secure" {
		t.Fatalf("source=kev: %+v", raw.Incidents)
	}

	var queue struct{ Possible []possibleDoc }
	apitest.Must(t, env.Do(t, http.MethodGet, "/incidents/possible", admin, nil), 200).JSON(t, &queue)
	if len(queue.Possible) != 1 || queue.Possible[0].VendorName != "Qorvanta" || queue.Possible[0].Incident.Match == nil ||
		queue.Possible[0].Incident.Title != "Qorvanta announces new pricing for its platform" {
		t.Fatalf("possible matches after the poll = %+v", queue.Possible)
	}
	apitest.Must(t, env.Do(t, http.MethodPost, "/incidents/possible/"+queue.Possible[0].ID+"/confirm", admin, nil), 200)
	apitest.Must(t, env.Do(t, http.MethodGet, "/incidents?account-id="+acct+"&source=news", owner, nil), 200).JSON(t, &page)
	if len(page.Incidents) != 1 || page.Incidents[0].VendorName != "Qorvanta" || page.Incidents[0].Match == nil {
		t.Fatalf("source=news after the confirmation = %+v", page.Incidents)
	}
}
