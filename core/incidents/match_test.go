package incidents_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/incidents/incidentstest"
)

func testMatcher(t testing.TB) *incidents.Matcher {
	t.Helper()
	m, err := incidents.NewMatcher(incidentstest.Directory(), incidentstest.ScanIndex)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// vendorNames is the sorted, comma-joined vendors of matches.
func vendorNames(ms []incidents.VendorMatch) string {
	var names []string
	for _, m := range ms {
		names = append(names, m.Vendor)
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

func TestKEV(t *testing.T) {
	m := testMatcher(t)
	for _, c := range []struct {
		vendorProject, product, want string
	}{
		{"Ivanti", "Connect Secure", "Ivanti"},
		{"Pulse Secure", "Pulse Connect Secure", "Ivanti"},
		{"Progress", "MOVEit Transfer", "Progress"},
		{"Progress Software Corporation", "MOVEit Transfer", "Progress"},
		{"Microsoft Corporation", "Exchange Server", "Microsoft"},
		{"Cisco Systems, Inc.", "IOS XE", "Cisco"},
		{"CISCO", "ASA", "Cisco"},
		{"Zoom Video Communications", "Zoom Client", "Zoom"},
		{"Citrix", "NetScaler ADC", "Citrix"},
		{"Okta, Inc.", "Okta Verify", "Okta"},
		{"Oracle", "WebLogic Server", "Oracle"},
		{"Apache", "Log4j2", ""},
		{"Ivanti Software", "EPMM", ""},
		{"Boxed", "Box", ""},
		{"", "", ""},
	} {
		r := m.KEV(incidents.KEVEntry{CVEID: "CVE-2024-0001", VendorProject: c.vendorProject, Product: c.product})
		if got := vendorNames(r.Matches); got != c.want {
			t.Errorf("KEV vendorProject %q: %q, want %q", c.vendorProject, got, c.want)
			continue
		}
		if c.want != "" && (r.Matches[0].AffectedService != c.product || r.Matches[0].Match.Rule != incidents.RuleKEVVendor) {
			t.Errorf("KEV vendorProject %q: %+v", c.vendorProject, r.Matches[0])
		}
	}
}

func TestBreach(t *testing.T) {
	m := testMatcher(t)
	for _, c := range []struct {
		domain, want string
		conf         float64
	}{
		{"okta.com", "Okta", 0.95},
		{"support.okta.com", "Okta", 0.9},
		{"WWW.Box.com.", "Box", 0.95},
		{"eu.app.box.com", "Box", 0.9},
		{"dropbox.com", "Dropbox", 0.95},
		{"notokta.com", "", 0},
		{"okta.com.evil.net", "", 0},
		{"okta-support.net", "", 0},
		{"box.net", "", 0},
		{"com", "", 0},
		{"", "", 0},
	} {
		r := m.Breach(incidents.Breach{Name: "X", Domain: c.domain})
		if got := vendorNames(r.Matches); got != c.want {
			t.Errorf("breach domain %q: %q, want %q", c.domain, got, c.want)
			continue
		}
		if c.want != "" && r.Matches[0].Match.Confidence != c.conf {
			t.Errorf("breach domain %q: confidence %v, want %v", c.domain, r.Matches[0].Match.Confidence, c.conf)
		}
	}
}

func TestFiling(t *testing.T) {
	m := testMatcher(t)
	for _, c := range []struct {
		filer string
		items []string
		want  string
	}{
		{"OKTA, INC.", []string{"1.05", "9.01"}, "Okta"},
		{"Okta Inc", []string{"Item 1.05"}, "Okta"},
		{"Okta, Inc.", []string{"2.02", "9.01"}, ""},
		{"Progress Software Corp", []string{"1.05"}, "Progress"},
		{"MICROSOFT CORP", []string{"1.05", "7.01"}, "Microsoft"},
		{"Block, Inc.", []string{"1.05"}, "Square"},
		{"Target Corp", []string{"1.05"}, "Target"},
		{"Target Hospitality Corp.", []string{"1.05"}, ""},
		{"Okta", []string{"1.050"}, ""},
		{"Progress Software Corp /MA", []string{"1.05"}, "Progress"},
		{"Okta", nil, ""},
	} {
		r := m.Filing(incidents.Filing{FilerName: c.filer, Items: c.items})
		if got := vendorNames(r.Matches); got != c.want {
			t.Errorf("filing %q %v: %q, want %q", c.filer, c.items, got, c.want)
		}
	}
}

func TestNews(t *testing.T) {
	m := testMatcher(t)
	for _, c := range []struct {
		name, title, summary string
		want, possible       string
	}{
		{"plain name and term", "Okta confirms its support system was breached", "", "Okta", ""},
		{"name not a word inside another", "Dropbox Sign breached, customer data exposed", "Attackers compromised the production environment.", "Dropbox", ""},
		{"ordinary word without signal", "Box of stolen credentials sold on forum", "", "", "Box"},
		{"ordinary word, no term", "A box of chocolates", "", "", ""},
		{"ambiguous name with term, no signal", "Zoom breach rumours spread", "", "", "Zoom"},
		{"ambiguous name with possessive", "Box's admin console hacked", "", "Box", ""},
		{"ambiguous name with said", "Slack said attackers stole employee tokens in a breach", "", "Slack", ""},
		{"ambiguous name with domain", "Notion users phished", "Credentials stolen for notion.so workspaces after a breach.", "Notion", ""},
		{"ambiguous name with product", "Zoom Rooms zero-day exploited", "", "Zoom", ""},
		{"ambiguous name with legal name", "Box, Inc. discloses data breach", "", "Box", ""},
		{"alias carries the other company's name", "Twilio Segment breached", "Hackers compromised the customer data platform.", "Segment,Twilio", ""},
		{"tool of the attack", "Hackers impersonating Microsoft steal credentials", "", "", ""},
		{"fake installer", "Fake Zoom installers spread ransomware", "", "", ""},
		{"source", "Ransomware gang hits hospital, according to Cisco", "Cisco Talos researchers tracked the intrusion.", "", ""},
		{"possessive source", "New botnet exploits routers", "Microsoft's threat intelligence team observed the campaign.", "", ""},
		{"no security term", "Okta reports record quarterly revenue", "", "", "Okta"},
		{"no name", "Hospital hit by ransomware", "", "", ""},
		{"source naming its own product", "Citrix warns of NetScaler zero-day exploited in attacks", "", "Citrix", ""},
		{"tool after a product word", "Microsoft Teams used to deliver DarkGate malware", "", "", ""},
		{"someone else's installation", "Hackers breached the agency through its Atlassian server", "", "", ""},
		{"where the stolen data was kept", "Hackers stole 130 GitHub repositories", "", "", ""},
		{"both name and source", "Snowflake customer accounts breached", "According to Mandiant, Snowflake's platform itself was not compromised.", "Snowflake", ""},
	} {
		r := m.News(incidents.NewsItem{Title: c.title, Summary: c.summary})
		if got := vendorNames(r.Matches); got != c.want {
			t.Errorf("%s: matches %q, want %q (%+v)", c.name, got, c.want, r)
		}
		if got := vendorNames(r.Possible); got != c.possible {
			t.Errorf("%s: possible %q, want %q (%+v)", c.name, got, c.possible, r)
		}
	}
}
