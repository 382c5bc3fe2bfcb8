package porttest

import (
	"bytes"
	"cmp"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// The store of the incidents area: the incidents' match, sources and merge
// keys (WithKeys, Update, Search), the state of each source, the possible
// matches and the directory as the matcher reads it.

// sameIncident fails unless got holds want's identity, evidence, items and
// keys (keys in the order given).
func sameIncident(t *testing.T, what string, got, want vendors.Incident) {
	t.Helper()
	equal(t, what+": id", got.ID, want.ID)
	equal(t, what+": vendor", got.VendorID, want.VendorID)
	equal(t, what+": title", got.Title, want.Title)
	equal(t, what+": severity", got.Severity, want.Severity)
	equal(t, what+": affected service", got.AffectedService, want.AffectedService)
	sameStrings(t, what+": impacted data", got.PotentiallyImpactedData, want.PotentiallyImpactedData)
	equal(t, what+": source", got.Source, want.Source)
	equal(t, what+": external id", got.ExternalID, want.ExternalID)
	sameTime(t, what+": published_at", got.PublishedAt, want.PublishedAt)
	sameTime(t, what+": created_at", got.CreatedAt, want.CreatedAt)
	equal(t, what+": has a match", got.Match != nil, want.Match != nil)
	if want.Match != nil {
		equal(t, what+": match", *got.Match, *want.Match)
	}
	equal(t, what+": sources", len(got.Sources), len(want.Sources))
	for i := range want.Sources {
		equal(t, what+": source of item", got.Sources[i].Source, want.Sources[i].Source)
		equal(t, what+": url of item", got.Sources[i].URL, want.Sources[i].URL)
		sameTime(t, what+": published_at of item", got.Sources[i].PublishedAt, want.Sources[i].PublishedAt)
	}
	if got.Keys == nil {
		t.Fatalf("%s: nil keys, want an empty slice at least", what)
	}
	sameStrings(t, what+": keys", got.Keys, want.Keys)
}

func getIncident(f *fixture, id uuid.UUID) vendors.Incident {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) (vendors.Incident, error) { return tx.Incidents().Get(ctx, id) })
}

func withKeys(f *fixture, vendorID uuid.UUID, keys ...string) []vendors.Incident {
	f.t.Helper()
	got := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
		return tx.Incidents().WithKeys(ctx, vendorID, keys)
	})
	if got == nil {
		f.t.Fatalf("WithKeys %q: nil, want a non-nil slice", keys)
	}
	return got
}

func search(f *fixture, q vendors.IncidentQuery) []vendors.Incident {
	f.t.Helper()
	got := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
		return tx.Incidents().Search(ctx, q)
	})
	if got == nil {
		f.t.Fatalf("Search %+v: nil, want a non-nil slice", q)
	}
	return got
}

// cursorOf is the position of in in Recent's order.
func cursorOf(in vendors.Incident) *vendors.IncidentCursor {
	return &vendors.IncidentCursor{PublishedAt: in.PublishedAt, CreatedAt: in.CreatedAt, ID: in.ID}
}

// newestFirst sorts incidents as Recent orders them.
func newestFirst(ins []vendors.Incident) []uuid.UUID {
	ins = slices.Clone(ins)
	slices.SortFunc(ins, func(a, b vendors.Incident) int {
		return cmp.Or(b.PublishedAt.Compare(a.PublishedAt), b.CreatedAt.Compare(a.CreatedAt), bytes.Compare(b.ID[:], a.ID[:]))
	})
	return incidentIDs(ins)
}

