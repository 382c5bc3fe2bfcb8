package incidents

import (
	"slices"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/core/vendors"
)

var fixedNow = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func TestNormalizeURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://News.Test/a/b/":                       "https://news.test/a/b",
		"http://news.test/a/b#comments":                "https://news.test/a/b",
		"https://news.test/a?utm_source=rss&id=7":      "https://news.test/a?id=7",
		"  https://news.test/a?utm_medium=x&utm_id=9 ": "https://news.test/a",
		"not a url": "",
		"":          "",
	} {
		if got := normalizeURL(in); got != want {
			t.Errorf("normalizeURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMergeKeys(t *testing.T) {
	got := mergeKeys("https://a.test/x/", "Okta: Breach, Confirmed!", []string{"cve-2025-1"})
	want := []string{"url:https://a.test/x", "cve:CVE-2025-1", "title:okta breach confirmed"}
	if !slices.Equal(got, want) {
		t.Fatalf("mergeKeys = %q, want %q", got, want)
	}
	if got := mergeKeys("", "", nil); len(got) != 0 {
		t.Fatalf("no parts gave keys %q", got)
	}
}

func TestSameEvent(t *testing.T) {
	in := vendors.Incident{PublishedAt: fixedNow, Keys: []string{"url:https://a.test/1", "cve:CVE-2025-1", "title:okta breach"}}
	for _, c := range []struct {
		name string
		keys []string
		at   time.Time
		want bool
	}{
		{"same link, a month later", []string{"url:https://a.test/1"}, fixedNow.Add(30 * 24 * time.Hour), true},
		{"same CVE, a month later", []string{"cve:CVE-2025-1"}, fixedNow.Add(30 * 24 * time.Hour), true},
		{"same title, 72 h later", []string{"title:okta breach"}, fixedNow.Add(72 * time.Hour), true},
		{"same title, 72 h before", []string{"title:okta breach"}, fixedNow.Add(-72 * time.Hour), true},
		{"same title, 73 h later", []string{"title:okta breach"}, fixedNow.Add(73 * time.Hour), false},
		{"nothing shared", []string{"url:https://b.test/1", "title:other"}, fixedNow, false},
	} {
		if got := sameEvent(in, c.keys, c.at); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestAbsorb(t *testing.T) {
	in := vendors.Incident{Severity: "medium", AffectedService: "", PotentiallyImpactedData: []string{},
		Sources: []vendors.IncidentItem{{Source: "news", URL: "https://a.test/1", PublishedAt: fixedNow}},
		Keys:    []string{"url:https://a.test/1", "cve:CVE-2025-1", "source:news"}}
	kev := kevItem(KEVEntry{CVEID: "CVE-2025-1", VendorProject: "Ivanti", Product: "Connect Secure", DateAdded: "2026-11-21"}, fixedNow)
	if !absorb(&in, kev, VendorMatch{AffectedService: "Connect Secure"}) {
		t.Fatal("absorbing a KEV entry changed nothing")
	}
	if in.Severity != "high" || in.AffectedService != "Connect Secure" || len(in.Sources) != 2 || !slices.Contains(in.Keys, "source:kev") {
		t.Fatalf("after KEV: %+v", in)
	}
	if absorb(&in, kev, VendorMatch{AffectedService: "Connect Secure"}) {
		t.Fatal("absorbing the same entry again changed the incident")
	}
	story := newsItem(NewsItem{Title: "Ivanti hacked", URL: "https://a.test/1"}, fixedNow)
	absorb(&in, story, VendorMatch{})
	if len(in.Sources) != 2 || in.AffectedService != "Connect Secure" || !slices.Contains(in.Keys, "title:ivanti hacked") {
		t.Fatalf("the first story's link again added a source or lost the KEV product, or its title was not kept: %+v", in)
	}
	breach := breachItem(Breach{Name: "Ivanti", DataClasses: []string{"Passwords"}}, fixedNow)
	absorb(&in, breach, VendorMatch{})
	if !slices.Equal(in.PotentiallyImpactedData, []string{"Passwords"}) {
		t.Fatalf("impacted data = %v", in.PotentiallyImpactedData)
	}
}
