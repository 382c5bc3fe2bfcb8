package app_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/apps/app"
	"github.com/vetted-dev/vetted/core/incidents"
)

// TestIncidentSources: the four variables of the platform-wide incident
// sources give Config.IncidentSources: the public addresses by default on
// PostgreSQL, nothing by default on the embedded store, "off" turns one
// off, and anything but http(s) URLs is an error naming the variable.
func TestIncidentSources(t *testing.T) {
	t.Parallel()
	const pg = "postgres://u:p@db:5432/vetted"
	ep := func(kind incidents.Source, url string) incidents.Endpoint {
		return incidents.Endpoint{Kind: kind, URL: url}
	}
	var defaults []incidents.Endpoint
	for _, u := range app.DefaultNewsFeeds {
		defaults = append(defaults, ep(incidents.SourceNews, u))
	}
	defaults = append(defaults, ep(incidents.SourceKEV, app.DefaultKEVURL), ep(incidents.SourceBreach, app.DefaultBreachesURL),
		ep(incidents.SourceFiling, app.DefaultSECFilingsURL))
	if len(app.DefaultNewsFeeds) == 0 {
		t.Fatal("no default news feeds")
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		want []incidents.Endpoint
	}{
		{"embedded: none until set", map[string]string{}, []incidents.Endpoint{}},
		{"memory store: none until set", map[string]string{"VETTED_STORE": "memory"}, []incidents.Endpoint{}},
		{"production: the public addresses", map[string]string{"VETTED_DATABASE_URL": pg}, defaults},
		{"production: off turns one off", map[string]string{"VETTED_DATABASE_URL": pg, "VETTED_NEWS_FEEDS": "off", "VETTED_KEV_URL": "OFF", "VETTED_SEC_FILINGS_URL": " off "},
			[]incidents.Endpoint{ep(incidents.SourceBreach, app.DefaultBreachesURL)}},
		{"production: a URL replaces the default", map[string]string{"VETTED_DATABASE_URL": pg, "VETTED_KEV_URL": "http://mirror.example/kev.json"},
			slices.Concat(defaults[:len(app.DefaultNewsFeeds)], []incidents.Endpoint{ep(incidents.SourceKEV, "http://mirror.example/kev.json")}, defaults[len(app.DefaultNewsFeeds)+1:])},
		{"embedded: set ones are read", map[string]string{"VETTED_NEWS_FEEDS": " https://a.example/feed , ,http://b.example/rss,https://a.example/feed", "VETTED_BREACHES_URL": "https://hibp.example/api/v3/breaches"},
			[]incidents.Endpoint{ep(incidents.SourceNews, "https://a.example/feed"), ep(incidents.SourceNews, "http://b.example/rss"), ep(incidents.SourceBreach, "https://hibp.example/api/v3/breaches")}},
		{"embedded: off is off", map[string]string{"VETTED_KEV_URL": "off"}, []incidents.Endpoint{}},
	} {
		cfg, err := app.FromLookup(lookup(c.env))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if cfg.IncidentSources == nil || !slices.Equal(cfg.IncidentSources, c.want) {
			t.Errorf("%s: sources %v, want %v", c.name, cfg.IncidentSources, c.want)
		}
	}
	for _, c := range []struct{ env, value string }{
		{"VETTED_KEV_URL", "ftp://cisa.example/kev.json"},
		{"VETTED_KEV_URL", "cisa.example/kev.json"},
		{"VETTED_BREACHES_URL", "https://"},
		{"VETTED_SEC_FILINGS_URL", "file:///etc/passwd"},
		{"VETTED_NEWS_FEEDS", "https://a.example/feed,gopher://b.example/"},
		{"VETTED_NEWS_FEEDS", "https://a.example/feed,off"},
		{"VETTED_NEWS_FEEDS", "%zz"},
	} {
		_, err := app.FromLookup(lookup(map[string]string{c.env: c.value, "VETTED_DATABASE_URL": pg}))
		if !errors.Is(err, app.ErrConfig) || !strings.Contains(err.Error(), c.env) {
			t.Errorf("%s=%q: %v, want an error naming it", c.env, c.value, err)
		}
	}
}

// TestIncidentSourcesDocumented: every variable is listed with its default
// for --help and check-config, the worker's (which polls) included.
func TestIncidentSourcesDocumented(t *testing.T) {
	t.Parallel()
	for _, vars := range [][]app.EnvVar{app.EnvVars(), app.WorkerEnvVars()} {
		for name, def := range map[string]string{"VETTED_NEWS_FEEDS": app.DefaultNewsFeeds[0], "VETTED_KEV_URL": app.DefaultKEVURL,
			"VETTED_BREACHES_URL": app.DefaultBreachesURL, "VETTED_SEC_FILINGS_URL": app.DefaultSECFilingsURL} {
			i := slices.IndexFunc(vars, func(v app.EnvVar) bool { return v.Name == name })
			if i < 0 || !strings.Contains(vars[i].Default, def) || !strings.Contains(vars[i].Default, "off") || !strings.Contains(vars[i].Meaning, "off") {
				t.Errorf("%s is not documented with its default and off", name)
			}
		}
	}
}

// TestDescribeIncidentSources: check-config names each source polled, or off.
func TestDescribeIncidentSources(t *testing.T) {
	t.Parallel()
	c, err := app.FromLookup(lookup(map[string]string{"VETTED_KEV_URL": "https://u:secret@kev.example/kev.json", "VETTED_NEWS_FEEDS": "https://a.example/feed,https://b.example/feed"}))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.DescribeIncidentSources(), "news https://a.example/feed, https://b.example/feed; kev https://u:xxxxx@kev.example/kev.json"; got != want {
		t.Errorf("described %q, want %q", got, want)
	}
	if c, _ = app.FromLookup(lookup(nil)); !strings.HasPrefix(c.DescribeIncidentSources(), "off") {
		t.Errorf("no sources described as %q", c.DescribeIncidentSources())
	}
}