var incidentMergeCases = []testCase{
	{"Create and Merge keep the match, the sources and the keys", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta")
		first := f.newIncident(vs[0].ID, "1")
		first.Match = &vendors.IncidentMatch{Rule: "domain", MatchedText: "acme.com", Confidence: 0.75}
		first.Sources = []vendors.IncidentItem{
			{Source: "news", URL: "https://news.example/a", PublishedAt: first.PublishedAt},
			{Source: "kev", URL: "https://kev.example/CVE-2026-1", PublishedAt: f.tick()},
		}
		first.Keys = []string{"url:https://news.example/a", "cve:CVE-2026-1", "source:news", "source:kev"}
		if err := createIncident(f, first); err != nil {
			t.Fatal(err)
		}
		second := f.newIncident(vs[0].ID, "2")
		second.Keys = []string{"title:acme breach", "source:news"}
		refused := f.newIncident(vs[0].ID, "1") // first's vendor, source and external id
		refused.Keys = []string{"url:https://refused.example"}
		var merged []vendors.Incident
		f.write(func(ctx context.Context, tx stores.Tx) (err error) {
			merged, err = tx.Incidents().Merge(ctx, []vendors.Incident{refused, second})
			return err
		})
		equal(t, "merged", len(merged), 1)
		sameIncident(t, "merged", merged[0], second)
		sameIncident(t, "created", getIncident(f, first.ID), first)
		got := getIncident(f, second.ID)
		sameIncident(t, "merged then read", got, second)
		equal(t, "one item of its own", got.Sources[0].Source, "feed")
		list := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
			return tx.Incidents().ListByVendor(ctx, vs[0].ID)
		})
		sameIDs(t, "by vendor", incidentIDs(list), []uuid.UUID{second.ID, first.ID})
		sameIncident(t, "by vendor", list[1], first)
		recent := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
			return tx.Incidents().Recent(ctx, []uuid.UUID{vs[0].ID}, 5)
		})
		sameIncident(t, "recent", recent[1], first)
		latest := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Incident, error) {
			return tx.Incidents().Latest(ctx, []uuid.UUID{vs[0].ID})
		})
		equal(t, "latest", len(latest), 1)
		sameIncident(t, "latest", latest[0], second)

		sameIDSet(t, "by url and title", incidentIDs(withKeys(f, vs[0].ID, "cve:CVE-2026-1", "title:acme breach", "url:other")),
			[]uuid.UUID{first.ID, second.ID})
		sameIDs(t, "by one cve", incidentIDs(withKeys(f, vs[0].ID, "cve:CVE-2026-1")), []uuid.UUID{first.ID})
		sameIncident(t, "by keys", withKeys(f, vs[0].ID, "cve:CVE-2026-1")[0], first)
		equal(t, "keys of a refused incident", len(withKeys(f, vs[0].ID, "url:https://refused.example")), 0)
		equal(t, "keys of another vendor", len(withKeys(f, vs[1].ID, "cve:CVE-2026-1")), 0)
		equal(t, "no keys", len(withKeys(f, vs[0].ID)), 0)
	}},
	{"An incident of one item without keys reads back with its item and empty keys", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		now := f.tick()
		in := must(vendors.NewIncident(vendors.Incident{ID: newID(), VendorID: v.ID, Title: "Outage", Severity: "medium",
			Source: "statuspage", ExternalID: "1", URL: "https://status.acme.example/1", PublishedAt: now, CreatedAt: now}))(t)
		if err := createIncident(f, in); err != nil {
			t.Fatal(err)
		}
		got := getIncident(f, in.ID)
		sameIncident(t, "read", got, in)
		equal(t, "item url", got.Sources[0].URL, in.URL)
	}},
	{"Update replaces severity, service, impacted data, sources and keys, and nothing else", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta")
		in := f.newIncident(vs[0].ID, "1")
		in.Keys = []string{"url:https://news.example/a", "source:news"}
		if err := createIncident(f, in); err != nil {
			t.Fatal(err)
		}
		upd := getIncident(f, in.ID)
		upd.Severity, upd.AffectedService = "critical", "SSO"
		upd.PotentiallyImpactedData = []string{"email", "passwords"}
		upd.Sources = append(upd.Sources, vendors.IncidentItem{Source: "kev", URL: "https://kev.example/CVE-2026-2", PublishedAt: f.tick()})
		upd.Keys = []string{"url:https://news.example/a", "cve:CVE-2026-2", "source:kev"}
		upd.Title = "not stored by Update"
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Incidents().Update(ctx, upd) })
		want := upd
		want.Title = in.Title
		sameIncident(t, "updated", getIncident(f, in.ID), want)
		sameIDs(t, "by a new key", incidentIDs(withKeys(f, vs[0].ID, "cve:CVE-2026-2")), []uuid.UUID{in.ID})
		sameIDs(t, "by a kept key", incidentIDs(withKeys(f, vs[0].ID, "url:https://news.example/a")), []uuid.UUID{in.ID})
		equal(t, "by a removed key", len(withKeys(f, vs[0].ID, "source:news")), 0)
		q := vendors.IncidentQuery{VendorIDs: []uuid.UUID{vs[0].ID}, Limit: 10}
		q.Sources = []string{"news"}
		equal(t, "search by the removed source", len(search(f, q)), 0)
		q.Sources = []string{"kev"}
		sameIDs(t, "search by the new source", incidentIDs(search(f, q)), []uuid.UUID{in.ID})

		absent := f.newIncident(vs[1].ID, "2")
		wantErr(t, "Update absent", f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Incidents().Update(ctx, absent) }),
			core.ErrNotFound)
	}},
	{"Search filters by vendors, severities and sources, newest first, and pages after a cursor", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta", "Gamma")
		at := f.tick()
		f.tick()
		made := map[string]vendors.Incident{}
		for _, x := range []struct {
			name     string
			v        vendors.Vendor
			severity string
			at       time.Time
			sources  []string
		}{
			{"a0", vs[0], "critical", at.Add(-time.Second), []string{"news", "kev"}},
			{"a1", vs[0], "high", at, []string{"news"}},
			{"a2", vs[0], "low", at, []string{"kev"}},
			{"a3", vs[0], "high", at, nil}, // a status-page incident: no source: key
			{"b1", vs[1], "high", at.Add(time.Second), []string{"news"}},
			{"c1", vs[2], "high", at.Add(2 * time.Second), []string{"news"}},
		} {
			in := f.newIncident(x.v.ID, x.name)
			in.Severity, in.PublishedAt, in.CreatedAt = x.severity, x.at, at // a1..a3 tie on both times: the id orders them
			in.Keys = []string{"title:" + x.name}
			for _, s := range x.sources {
				in.Keys = append(in.Keys, "source:"+s)
			}
			if err := createIncident(f, in); err != nil {
				t.Fatal(err)
			}
			made[x.name] = in
		}
		of := func(names ...string) []vendors.Incident {
			out := make([]vendors.Incident, len(names))
			for i, n := range names {
				out[i] = made[n]
			}
			return out
		}
		ab := []uuid.UUID{vs[0].ID, vs[1].ID}
		all := search(f, vendors.IncidentQuery{VendorIDs: ab, Limit: 10})
		want := newestFirst(of("a0", "a1", "a2", "a3", "b1"))
		sameIDs(t, "all of two vendors", incidentIDs(all), want)
		equal(t, "newest", want[0], made["b1"].ID)
		equal(t, "oldest", want[4], made["a0"].ID)
		sameIncident(t, "searched", all[0], made["b1"])

		var paged []uuid.UUID
		q := vendors.IncidentQuery{VendorIDs: ab, Limit: 2}
		for page := 0; ; page++ {
			got := search(f, q)
			if len(got) == 0 {
				break
			}
			if page > 3 || len(got) > 2 {
				t.Fatalf("page %d: %d incidents, want at most 2 and 3 pages", page, len(got))
			}
			paged = append(paged, incidentIDs(got)...)
			q.After = cursorOf(got[len(got)-1])
		}
		sameIDs(t, "paged by 2", paged, want)
		q = vendors.IncidentQuery{VendorIDs: ab, Limit: 10, After: cursorOf(made["a2"])}
		sameIDs(t, "after a tie", incidentIDs(search(f, q)), want[slices.Index(want, made["a2"].ID)+1:])

		sameIDs(t, "high", incidentIDs(search(f, vendors.IncidentQuery{VendorIDs: ab, Severities: []string{"high"}, Limit: 10})),
			newestFirst(of("a1", "a3", "b1")))
		sameIDs(t, "from the news", incidentIDs(search(f, vendors.IncidentQuery{VendorIDs: ab, Sources: []string{"news"}, Limit: 10})),
			newestFirst(of("a0", "a1", "b1")))
		sameIDs(t, "critical or low from kev or the news", incidentIDs(search(f, vendors.IncidentQuery{VendorIDs: ab,
			Sources: []string{"kev", "news"}, Severities: []string{"critical", "low"}, Limit: 10})), newestFirst(of("a0", "a2")))
		sameIDs(t, "one vendor, limit 1", incidentIDs(search(f, vendors.IncidentQuery{VendorIDs: []uuid.UUID{vs[2].ID}, Limit: 1})),
			[]uuid.UUID{made["c1"].ID})
		equal(t, "no vendors", len(search(f, vendors.IncidentQuery{Limit: 10})), 0)
		equal(t, "limit 0", len(search(f, vendors.IncidentQuery{VendorIDs: ab})), 0)
		equal(t, "an unknown source", len(search(f, vendors.IncidentQuery{VendorIDs: ab, Sources: []string{"filing"}, Limit: 10})), 0)
	}},
}

