// Package porttest is the conformance suite of stores.Store: every store
// adapter runs it from its own tests, so that the memory store the unit tests
// use and the PostgreSQL store production uses keep exactly the same rules.
//
// The suite builds its fixtures through the core constructors and checks
// each repository method against its doc comment in package ports: results,
// orderings, the core.ErrNotFound and core.ErrConflict cases, cascades,
// rollback of failed units of work, isolation of returned values and
// behaviour under concurrent units of work.
//
// Times used by the suite are whole seconds in UTC, so stores that keep
// microseconds (PostgreSQL) round-trip them exactly; times are compared with
// time.Time.Equal, never with ==.
package porttest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/internal/testenv"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Run runs the conformance suite against the store that open returns.
// Every subtest calls open once and expects an empty store that no other
// call shares: subtests run in parallel. open may register cleanups on t.
func Run(t *testing.T, open func(t *testing.T) stores.Store) {
	groups := []struct {
		name  string
		cases []testCase
	}{
		{"UnitOfWork", unitOfWorkCases},
		{"Users", userCases},
		{"Accounts", accountCases},
		{"Members", memberCases},
		{"Vendors", vendorCases},
		{"Profiles", profileCases},
		{"Ratings", ratingCases},
		{"Lists", listCases},
		{"Counts", countCases},
		{"Quota", quotaCases},
		{"Assessments", assessmentCases},
		{"Lifecycle", lifecycleCases},
		{"Documents", documentCases},
		{"Subscribers", subscriberCases},
		{"Incidents", incidentCases},
		{"IncidentMerge", incidentMergeCases},
		{"SourceStates", sourceStateCases},
		{"PossibleMatches", possibleCases},
		{"Candidates", candidateCases},
		{"Deliveries", deliveryCases},
		{"Reminders", reminderCases},
		{"Webhooks", webhookCases},
		{"Records", recordCases},
		{"Contracts", contractCases},
		{"Attestations", attestationCases},
		{"Runs", runCases},
		{"Outbox", outboxCases},
		{"CaseFolding", foldingCases},
		{"Isolation", isolationCases},
		{"Misuse", misuseCases},
		{"Concurrency", concurrencyCases},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			for _, c := range g.cases {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					c.run(t, newFixture(t, open(t)))
				})
			}
		})
	}
}

// testCase is one subtest: a name saying the rule it checks, and the check.
type testCase struct {
	name string
	run  func(t *testing.T, f *fixture)
}

// txFn is the body of a unit of work.
type txFn = func(ctx context.Context, tx stores.Tx) error

// fixture is one subtest's (or benchmark's) store with a clock and fixture
// builders.
type fixture struct {
	t   testing.TB
	s   stores.Store
	ctx context.Context
	now time.Time
}

func newFixture(t testing.TB, s stores.Store) *fixture {
	if s == nil {
		t.Fatal("open returned a nil store")
	}
	// The clock starts through VETTED_TEST_CLOCK_SHIFT: a store that dated
	// anything by the real clock instead of the one given would show.
	return &fixture{t: t, s: s, ctx: t.Context(), now: testenv.ClockStart(t, time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))}
}

// tick advances the fixture clock by one second and returns the new time,
// so rows made one after another have distinct, ordered times.
func (f *fixture) tick() time.Time {
	f.now = f.now.Add(time.Second)
	return f.now
}

func newID() uuid.UUID { return uuid.Must(uuid.NewV7()) }

// write runs fn in one unit of work and fails the test if it fails.
func (f *fixture) write(fn txFn) {
	f.t.Helper()
	if err := f.s.InTx(f.ctx, fn); err != nil {
		f.t.Fatalf("InTx: %v", err)
	}
}

// try runs fn in one unit of work and returns its error.
func (f *fixture) try(fn txFn) error {
	return f.s.InTx(f.ctx, fn)
}

// read runs fn in a read-only unit of work and fails the test if it fails.
func (f *fixture) read(fn txFn) {
	f.t.Helper()
	if err := f.s.View(f.ctx, fn); err != nil {
		f.t.Fatalf("View: %v", err)
	}
}

// load reads one value in a View and fails the test on error.
func load[T any](f *fixture, fn func(ctx context.Context, tx stores.Tx) (T, error)) T {
	f.t.Helper()
	v, err := loadErr(f, fn)
	if err != nil {
		f.t.Fatalf("View: %v", err)
	}
	return v
}

// loadErr reads one value in a View and returns the error.
func loadErr[T any](f *fixture, fn func(ctx context.Context, tx stores.Tx) (T, error)) (T, error) {
	var v T
	err := f.s.View(f.ctx, func(ctx context.Context, tx stores.Tx) error {
		var err error
		v, err = fn(ctx, tx)
		return err
	})
	return v, err
}

// wantErr fails unless err wraps target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: got error %v, want one wrapping %q", what, err, target)
	}
}

// equal fails unless got == want.
func equal[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

// sameTime fails unless got and want are the same instant.
func sameTime(t *testing.T, what string, got, want time.Time) {
	t.Helper()
	if !got.Equal(want) {
		t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

// sameStrings fails unless got and want hold the same strings in order
// (nil and empty are the same).
func sameStrings[T ~string](t *testing.T, what string, got, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %q, want %q", what, got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: got %q, want %q", what, got, want)
		}
	}
}

// idsOf maps rows to their ids.
func idsOf[T any](rows []T, id func(T) uuid.UUID) []uuid.UUID {
	out := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		out[i] = id(r)
	}
	return out
}

// sameIDs fails unless got and want hold the same ids in the same order.
func sameIDs(t *testing.T, what string, got, want []uuid.UUID) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d ids %v, want %d ids %v", what, len(got), got, len(want), want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: got %v, want %v (in this order)", what, got, want)
		}
	}
}

// sameIDSet fails unless got and want hold the same ids in any order.
func sameIDSet(t *testing.T, what string, got, want []uuid.UUID) {
	t.Helper()
	count := map[uuid.UUID]int{}
	for _, id := range got {
		count[id]++
	}
	for _, id := range want {
		count[id]--
	}
	for id, n := range count {
		if n != 0 {
			t.Fatalf("%s: got %v, want %v (any order); %v differs", what, got, want, id)
		}
	}
}
