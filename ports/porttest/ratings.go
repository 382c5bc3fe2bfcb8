package porttest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// rating is a record of vendorID scanned at at, rated score on 20 of 26
// checks.
func (f *fixture) rating(vendorID uuid.UUID, score int, at time.Time, changes ...vendors.RatingChange) vendors.RatingRecord {
	exp := at.Add(10 * 24 * time.Hour)
	run, total := 20, 26
	return vendors.RatingRecord{ID: newID(), VendorID: vendorID, ScannedAt: at, Rating: &score, Grade: vendors.Grade(score),
		ChecksRun: &run, ChecksTotal: &total,
		Findings:      []vendors.RatingFinding{{Code: "hsts_missing", Severity: "medium", Title: "No HSTS"}},
		CertExpiresAt: &exp, Changes: changes}
}

func addRatings(f *fixture, rs ...vendors.RatingRecord) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx stores.Tx) error {
		for _, r := range rs {
			if err := tx.Profiles().AddRating(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
}

func ratingPage(f *fixture, vendorID uuid.UUID, after *vendors.RatingCursor, limit int) []vendors.RatingRecord {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.RatingRecord, error) {
		return tx.Profiles().Ratings(ctx, vendorID, after, limit)
	})
}

func ratingIDs(rs []vendors.RatingRecord) []uuid.UUID {
	out := make([]uuid.UUID, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

var ratingCases = []testCase{
	{"AddRating keeps every field and Ratings pages newest first", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		drop := vendors.RatingChange{Kind: vendors.ChangeGradeDrop, Detail: "grade dropped from A to C"}
		t1, t2 := f.tick(), f.tick()
		older, newer := f.rating(v.ID, 95, t1), f.rating(v.ID, 75, t2, drop)
		same := f.rating(v.ID, 70, t2)              // same time as newer: ordered by id
		same.ChecksRun, same.ChecksTotal = nil, nil // coverage unknown: kept unknown, not 0
		none := 0
		older.ChecksRun = &none // no check ran: kept as 0, not unknown
		addRatings(f, older, newer, same)
		all := ratingPage(f, v.ID, nil, 10)
		wantFirst, wantSecond := newer, same
		if same.ID.String() > newer.ID.String() {
			wantFirst, wantSecond = same, newer
		}
		if !reflect.DeepEqual(ratingIDs(all), []uuid.UUID{wantFirst.ID, wantSecond.ID, older.ID}) {
			t.Fatalf("order %v", ratingIDs(all))
		}
		for _, got := range all {
			for _, want := range []vendors.RatingRecord{older, newer, same} {
				if got.ID == want.ID && !reflect.DeepEqual(got, want) {
					t.Fatalf("round trip:\n got %+v\nwant %+v", got, want)
				}
			}
		}
		page := ratingPage(f, v.ID, nil, 2)
		last := page[len(page)-1]
		rest := ratingPage(f, v.ID, &vendors.RatingCursor{At: last.ScannedAt, ID: last.ID}, 2)
		if len(page) != 2 || len(rest) != 1 || rest[0].ID != older.ID {
			t.Fatalf("pages %v then %v", ratingIDs(page), ratingIDs(rest))
		}
		if other := ratingPage(f, f.vendors("Other")[0].ID, nil, 10); len(other) != 0 || other == nil {
			t.Fatalf("another vendor's history: %v", other)
		}
	}},
	{"GetRating and RatingEvents return the records with a change", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Globex", "Initech")
		expiring := vendors.RatingChange{Kind: vendors.ChangeCertExpiring, Detail: "the certificate expires soon"}
		quiet := f.rating(vs[0].ID, 95, f.tick())
		e1 := f.rating(vs[0].ID, 95, f.tick(), expiring)
		e2 := f.rating(vs[1].ID, 80, f.tick(), expiring)
		e3 := f.rating(vs[2].ID, 80, f.tick(), expiring)
		addRatings(f, quiet, e1, e2, e3)
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.RatingRecord, error) {
			return tx.Profiles().RatingEvents(ctx, []uuid.UUID{vs[0].ID, vs[1].ID}, 10)
		})
		if !reflect.DeepEqual(ratingIDs(got), []uuid.UUID{e2.ID, e1.ID}) {
			t.Fatalf("events %v, want %v", ratingIDs(got), []uuid.UUID{e2.ID, e1.ID})
		}
		one := load(f, func(ctx context.Context, tx stores.Tx) (vendors.RatingRecord, error) {
			return tx.Profiles().GetRating(ctx, e1.ID)
		})
		if !reflect.DeepEqual(one, e1) {
			t.Fatalf("GetRating %+v, want %+v", one, e1)
		}
		_, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (vendors.RatingRecord, error) {
			return tx.Profiles().GetRating(ctx, newID())
		})
		if !errors.Is(err, core.ErrNotFound) {
			t.Fatalf("GetRating of an unknown id: %v", err)
		}
		if err := f.try(func(ctx context.Context, tx stores.Tx) error {
			return tx.Profiles().AddRating(ctx, f.rating(newID(), 50, f.tick()))
		}); !errors.Is(err, core.ErrNotFound) && !errors.Is(err, core.ErrConflict) {
			t.Fatalf("AddRating of an unknown vendor: %v", err)
		}
	}},
	{"a profile keeps its website source and discovery evidence", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		p := f.newProfile(v.ID)
		p.WebsiteSource = vendors.WebsiteDiscovered
		p.Discovery = &vendors.WebsiteDiscovery{Website: "https://acme.io/", Domain: "acme.io", Confidence: 0.9, Threshold: 0.7,
			MatchText: "Acme", MatchSource: "title", Elapsed: 1500 * time.Millisecond, At: f.tick(),
			Candidates: []vendors.WebsiteCandidate{
				{Domain: "acme.com", Verdict: "parked", Reason: "parked at ns1.sedoparking.com"},
				{Domain: "acme.io", URL: "https://acme.io/", Verdict: "kept", Reason: `title "Acme"`, Confidence: 0.9,
					MatchText: "Acme", MatchSource: "title", Chosen: true}}}
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, p) })
		got, err := getProfile(f, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.WebsiteSource != p.WebsiteSource || !reflect.DeepEqual(got.Discovery, p.Discovery) {
			t.Fatalf("website %q %+v, want %q %+v", got.WebsiteSource, got.Discovery, p.WebsiteSource, p.Discovery)
		}
		p.WebsiteSource, p.Discovery = vendors.WebsiteGiven, nil
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, p) })
		if got, _ = getProfile(f, v.ID); got.WebsiteSource != vendors.WebsiteGiven || got.Discovery != nil {
			t.Fatalf("after the update: %q %+v", got.WebsiteSource, got.Discovery)
		}
	}},
}