func getSource(f *fixture, key string) (incidents.SourceState, error) {
	return loadErr(f, func(ctx context.Context, tx stores.Tx) (incidents.SourceState, error) {
		return tx.Sources().Get(ctx, key)
	})
}

func saveSource(f *fixture, s incidents.SourceState) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Sources().Save(ctx, s) })
}

func sameSource(t *testing.T, what string, got, want incidents.SourceState) {
	t.Helper()
	equal(t, what+": key", got.Key, want.Key)
	equal(t, what+": validators", got.Validators, want.Validators)
	equal(t, what+": polled", got.Polled, want.Polled)
	sameTime(t, what+": last polled", got.LastPolledAt, want.LastPolledAt)
	equal(t, what+": last result", got.LastResult, want.LastResult)
	equal(t, what+": last error", got.LastError, want.LastError)
}

var sourceStateCases = []testCase{
	{"Get before the first poll is not found; Save inserts then replaces", func(t *testing.T, f *fixture) {
		const kev, news = "kev https://kev.example/feed.json", "news https://news.example/rss"
		_, err := getSource(f, kev)
		wantErr(t, "Get before any Save", err, core.ErrNotFound)
		first := incidents.SourceState{Key: kev, LastPolledAt: f.tick(), LastResult: incidents.FetchError, LastError: "timeout"}
		saveSource(f, first)
		got, err := getSource(f, kev)
		if err != nil {
			t.Fatal(err)
		}
		sameSource(t, "first", got, first)
		next := incidents.SourceState{Key: kev, Validators: incidents.Validators{ETag: `"v2"`, LastModified: "Sun, 01 Mar 2026 12:00:00 GMT"},
			Polled: true, LastPolledAt: f.tick(), LastResult: incidents.FetchOK}
		saveSource(f, next)
		got, err = getSource(f, kev)
		if err != nil {
			t.Fatal(err)
		}
		sameSource(t, "replaced", got, next)
		_, err = getSource(f, news)
		wantErr(t, "another source", err, core.ErrNotFound)
		never := incidents.SourceState{Key: news, Validators: incidents.Validators{ETag: `W/"x"`}}
		saveSource(f, never)
		got, err = getSource(f, news)
		if err != nil {
			t.Fatal(err)
		}
		sameSource(t, "never polled", got, never)
		equal(t, "never polled: zero time", got.LastPolledAt.IsZero(), true)
	}},
}

