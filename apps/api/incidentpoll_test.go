package api_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/platform/outbox"
)

// feedWorld serves the platform-wide sources of the poll test on
// loopback: the same story as RSS, Atom and JSON Feed, each with an ETag
// that answers 304 while the content is unchanged, and a KEV catalog that
// answers 500 and then garbage.
type feedWorld struct {
	mu        sync.Mutex
	version   int
	stories   []story
	kevCalls  int
	notMod    map[string]int
	fullReads map[string]int
}

type story struct {
	title, slug string
	at          time.Time
}

func (w *feedWorld) handler() http.Handler {
	mux := http.NewServeMux()
	serve := func(path, ctype string, render func([]story) string) {
		mux.HandleFunc(path, func(rw http.ResponseWriter, r *http.Request) {
			w.mu.Lock()
			defer w.mu.Unlock()
			etag := fmt.Sprintf(`"v%d"`, w.version)
			if r.Header.Get("If-None-Match") == etag {
				w.notMod[path]++
				rw.WriteHeader(http.StatusNotModified)
				return
			}
			w.fullReads[path]++
			rw.Header().Set("ETag", etag)
			rw.Header().Set("Content-Type", ctype)
			fmt.Fprint(rw, render(w.stories))
		})
	}
	serve("/rss.xml", "application/rss+xml", func(ss []story) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>A</title><link>https://a.test/</link><description>A</description>`)
		for _, s := range ss {
			fmt.Fprintf(&b, `<item><title>%s</title><link>https://a.test/%s</link><pubDate>%s</pubDate></item>`, s.title, s.slug, s.at.Format(time.RFC1123Z))
		}
		return b.String() + `</channel></rss>`
	})
	serve("/atom.xml", "application/atom+xml", func(ss []story) string {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>B</title><id>urn:b</id><updated>2026-11-20T00:00:00Z</updated>`)
		for _, s := range ss {
			fmt.Fprintf(&b, `<entry><title>%s</title><id>urn:b:%s</id><link href="https://b.test/%s"/><updated>%s</updated></entry>`, s.title, s.slug, s.slug, s.at.Format(time.RFC3339))
		}
		return b.String() + `</feed>`
	})
	serve("/feed.json", "application/feed+json", func(ss []story) string {
		var items []string
		for _, s := range ss {
			items = append(items, fmt.Sprintf(`{"id":"%s","url":"https://c.test/%s","title":%q,"date_published":"%s"}`, s.slug, s.slug, s.title, s.at.Add(time.Hour).Format(time.RFC3339)))
		}
		return `{"version":"https://jsonfeed.org/version/1.1","title":"C","items":[` + strings.Join(items, ",") + `]}`
	})
	mux.HandleFunc("/kev.json", func(rw http.ResponseWriter, _ *http.Request) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.kevCalls++
		if w.kevCalls == 1 {
			http.Error(rw, "down", http.StatusInternalServerError)
			return
		}
		fmt.Fprint(rw, "this is not the KEV catalog")
	})
	return mux
}

func (w *feedWorld) set(ss ...story) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.version++
	w.stories = ss
}

// TestIncidentSourcesEndToEnd polls feeds served on loopback through the
// configured reader: the first poll is history and mails nobody; the same
// story in three feeds is one incident with three sources and one mail per
// confirmed subscriber; a source answering 500, then garbage, leaves the
// others working; an unchanged feed answers 304 and is not read again.
func TestIncidentSourcesEndToEnd(t *testing.T) {
	t.Parallel()
	world := &feedWorld{notMod: map[string]int{}, fullReads: map[string]int{}}
	srv := httptest.NewServer(world.handler())
	t.Cleanup(srv.Close)
	env := apitest.New(t, apitest.WithConfig(func(c *app.Config) {
		c.FetchAllowPrivate = true
		c.IncidentSources = []incidents.Endpoint{
			{Kind: incidents.SourceNews, URL: srv.URL + "/rss.xml"}, {Kind: incidents.SourceNews, URL: srv.URL + "/atom.xml"},
			{Kind: incidents.SourceNews, URL: srv.URL + "/feed.json"}, {Kind: incidents.SourceKEV, URL: srv.URL + "/kev.json"}}
	}))
	world.set(story{"Okta hackers stole customer data last year", "old", env.Clock.Now().AddDate(-1, 0, 0)})
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	env.SaveVendors(t, owner, acct, "Okta", "Ivanti")
	o := &org{env: env, acct: acct, owner: owner}
	subscribeConfirmed(t, o, "master-list", "owner@acme.test")
	subscribeConfirmed(t, o, "master-list", "c1@ext.test")
	env.Drain(t)
	env.Mail.Reset()

	poll := func() {
		t.Helper()
		replay(t, env, outbox.KindPollIncidents, nil)
		env.Drain(t)
	}
	poll()
	var got struct {
		Incidents []struct {
			Title      string `json:"title"`
			Backfilled bool   `json:"backfilled"`
			Match      *struct {
				Rule string `json:"rule"`
			} `json:"match"`
			Sources []struct {
				Source string `json:"source"`
				URL    string `json:"url"`
			} `json:"sources"`
		} `json:"incidents"`
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor/Okta/incidents", owner, nil), 200).JSON(t, &got)
	if len(got.Incidents) != 1 || !got.Incidents[0].Backfilled || len(got.Incidents[0].Sources) != 3 {
		t.Fatalf("after the first poll: %+v", got.Incidents)
	}
	if n := len(env.Mail.Sent()); n != 0 {
		t.Fatalf("the first poll mailed %d", n)
	}

	world.set(story{"Okta confirms its support system was breached", "okta-support", env.Clock.Now().Add(-2 * time.Hour)})
	poll()
	apitest.Must(t, env.Do(t, "GET", "/vendor/Okta/incidents", owner, nil), 200).JSON(t, &got)
	if len(got.Incidents) != 2 {
		t.Fatalf("after the story: %+v", got.Incidents)
	}
	live := got.Incidents[0]
	if live.Backfilled || live.Match == nil || live.Match.Rule != incidents.RuleNewsName || len(live.Sources) != 3 {
		t.Fatalf("the story's incident: %+v", live)
	}
	if sent := alertsSent(env, "Okta"); !sameList(sent, []string{"c1@ext.test", "owner@acme.test"}) {
		t.Fatalf("alerts went to %v, want one each to c1 and the owner", sent)
	}
	if m := mailsTo(env, "c1@ext.test"); len(m) != 1 || !strings.Contains(m[0].Text, "Why this vendor: news_named") {
		t.Fatalf("c1's mail: %+v", m)
	}

	// Nothing changed: every feed answers 304, nothing is read, nobody mailed.
	before := len(env.Mail.Sent())
	poll()
	for _, p := range []string{"/rss.xml", "/atom.xml", "/feed.json"} {
		if world.notMod[p] != 1 || world.fullReads[p] != 2 {
			t.Errorf("%s: %d not-modified answers and %d full reads, want 1 and 2", p, world.notMod[p], world.fullReads[p])
		}
	}
	if len(env.Mail.Sent()) != before || world.kevCalls != 3 {
		t.Fatalf("after an unchanged poll: %d mails (was %d), %d KEV calls", len(env.Mail.Sent()), before, world.kevCalls)
	}
}
