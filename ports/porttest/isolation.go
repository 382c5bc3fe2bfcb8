package porttest

import (
	"context"
	"slices"
	"testing"

	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The isolation cases mutate what they passed to the store and what they got
// back, then read again: a store that keeps or hands out references to its
// rows fails them.

func scribble(s []string) {
	for i := range s {
		s[i] = "scribbled"
	}
}

var isolationCases = []testCase{
	{"vendor aliases", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		v.Aliases = []string{"ACME"}
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Vendors().Update(ctx, v) })
		scribble(v.Aliases)
		got := getVendor(f, v.ID)
		scribble(got.Aliases)
		sameStrings(t, "aliases", getVendor(f, v.ID).Aliases, []string{"ACME"})
	}},
	{"profile slices, pointers and maps", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		p := f.profile(v.ID)
		scribble(p.Company.Alias)
		*p.Scores.SecurityRating = 1
		p.Enrichment[vendors.SectionBasic] = vendors.SectionStatus{Status: "failed"}
		p.LatestGRC.DomainScores[0].Findings[0] = "scribbled"
		got, err := getProfile(f, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		scribble(got.Company.Alias)
		*got.Scores.SecurityRating = 2
		got.Enrichment[vendors.SectionLogo] = vendors.SectionStatus{Status: "failed"}
		got.LatestGRC.Grade = "F"
		again, _ := getProfile(f, v.ID)
		sameStrings(t, "alias", again.Company.Alias, []string{"alias-one"})
		equal(t, "security rating", *again.Scores.SecurityRating, 87)
		equal(t, "enrichment sections", len(again.Enrichment), 1)
		equal(t, "basic enrichment", again.Enrichment[vendors.SectionBasic].Status, "done")
		equal(t, "grade", again.LatestGRC.Grade, "B")
		sameStrings(t, "findings", again.LatestGRC.DomainScores[0].Findings, []string{"soc2"})
	}},
	{"GRC history", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		a := f.grcAssessment(70, f.tick())
		addGRC(f, v.ID, a)
		scribble(a.DomainScores[0].Findings)
		scribble(a.EvidenceSummaries)
		got := grcHistory(f, v.ID)
		scribble(got[0].DomainScores[0].Findings)
		got[0].Citations[0].URL = "scribbled"
		again := grcHistory(f, v.ID)[0]
		sameStrings(t, "findings", again.DomainScores[0].Findings, []string{"spf_missing"})
		sameStrings(t, "summaries", again.EvidenceSummaries, []string{"No SPF record (medium): acme.test has no v=spf1 TXT record"})
		equal(t, "citation", again.Citations[0].URL, "dns:acme.test?type=TXT")
	}},
	{"assessment data collected and profile id", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		v := f.vendors("Acme")[0]
		p := f.profile(v.ID)
		asmt := f.newAssessment(l, v)
		pid := p.ID
		asmt.VendorProfileID = &pid
		f.saveAssessments(asmt)
		scribble(asmt.DataCollected)
		pid[0] ^= 0xff
		got, _ := getAssessment(f, a.ID, asmt.ID)
		scribble(got.DataCollected)
		got.VendorProfileID[0] ^= 0xff
		again, _ := getAssessment(f, a.ID, asmt.ID)
		sameStrings(t, "data collected", again.DataCollected, []string{"email", "name"})
		equal(t, "vendor profile id", *again.VendorProfileID, p.ID)
	}},
	{"audit event changes", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		asmt := f.assessment(f.list(a.ID, lists.MasterList), f.vendors("Acme")[0])
		e := f.event(asmt, "use_case")
		e.Changes[0].Field = "scribbled"
		got, _ := events(f, asmt.ID, 0, 1)
		got[0].Changes[0].Field = "scribbled"
		again, _ := events(f, asmt.ID, 0, 1)
		equal(t, "field", again[0].Changes[0].Field, "use_case")
	}},
	{"list entry products", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		v := f.vendors("Acme")[0]
		f.onList(l.ID, v)
		f.product(l.ID, v.ID, "Payroll")
		es := entries(f, l.ID)
		es[0].Products[0].Name = "scribbled"
		sameStrings(t, "products", productNames(entryOf(f, l.ID, v.ID).Products), []string{"payroll"})
	}},
	{"incident impacted data", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		in := f.newIncident(v.ID, "1")
		if err := createIncident(f, in); err != nil {
			t.Fatal(err)
		}
		scribble(in.PotentiallyImpactedData)
		got := load(f, func(ctx context.Context, tx stores.Tx) (vendors.Incident, error) {
			return tx.Incidents().Get(ctx, in.ID)
		})
		scribble(got.PotentiallyImpactedData)
		again := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
			return tx.Incidents().ListByVendor(ctx, v.ID)
		})
		sameStrings(t, "impacted data", again[0].PotentiallyImpactedData, []string{"email"})
	}},
	{"run jobs and sections", func(t *testing.T, f *fixture) {
		r := f.run(1)
		want := r.Jobs[0]
		r.Jobs[0].Status = "scribbled"
		scribble(r.Sections)
		got, _ := getRun(f, r.ID)
		got.Jobs[0].Status = "scribbled"
		scribble(got.Sections)
		again, _ := getRun(f, r.ID)
		equal(t, "job", again.Jobs[0], want)
		sameStrings(t, "sections", again.Sections, []string{"basic"})
	}},
	{"outbox payload", func(t *testing.T, f *fixture) {
		m := f.newMessage()
		want := slices.Clone(payloadKeys(t, m))
		addMessages(f, m)
		scribble(payloadKeys(t, m))
		got := claimOutbox(f, 1, f.tick())
		scribble(payloadKeys(t, got[0]))
		again := claimOutbox(f, 1, f.now)
		sameStrings(t, "payload keys", payloadKeys(t, again[0]), want)
	}},
}