func addPossible(f *fixture, p incidents.PossibleMatch) bool {
	f.t.Helper()
	var added bool
	f.write(func(ctx context.Context, tx stores.Tx) (err error) {
		added, err = tx.Possible().Add(ctx, p)
		return err
	})
	return added
}

func listPossible(f *fixture, status string, limit int) []uuid.UUID {
	f.t.Helper()
	got := load(f, func(ctx context.Context, tx stores.Tx) ([]incidents.PossibleMatch, error) {
		return tx.Possible().List(ctx, status, limit)
	})
	if got == nil {
		f.t.Fatalf("List %s: nil, want a non-nil slice", status)
	}
	return idsOf(got, func(p incidents.PossibleMatch) uuid.UUID { return p.ID })
}

func getPossible(f *fixture, id uuid.UUID) (incidents.PossibleMatch, error) {
	return loadErr(f, func(ctx context.Context, tx stores.Tx) (incidents.PossibleMatch, error) {
		return tx.Possible().Get(ctx, id)
	})
}

func samePossible(t *testing.T, what string, got, want incidents.PossibleMatch) {
	t.Helper()
	equal(t, what+": id", got.ID, want.ID)
	equal(t, what+": key", got.Key, want.Key)
	equal(t, what+": vendor name", got.VendorName, want.VendorName)
	equal(t, what+": status", got.Status, want.Status)
	sameTime(t, what+": created", got.CreatedAt, want.CreatedAt)
	sameTime(t, what+": decided", got.DecidedAt, want.DecidedAt)
	equal(t, what+": decided by", got.DecidedBy, want.DecidedBy)
	equal(t, what+": incident", got.IncidentID, want.IncidentID)
	sameIncident(t, what+": draft", got.Draft, want.Draft)
}

