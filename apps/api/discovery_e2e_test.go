package api_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/adapters/enrich/scantest"
	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/apps/app"
)

// discoveredView is the part of GET /vendor/{id_or_name} discovery fills.
type discoveredView struct {
	WebsiteURL       string                           `json:"website_url"`
	WebsiteSource    string                           `json:"website_source"`
	WebsiteDiscovery *api.WebsiteDiscoveryJSON        `json:"website_discovery"`
	Enrichment       map[string]api.SectionStatusJSON `json:"enrichment"`
	Scores           struct {
		SecurityRating *int   `json:"security_rating"`
		Grade          string `json:"grade"`
	} `json:"scores"`
}

// TestImportByNameDiscoversWebsites imports a CSV of vendor names in the
// loopback discovery world (scantest.DiscoveryWorld: clear picks, parked
// and for-sale decoys, look-alikes, unrelated redirects, two names a word
// apart, names with no domain) with the real enricher: every vendor whose
// site names it gets that website (source "discovered"), a scan and a
// rating; the others say needs_website on the list and on the vendor,
// with the discovery's evidence; none gets a wrong website. A website
// given with the import is kept and never looked for.
func TestImportByNameDiscoversWebsites(t *testing.T) {
	t.Parallel()
	clock := apitest.NewTestClock(t)
	w := scantest.Start(t, clock.Now, scantest.DiscoveryWorld()...)
	env := apitest.New(t, apitest.WithClock(clock), apitest.WithConfiguredEnricher(), apitest.WithConfig(func(c *app.Config) {
		c.ScanResolver, c.ScanRootCAs, c.FetchAllowPrivate = w.Resolver, w.CAFile, true
		c.ScanTimeout, c.ScanDNSTimeout, c.ScanConcurrency = 5*time.Second, time.Second, 8
		c.DiscoverCountryTLDs = []string{"de"}
	}))
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	vendors := scantest.DiscoveryVendors()
	csv := "vendor_name,website_url\n"
	for _, v := range vendors {
		csv += `"` + v.Name + `",` + "\n"
	}
	// A website given wins: Orbit is imported with orbit.com, which
	// discovery would refuse (it names Orbit Rockets).
	csv = strings.Replace(csv, "\"Orbit\",\n", "\"Orbit\",https://orbit.com/\n", 1)
	start := time.Now()
	apitest.Must(t, importCSV(t, env, owner, acct, map[string]any{"csv": csv}), 200)
	env.Drain(t)
	took := time.Since(start)

	entries := map[string]string{}
	list := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+acct+"&vendor-list=master-list", owner, nil), 200).Map(t)
	for _, e := range list["vendors"].([]any) {
		m := e.(map[string]any)
		entries[m["vendor_name"].(string)] = m["enrichment_status"].(string)
	}
	var right, wrong, needs, missed int
	var table []string
	var discovering time.Duration
	for _, want := range vendors {
		var v discoveredView
		apitest.Must(t, env.Do(t, "GET", "/vendor/"+url.PathEscape(want.Name), owner, nil), 200).JSON(t, &v)
		d := v.WebsiteDiscovery
		if want.Name == "Orbit" {
			if v.WebsiteURL != "https://orbit.com/" || v.WebsiteSource != "given" || d != nil {
				t.Errorf("Orbit (given orbit.com): website %q source %q discovery %+v", v.WebsiteURL, v.WebsiteSource, d)
			}
			continue
		}
		if d == nil {
			t.Errorf("%s: no discovery evidence", want.Name)
			continue
		}
		discovering += time.Duration(d.ElapsedMS) * time.Millisecond
		got := d.Website
		table = append(table, fmt.Sprintf("%-18s want %-26s got %-26s %.2f %4dms %s", want.Name, or(want.Website, "none"), or(got, "none"),
			d.Confidence, d.ElapsedMS, entries[want.Name]))
		switch {
		case got == "" && want.Website == "":
			needs++
		case got == want.Website:
			right++
		case got == "":
			missed++
		default:
			wrong++
		}
		if got == "" {
			if v.WebsiteURL != "" || v.WebsiteSource != "" || entries[want.Name] != "needs_website" || v.Enrichment["security"].Status != "needs_website" {
				t.Errorf("%s: website %q source %q, list status %q, security %+v; want needs_website", want.Name, v.WebsiteURL, v.WebsiteSource,
					entries[want.Name], v.Enrichment["security"])
			}
			if len(d.Candidates) == 0 || slices.ContainsFunc(d.Candidates, func(c api.WebsiteCandidateJSON) bool { return c.Chosen || c.Reason == "" }) {
				t.Errorf("%s: evidence %+v", want.Name, d.Candidates)
			}
			continue
		}
		if v.WebsiteURL != got || v.WebsiteSource != "discovered" || d.MatchText == "" || d.Confidence < d.Threshold {
			t.Errorf("%s: website %q source %q, evidence %+v", want.Name, v.WebsiteURL, v.WebsiteSource, d)
		}
		if v.Enrichment["security"].Status != "done" || v.Scores.SecurityRating == nil || v.Scores.Grade == "" || entries[want.Name] == "needs_website" {
			t.Errorf("%s: security %+v, rating %v grade %q, list status %q: want a scan and a rating", want.Name, v.Enrichment["security"],
				v.Scores.SecurityRating, v.Scores.Grade, entries[want.Name])
		}
	}
	slices.Sort(table)
	n := len(vendors) - 1
	t.Logf("discovery table (vendor, expected, got, confidence, discovery time, list status):\n%s", strings.Join(table, "\n"))
	t.Logf("%d vendors by name: %d right, %d wrong, %d needs_website (%d missed); discovery %s per vendor on average; import to last rating %s (%s per vendor)",
		n, right, wrong, needs+missed, missed, (discovering / time.Duration(n)).Round(time.Millisecond), took.Round(time.Millisecond),
		(took / time.Duration(n)).Round(time.Millisecond))
	if wrong != 0 || missed != 0 || right != 10 || needs != 10 {
		t.Errorf("right %d, wrong %d, needs_website %d, missed %d; want 10 right, 10 needing a website, none wrong or missed", right, wrong, needs, missed)
	}
	// The list filter offers needs_website.
	var page struct {
		Vendors []struct {
			VendorName string `json:"vendor_name"`
		} `json:"vendors"`
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+acct+"&vendor-list=master-list&enrichment-state=needs_website&limit=50", owner, nil), 200).JSON(t, &page)
	if len(page.Vendors) != 10 {
		t.Errorf("enrichment-state=needs_website gave %d vendors, want 10", len(page.Vendors))
	}
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
