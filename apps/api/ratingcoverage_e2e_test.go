package api_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/apps/api/apitest"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestRatingCoverageOnTheWire: the rating history and the dashboard's
// rating changes answer each scan's checks_run and checks_total, and null
// for both for a scan recorded before the coverage was kept.
func TestRatingCoverageOnTheWire(t *testing.T) {
	t.Parallel()
	env := apitest.New(t)
	acct := env.NewAccount(t, "Acme", "owner@acme.test")
	owner := env.Token("owner@acme.test", apitest.Verified())
	env.SaveVendors(t, owner, acct, "Initech")
	var vendor struct {
		ID string `json:"id"`
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor/Initech", owner, nil), 200).JSON(t, &vendor)
	vid := uuid.MustParse(vendor.ID)
	drop := vendors.RatingChange{Kind: vendors.ChangeGradeDrop, Detail: "grade dropped from A to B"}
	rating, run, total := 85, 20, 26
	at := env.Clock.Now().Add(time.Hour) // newer than any scan of the enrichment
	old := vendors.RatingRecord{ID: uuid.New(), VendorID: vid, ScannedAt: at, Rating: &rating, Grade: "B",
		Findings: []vendors.RatingFinding{}, Changes: []vendors.RatingChange{drop}}
	covered := old
	covered.ID, covered.ScannedAt, covered.ChecksRun, covered.ChecksTotal = uuid.New(), at.Add(time.Minute), &run, &total
	if err := env.Store.InTx(context.Background(), func(ctx context.Context, tx stores.Tx) error {
		for _, r := range []vendors.RatingRecord{old, covered} {
			if err := tx.Profiles().AddRating(ctx, r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	coverage := func(what string, items []any) {
		t.Helper()
		if len(items) < 2 {
			t.Fatalf("%s: %d items, want the two scans first", what, len(items))
		}
		for i, want := range []struct {
			id       uuid.UUID
			run, tot any
		}{{covered.ID, float64(20), float64(26)}, {old.ID, nil, nil}} {
			m := items[i].(map[string]any)
			run, hasRun := m["checks_run"]
			tot, hasTot := m["checks_total"]
			if m["id"] != want.id.String() || !hasRun || !hasTot || run != want.run || tot != want.tot {
				t.Errorf("%s item %d: id %v checks_run %v (%v) checks_total %v (%v), want %v: %v of %v",
					what, i, m["id"], run, hasRun, tot, hasTot, want.id, want.run, want.tot)
			}
		}
	}
	var history struct {
		History []any `json:"history"`
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor/Initech/rating-history", owner, nil), 200).JSON(t, &history)
	coverage("rating history", history.History)
	var feed []any
	apitest.Must(t, env.Do(t, "GET", "/metrics/recent-rating-changes?account-id="+acct, owner, nil), 200).JSON(t, &feed)
	coverage("recent rating changes", feed)
}