var possibleCases = []testCase{
	{"Add once per key, Get, List by status newest first, Save the decision", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		newPossible := func(key string, at time.Time) incidents.PossibleMatch {
			draft := f.newIncident(v.ID, key)
			draft.Match = &vendors.IncidentMatch{Rule: "name", MatchedText: "Acme", Confidence: 0.5}
			draft.Keys = []string{"url:https://news.example/" + key, "source:news"}
			return incidents.PossibleMatch{ID: newID(), Key: v.ID.String() + " " + key, VendorName: "Acme", Draft: draft,
				Status: incidents.PossiblePending, CreatedAt: at}
		}
		first := newPossible("a", f.tick())
		equal(t, "added", addPossible(f, first), true)
		again := newPossible("a", f.tick())
		equal(t, "added again by key", addPossible(f, again), false)
		_, err := getPossible(f, again.ID)
		wantErr(t, "the one not added", err, core.ErrNotFound)
		got, err := getPossible(f, first.ID)
		if err != nil {
			t.Fatal(err)
		}
		samePossible(t, "added", got, first)

		at := f.tick()
		second, third := newPossible("b", at), newPossible("c", at) // a tie on CreatedAt: the id orders them
		fourth := newPossible("d", f.tick())
		fourth.Status = incidents.PossibleDismissed
		for _, p := range []incidents.PossibleMatch{third, fourth, second} {
			equal(t, "added "+p.Key, addPossible(f, p), true)
		}
		tied := []uuid.UUID{second.ID, third.ID}
		slices.SortFunc(tied, func(a, b uuid.UUID) int { return bytes.Compare(b[:], a[:]) })
		want := append(slices.Clone(tied), first.ID)
		sameIDs(t, "pending", listPossible(f, incidents.PossiblePending, 10), want)
		sameIDs(t, "pending, 2", listPossible(f, incidents.PossiblePending, 2), want[:2])
		equal(t, "limit 0", len(listPossible(f, incidents.PossiblePending, 0)), 0)
		sameIDs(t, "dismissed", listPossible(f, incidents.PossibleDismissed, 10), []uuid.UUID{fourth.ID})
		equal(t, "confirmed", len(listPossible(f, incidents.PossibleConfirmed, 10)), 0)

		decided := first
		decided.Status, decided.DecidedAt, decided.DecidedBy, decided.IncidentID = incidents.PossibleConfirmed, f.tick(), "admin@example.com", first.Draft.ID
		decided.VendorName = "not stored by Save"
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Possible().Save(ctx, decided) })
		got, err = getPossible(f, first.ID)
		if err != nil {
			t.Fatal(err)
		}
		decided.VendorName = first.VendorName
		samePossible(t, "decided", got, decided)
		sameIDs(t, "confirmed", listPossible(f, incidents.PossibleConfirmed, 10), []uuid.UUID{first.ID})
		sameIDs(t, "pending after", listPossible(f, incidents.PossiblePending, 10), tied)

		absent := newPossible("e", f.tick())
		wantErr(t, "Save absent", f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Possible().Save(ctx, absent) }),
			core.ErrNotFound)
		_, err = getPossible(f, absent.ID)
		wantErr(t, "Get absent", err, core.ErrNotFound)
	}},
	{"Add refuses a possible match of a vendor not in the directory", func(t *testing.T, f *fixture) {
		draft := f.newIncident(newID(), "a")
		p := incidents.PossibleMatch{ID: newID(), Key: "unknown a", VendorName: "Unknown", Draft: draft,
			Status: incidents.PossiblePending, CreatedAt: f.tick()}
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			_, err := tx.Possible().Add(ctx, p)
			return err
		})
		wantErr(t, "Add of an unknown vendor", err, core.ErrNotFound)
		_, err = getPossible(f, p.ID)
		wantErr(t, "Get after", err, core.ErrNotFound)
	}},
}

