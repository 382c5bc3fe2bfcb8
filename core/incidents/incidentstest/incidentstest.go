// Package incidentstest holds what the tests of the matching rule share
// with the tests of its adapters: a small directory (Directory), a name
// index by plain scanning (ScanIndex), and the labelled corpus of
// core/incidents/testdata with its scoring (Score), so that the corpus runs
// through the core's scan index and through adapters/nameindex alike.
package incidentstest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/vetted-dev/vetted/core/incidents"
)

// ScanIndex is an incidents.BuildNameIndex by plain scanning: every
// whole-word occurrence of every name, ordered by start.
func ScanIndex(names []string) (incidents.NameIndex, error) { return scanIndex(names), nil }

type scanIndex []string

func (s scanIndex) Find(text string) []incidents.NameHit {
	var hits []incidents.NameHit
	for _, n := range s {
		for from := 0; from < len(text); {
			i := strings.Index(text[from:], n)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(n)
			if (start == 0 || text[start-1] == ' ') && (end == len(text) || text[end] == ' ') {
				hits = append(hits, incidents.NameHit{Name: n, Start: start, End: end})
			}
			from = start + 1
		}
	}
	slices.SortStableFunc(hits, func(a, b incidents.NameHit) int { return a.Start - b.Start })
	return hits
}

// Directory is the small directory the rule's tests and the corpus run
// against.
func Directory() []incidents.Candidate {
	v := func(name, legal, domain string, aliases, products []string) incidents.Candidate {
		return incidents.Candidate{ID: uuid.NewSHA1(uuid.NameSpaceOID, []byte(name)), CanonicalName: name,
			LegalName: legal, Domain: domain, Aliases: aliases, Products: products}
	}
	return []incidents.Candidate{
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

// Item is one labelled item of the corpus: its source, the ambiguity class
// it stands for, the item, and the vendors (canonical names) it concerns.
type Item struct {
	ID      int                 `json:"id"`
	Source  incidents.Source    `json:"source"`
	Class   string              `json:"class"`
	News    *incidents.NewsItem `json:"news"`
	KEV     *incidents.KEVEntry `json:"kev"`
	Breach  *incidents.Breach   `json:"breach"`
	Filing  *incidents.Filing   `json:"filing"`
	Vendors []string            `json:"vendors"`
}

// corpusPath is core/incidents/testdata/corpus.jsonl, wherever the test
// runs from.
func corpusPath() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "corpus.jsonl")
}

// Corpus reads the labelled corpus.
func Corpus(t testing.TB) []Item {
	t.Helper()
	f, err := os.Open(corpusPath())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var items []Item
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var it Item
		if err := json.Unmarshal(sc.Bytes(), &it); err != nil {
			t.Fatalf("corpus line %d: %v", len(items)+1, err)
		}
		items = append(items, it)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return items
}

// Apply runs the rule of the item's source.
func Apply(m *incidents.Matcher, it Item) incidents.Result {
	switch {
	case it.News != nil:
		return m.News(*it.News)
	case it.KEV != nil:
		return m.KEV(*it.KEV)
	case it.Breach != nil:
		return m.Breach(*it.Breach)
	case it.Filing != nil:
		return m.Filing(*it.Filing)
	}
	return incidents.Result{}
}

// Tally counts true and false positives and false negatives of the
// matches, and the possible matches (not scored).
type Tally struct{ TP, FP, FN, Possible int }

// Precision is TP/(TP+FP), 1 when nothing was matched.
func (c Tally) Precision() float64 {
	if c.TP+c.FP == 0 {
		return 1
	}
	return float64(c.TP) / float64(c.TP+c.FP)
}

// Recall is TP/(TP+FN), 1 when nothing was labelled.
func (c Tally) Recall() float64 {
	if c.TP+c.FN == 0 {
		return 1
	}
	return float64(c.TP) / float64(c.TP+c.FN)
}

func (c Tally) String() string {
	return fmt.Sprintf("precision %.3f recall %.3f (tp %d, fp %d, fn %d; possible %d)", c.Precision(), c.Recall(), c.TP, c.FP, c.FN, c.Possible)
}

func (c *Tally) add(o Tally) {
	c.TP, c.FP, c.FN, c.Possible = c.TP+o.TP, c.FP+o.FP, c.FN+o.FN, c.Possible+o.Possible
}

// Figures are the corpus scores: overall, by source and by class, and the
// items the matcher got wrong.
type Figures struct {
	All      Tally
	BySource map[string]*Tally
	ByClass  map[string]*Tally
	Wrong    []string
}

// Score matches every corpus item with m and scores the matches (not the
// possible matches) against the labels.
func Score(t testing.TB, m *incidents.Matcher) Figures {
	t.Helper()
	items := Corpus(t)
	if len(items) < 150 {
		t.Errorf("the corpus has %d items, want at least 150", len(items))
	}
	f := Figures{BySource: map[string]*Tally{}, ByClass: map[string]*Tally{}}
	for _, it := range items {
		r := Apply(m, it)
		var got []string
		for _, vm := range r.Matches {
			got = append(got, vm.Vendor)
		}
		c := Tally{Possible: len(r.Possible)}
		for _, v := range got {
			if slices.Contains(it.Vendors, v) {
				c.TP++
			} else {
				c.FP++
			}
		}
		for _, v := range it.Vendors {
			if !slices.Contains(got, v) {
				c.FN++
			}
		}
		if c.FP+c.FN > 0 {
			f.Wrong = append(f.Wrong, fmt.Sprintf("item %d (%s/%s): got %v, labelled %v", it.ID, it.Source, it.Class, got, it.Vendors))
		}
		f.All.add(c)
		at(f.BySource, string(it.Source)).add(c)
		at(f.ByClass, it.Class).add(c)
	}
	return f
}

func at(m map[string]*Tally, k string) *Tally {
	if m[k] == nil {
		m[k] = &Tally{}
	}
	return m[k]
}

// The bounds the corpus must meet overall.
const (
	MinPrecision = 0.95
	MinRecall    = 0.90
)

// Check logs the figures (go test -v shows them) and fails below
// MinPrecision or MinRecall overall.
func (f Figures) Check(t testing.TB) {
	t.Helper()
	t.Logf("overall: %v", f.All)
	for _, group := range []struct {
		name string
		m    map[string]*Tally
	}{{"source", f.BySource}, {"class", f.ByClass}} {
		keys := make([]string, 0, len(group.m))
		for k := range group.m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			t.Logf("%s %-22s %v", group.name, k, *group.m[k])
		}
	}
	if len(f.Wrong) > 0 {
		t.Logf("wrong items:\n%s", strings.Join(f.Wrong, "\n"))
	}
	if f.All.Precision() < MinPrecision || f.All.Recall() < MinRecall {
		t.Errorf("corpus: %v; want precision at least %.2f and recall at least %.2f", f.All, MinPrecision, MinRecall)
	}
}
