package vendors_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
)

// TestNewNamesMissingDependencies: a service without its enricher or
// incident source is refused at wiring, naming what is missing.
func TestNewNamesMissingDependencies(t *testing.T) {
	t.Parallel()
	_, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: newDir(t), Clock: clock{}, IDs: ports.UUIDv7{}}})
	if err == nil || !strings.Contains(err.Error(), "Enricher") || !strings.Contains(err.Error(), "Incidents") {
		t.Fatalf("New without enricher and incidents: %v", err)
	}
}

// TestRatingHistory: pages are newest first and bounded; a full page
// carries the cursor of its last record, the last page none; a limit out
// of range, a zero cursor or an unknown vendor are refused.
func TestRatingHistory(t *testing.T) {
	t.Parallel()
	acme, other := vendor("Acme", "https://acme.test"), vendor("Other", "")
	d := newDir(t, acme, other)
	base := clock{}.Now()
	d.write(func(ctx context.Context, tx vendors.Tx) error {
		for i := range 3 {
			if err := tx.Profiles().AddRating(ctx, vendors.RatingRecord{ID: uuid.New(), VendorID: acme.ID, ScannedAt: base.Add(time.Duration(i) * time.Hour), Grade: "B"}); err != nil {
				return err
			}
		}
		return tx.Profiles().AddRating(ctx, vendors.RatingRecord{ID: uuid.New(), VendorID: other.ID, ScannedAt: base})
	})
	ratings := d.ratings(acme.ID)
	s := newService(t, d)
	ctx := context.Background()

	v, page, next, err := s.RatingHistory(ctx, accounts.Actor{}, ref(t, "Acme"), nil, 0)
	if err != nil || v.ID != acme.ID || len(page) != 3 || next != nil {
		t.Fatalf("default page: %v %d records, next %v, %v", v.ID, len(page), next, err)
	}
	if page[0].ID != ratings[2].ID || page[2].ID != ratings[0].ID {
		t.Fatalf("page is not newest first: %v", page)
	}

	_, page, next, err = s.RatingHistory(ctx, accounts.Actor{}, ref(t, acme.ID.String()), nil, 2)
	if err != nil || len(page) != 2 || next == nil {
		t.Fatalf("page of 2: %d records, next %v, %v", len(page), next, err)
	}
	if next.ID != page[1].ID || !next.At.Equal(page[1].ScannedAt) {
		t.Fatalf("next cursor %+v, want the last record of the page %+v", next, page[1])
	}

	for _, limit := range []int{-1, vendors.MaxRatingPage + 1} {
		_, _, _, err := s.RatingHistory(ctx, accounts.Actor{}, ref(t, "Acme"), nil, limit)
		if f := core.Failures(err); !errors.Is(err, core.ErrInvalid) || len(f) != 1 || f[0].Field != "RatingQuery.Limit" {
			t.Errorf("limit %d: %v", limit, err)
		}
	}
	_, _, _, err = s.RatingHistory(ctx, accounts.Actor{}, ref(t, "Acme"), &vendors.RatingCursor{At: base}, 10)
	if f := core.Failures(err); !errors.Is(err, core.ErrInvalid) || len(f) != 1 || f[0].Field != "RatingQuery.Cursor" {
		t.Errorf("zero cursor: %v", err)
	}
	if _, _, _, err := s.RatingHistory(ctx, accounts.Actor{}, ref(t, "Globex"), nil, 10); !errors.Is(err, core.ErrNotFound) {
		t.Errorf("unknown vendor: %v", err)
	}
}