var candidateCases = []testCase{
	{"All reads every vendor with its profile's aliases, legal name and primary product, by name", func(t *testing.T, f *fixture) {
		zeta := f.newVendor("Zeta", "https://www.zeta.io")
		zeta.Aliases = []string{"ZetaCo"}
		vs := f.ensure(f.newVendor("beta", ""), zeta, f.newVendor("Acme", ""))
		p := f.newProfile(vs[1].ID)
		p.Company.LegalName, p.Company.PrimaryProduct = "Zeta, Inc.", "Zeta Cloud"
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, p) })
		bare := f.newProfile(vs[0].ID)
		bare.Company.Alias = nil
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, bare) })

		got := load(f, func(ctx context.Context, tx stores.Tx) ([]incidents.Candidate, error) {
			return tx.Candidates().All(ctx)
		})
		equal(t, "candidates", len(got), 3)
		for i, want := range []incidents.Candidate{
			{ID: vs[2].ID, CanonicalName: "Acme", Aliases: []string{}, Products: []string{}},
			{ID: vs[1].ID, CanonicalName: "Zeta", Aliases: []string{"ZetaCo", "alias-one"}, LegalName: "Zeta, Inc.",
				Domain: vs[1].Domain, Products: []string{"Zeta Cloud"}},
			{ID: vs[0].ID, CanonicalName: "beta", Aliases: []string{}, Products: []string{}},
		} {
			c := got[i]
			equal(t, "id", c.ID, want.ID)
			equal(t, "name", c.CanonicalName, want.CanonicalName)
			sameStrings(t, want.CanonicalName+": aliases", c.Aliases, want.Aliases)
			equal(t, want.CanonicalName+": legal name", c.LegalName, want.LegalName)
			equal(t, want.CanonicalName+": domain", c.Domain, want.Domain)
			sameStrings(t, want.CanonicalName+": products", c.Products, want.Products)
			if c.Aliases == nil || c.Products == nil {
				t.Fatalf("%s: nil aliases or products, want empty slices", c.CanonicalName)
			}
		}
		equal(t, "a domain", vs[1].Domain != "", true)
	}}, {"Carrying reads every list carrying the vendor with the products it records for it", func(t *testing.T, f *fixture) {
		vs := f.vendors("Ivanti", "Okta")
		ivanti := vs[0]
		acme, globex := f.org("Acme"), f.org("Globex")
		infra, crit, theirs, other := f.list(acme.ID, "infra"), f.list(acme.ID, "Critical"), f.list(globex.ID, "Main"), f.list(globex.ID, "Okta only")
		f.onList(infra.ID, ivanti)
		f.onList(crit.ID, ivanti, vs[1])
		f.onList(theirs.ID, ivanti)
		f.onList(other.ID, vs[1])
		f.product(crit.ID, ivanti.ID, "Connect Secure")
		f.product(crit.ID, ivanti.ID, "EPMM")
		f.product(crit.ID, vs[1].ID, "Workforce Identity")
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]incidents.Carrier, error) {
			return tx.Candidates().Carrying(ctx, ivanti.ID)
		})
		want := map[uuid.UUID][]string{infra.ID: {}, crit.ID: {"Connect Secure", "EPMM"}, theirs.ID: {}}
		equal(t, "lists", len(got), 3)
		for _, c := range got {
			w, ok := want[c.ListID]
			if !ok {
				t.Fatalf("list %s (%s) does not carry Ivanti", c.ListName, c.ListID)
			}
			sameStrings(t, c.ListName+": products", c.Products, w)
			if c.Products == nil {
				t.Fatalf("%s: nil products", c.ListName)
			}
		}
		none := load(f, func(ctx context.Context, tx stores.Tx) ([]incidents.Carrier, error) {
			return tx.Candidates().Carrying(ctx, uuid.New())
		})
		equal(t, "lists of a vendor on none", len(none), 0)
	}},
}
