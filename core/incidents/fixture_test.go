package incidents

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// scanIndex is a NameIndex by plain scanning, for the core's tests: every
// whole-word occurrence of every name, ordered by start.
type scanIndex struct{ names []string }

func (s scanIndex) Find(text string) []NameHit {
	var hits []NameHit
	for _, n := range s.names {
		for from := 0; ; {
			i := wordIndex(text, n, from)
			if i < 0 {
				break
			}
			hits = append(hits, NameHit{Name: n, Start: i, End: i + len(n)})
			from = i + 1
		}
	}
	slices.SortStableFunc(hits, func(a, b NameHit) int { return a.Start - b.Start })
	return hits
}

func buildScan(names []string) (NameIndex, error) { return scanIndex{names: names}, nil }

// directory is the small directory the rule's tests and the corpus run
// against.
func directory() []Candidate {
	v := func(name, legal, domain string, aliases, products []string) Candidate {
		return Candidate{ID: uuid.NewSHA1(uuid.NameSpaceOID, []byte(name)), CanonicalName: name,
			LegalName: legal, Domain: domain, Aliases: aliases, Products: products}
	}
	return []Candidate{
		v("Okta", "Okta, Inc.", "okta.com", nil, []string{"Okta Verify", "Auth0", "Okta Workforce Identity"}),
		v("Progress", "Progress Software Corporation", "progress.com", []string{"Progress Software"}, []string{"MOVEit Transfer", "MOVEit Cloud", "WS_FTP", "Telerik"}),
		v("Ivanti", "Ivanti, Inc.", "ivanti.com", []string{"Pulse Secure"}, []string{"Connect Secure", "Policy Secure", "EPMM", "Endpoint Manager"}),
		v("Snowflake", "Snowflake Inc.", "snowflake.com", nil, []string{"Snowpark", "Snowsight"}),
		v("Twilio", "Twilio Inc.", "twilio.com", nil, []string{"Authy", "SendGrid", "Flex"}),
		v("Segment", "Segment.io, Inc.", "segment.com", []string{"Twilio Segment", "Segment.io"}, []string{"Segment CDP"}),
		v("Box", "Box, Inc.", "box.com", nil, []string{"Box Drive", "Box Shield"}),
		v("Zoom", "Zoom Video Communications, Inc.", "zoom.us", []string{"Zoom Video Communications", "Zoom Communications"}, []string{"Zoom Meetings", "Zoom Phone", "Zoom Rooms"}),
		v("Slack", "Slack Technologies, LLC", "slack.com", []string{"Slack Technologies"}, []string{"Slack Connect"}),
		v("Notion", "Notion Labs, Inc.", "notion.so", []string{"Notion Labs"}, nil),
		v("Apple", "Apple Inc.", "apple.com", nil, []string{"iCloud", "iOS", "macOS", "iPhone", "Safari", "WebKit"}),
		v("Oracle", "Oracle Corporation", "oracle.com", nil, []string{"Oracle Cloud", "E-Business Suite", "WebLogic", "PeopleSoft"}),
		v("Microsoft", "Microsoft Corporation", "microsoft.com", nil, []string{"Exchange Server", "SharePoint", "Azure", "Teams", "Outlook", "Windows"}),
		v("Cisco", "Cisco Systems, Inc.", "cisco.com", []string{"Cisco Systems"}, []string{"IOS XE", "ASA", "Webex", "AnyConnect"}),
		v("Atlassian", "Atlassian Corporation", "atlassian.com", nil, []string{"Confluence", "Jira", "Bitbucket"}),
		v("Square", "Block, Inc.", "squareup.com", []string{"Block"}, []string{"Cash App", "Square POS"}),
		v("Ring", "Ring LLC", "ring.com", nil, []string{"Ring Doorbell", "Ring Alarm"}),
		v("Signal", "Signal Messenger, LLC", "signal.org", []string{"Signal Messenger"}, nil),
		v("Target", "Target Corporation", "target.com", nil, nil),
		v("Fortinet", "Fortinet, Inc.", "fortinet.com", nil, []string{"FortiGate", "FortiOS", "FortiManager"}),
		v("Citrix", "Citrix Systems, Inc.", "citrix.com", []string{"Citrix Systems", "Cloud Software Group"}, []string{"NetScaler", "Citrix Bleed"}),
		v("Cloudflare", "Cloudflare, Inc.", "cloudflare.com", nil, nil),
		v("MongoDB", "MongoDB, Inc.", "mongodb.com", nil, []string{"Atlas"}),
		v("Dropbox", "Dropbox, Inc.", "dropbox.com", nil, []string{"Dropbox Sign", "HelloSign"}),
		v("Salesforce", "Salesforce, Inc.", "salesforce.com", nil, []string{"Slack", "Heroku", "Tableau"}),
		v("SolarWinds", "SolarWinds Corporation", "solarwinds.com", nil, []string{"Orion", "Web Help Desk", "Serv-U"}),
		v("Mailchimp", "The Rocket Science Group LLC", "mailchimp.com", []string{"Intuit Mailchimp"}, nil),
		v("Discord", "Discord Inc.", "discord.com", nil, nil),
		v("LastPass", "LastPass US LP", "lastpass.com", nil, nil),
		v("CrowdStrike", "CrowdStrike Holdings, Inc.", "crowdstrike.com", nil, []string{"Falcon"}),
		v("Stripe", "Stripe, Inc.", "stripe.com", nil, nil),
		v("GitHub", "GitHub, Inc.", "github.com", nil, []string{"GitHub Actions", "Copilot"}),
	}
}

func testMatcher(t testing.TB) *Matcher {
	t.Helper()
	m, err := NewMatcher(directory(), buildScan)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// vendorNames is the sorted, comma-joined vendors of matches.
func vendorNames(ms []VendorMatch) string {
	var names []string
	for _, m := range ms {
		names = append(names, m.Vendor)
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}