// TestPolledIncidentIsAWebhookEvent: a live incident found by the poll is
// one incident.created event for its vendor, in the unit of work that
// stores it, with the fan-out job; a backfilled one is neither.
func TestPolledIncidentIsAWebhookEvent(t *testing.T) {
	t.Parallel()
	acme := vendor("Acme", "https://acme.test")
	d := newDir(t, acme)
	var hooks []domainevent.Event
	record := func(_ context.Context, _ vendors.Tx, ev domainevent.Event) error {
		hooks = append(hooks, ev)
		return nil
	}
	s, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: d, Clock: clock{}, IDs: ports.UUIDv7{}, Events: record},
		Enricher: enricher{}, Incidents: incidents{titles: []string{"outage"}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.PollIncidents(ctx); err != nil {
		t.Fatal(err)
	}
	ins := d.incidents(acme.ID)
	if len(ins) != 1 || ins[0].Backfilled {
		t.Fatalf("incidents %+v", ins)
	}
	in := ins[0]
	if len(hooks) != 1 || hooks[0].Type != domainevent.IncidentCreated || !hooks[0].ForVendor() || hooks[0].Data.IncidentID != in.ID ||
		hooks[0].Data.VendorID != acme.ID || hooks[0].Data.VendorName != "Acme" || hooks[0].Data.Title != "outage" {
		t.Fatalf("webhook events %+v", hooks)
	}
	if got := d.kinds(); len(got) != 1 || got[0] != outbox.KindIncidentFanout {
		t.Fatalf("outbox %v", got)
	}

	// A backfill of the same vendor with a new title stores it as history:
	// no alert, no webhook event.
	hooks = nil
	d.clearOutbox()
	s2, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: d, Clock: clock{}, IDs: ports.UUIDv7{}, Events: record},
		Enricher: enricher{}, Incidents: incidents{titles: []string{"old breach"}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s2.StartBackfill(ctx, admin, []vendors.Ref{ref(t, "Acme")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.RunBackfill(ctx, outbox.Backfill{RunID: r.ID}); err != nil {
		t.Fatal(err)
	}
	ins = d.incidents(acme.ID)
	backfilled := slices.IndexFunc(ins, func(in vendors.Incident) bool { return in.Backfilled })
	if len(ins) != 2 || backfilled < 0 || ins[backfilled].Title != "old breach" || len(hooks) != 0 || len(d.kinds()) != 1 || d.kinds()[0] != outbox.KindBackfill {
		t.Fatalf("backfill: incidents %+v, hooks %+v, outbox %v", ins, hooks, d.kinds())
	}
}

// TestBackfillWholeDirectory: only platform admins backfill; naming no
// vendor backfills every one, a job each with the count it created; a run
// that is gone ends quietly, and a run run again keeps its finished jobs.
func TestBackfillWholeDirectory(t *testing.T) {
	t.Parallel()
	acme, beta := vendor("Acme", "https://acme.test"), vendor("Beta", "")
	d := newDir(t, acme, beta)
	s := newService(t, d)
	ctx := context.Background()
	if _, err := s.StartBackfill(ctx, accounts.Actor{Email: "user@vetted.test"}, nil, nil); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("a non-admin backfilled: %v", err)
	}
	since := clock{}.Now().AddDate(-1, 0, 0)
	r, err := s.StartBackfill(ctx, admin, nil, &since)
	if err != nil || len(r.Jobs) != 2 {
		t.Fatalf("backfill all: %+v, %v", r, err)
	}
	if p, ok := d.outbox()[0].Payload.(outbox.Backfill); !ok || p.RunID != r.ID || p.Since == nil || !p.Since.Equal(since) {
		t.Fatalf("queued %+v", d.outbox()[0].Payload)
	}
	if err := s.RunBackfill(ctx, outbox.Backfill{RunID: uuid.New()}); err != nil {
		t.Fatalf("a run that is gone: %v", err)
	}
	if err := s.RunBackfill(ctx, outbox.Backfill{RunID: r.ID, Since: &since}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Run(ctx, admin, vendors.RunBackfill, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range got.Jobs {
		if j.Status != vendors.RunDone || j.Created != 1 {
			t.Errorf("job %+v, want done with 1 created", j)
		}
	}
	// Run again (a retried message), the done jobs are not redone: their
	// counts stay what the first pass found.
	if err := s.RunBackfill(ctx, outbox.Backfill{RunID: r.ID}); err != nil {
		t.Fatal(err)
	}
	again, _ := s.Run(ctx, admin, vendors.RunBackfill, r.ID)
	for _, j := range again.Jobs {
		if j.Status != vendors.RunDone || j.Created != 1 {
			t.Errorf("job after a retry %+v", j)
		}
	}
}

// TestUnratedScanIsPartial: a scan none of whose checks could run leaves
// no grade; the scores section fails, so the job is done but partial,
// and the operator log says so at INFO, naming the vendor.
func TestUnratedScanIsPartial(t *testing.T) {
	t.Parallel()
	acme := vendor("Acme", "https://acme.test")
	d := newDir(t, acme)
	// Every check of the catalog recorded that it could not run (a site
	// that refused the scanner).
	var is []vendors.SecurityInstance
	for _, c := range vendors.Checks() {
		is = append(is, vendors.SecurityInstance{Code: c.Name + vendors.NotCheckedSuffix, Severity: "info", Title: c.Title, Kind: "signal", Category: c.Category})
	}
	expires := ""
	var logs bytes.Buffer
	s, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: d, Clock: clock{}, IDs: ports.UUIDv7{}},
		Enricher: scanner{is: &is, expires: &expires}, Incidents: incidents{}, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	r := enrichAll(t, s, d, "Acme")
	prof, _ := d.profile(acme.ID)
	st := prof.Enrichment[vendors.SectionScores]
	if st.Status != vendors.RunFailed || st.Error == "" {
		t.Fatalf("scores %+v, want failed with a reason", st)
	}
	var grc []vendors.GRCAssessment
	d.read(func(ctx context.Context, tx vendors.Tx) (err error) {
		grc, err = tx.Profiles().GRCAssessments(ctx, acme.ID)
		return err
	})
	if len(grc) != 0 {
		t.Fatalf("an unrated scan kept a GRC assessment: %+v", grc)
	}
	if j := r.Jobs[0]; j.Status != vendors.RunDone || j.Error == "" {
		t.Fatalf("job %+v, want done with the scores' reason", j)
	}
	if out := logs.String(); !strings.Contains(out, "level=INFO") || !strings.Contains(out, "enrichment partly failed") || !strings.Contains(out, "vendor=Acme") {
		t.Fatalf("log %q", out)
	}
}
