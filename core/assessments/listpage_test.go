package assessments_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// readFixture adds to the fixture's account the list Critical with
// Zoom, acme, Beta and Delta, their ratings, products, enrichment and
// alerts, and an assessment of Delta; it returns the list.
func readFixture(t *testing.T) (fixture, lists.ListRef) {
	t.Helper()
	f := newFixture(t)
	l := lists.List{ID: uuid.New(), AccountID: f.acc.ID, Name: "Critical"}
	rating := func(n int) *int { return &n }
	f.write(func(ctx context.Context, tx assessments.Tx) error {
		if err := tx.Lists().Create(ctx, l); err != nil {
			return err
		}
		for i, name := range []string{"Zoom", "acme", "Beta", "Delta"} {
			vs, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{{ID: uuid.New(), Name: vendors.Name(name)}})
			if err != nil {
				return err
			}
			v := vs[0].ID
			if err := tx.Lists().AddEntries(ctx, l.ID, []uuid.UUID{v}, clock{}.Now()); err != nil {
				return err
			}
			if err := tx.Lists().SetAlerts(ctx, l.ID, v, i%2 == 0); err != nil {
				return err
			}
			p := vendors.NewProfile(uuid.New(), v, clock{}.Now())
			switch name {
			case "Zoom":
				p.Scores.SecurityRating = rating(40)
			case "acme":
				p.Scores.SecurityRating = rating(90)
			case "Beta":
				p.Enrichment[vendors.SectionBasic] = vendors.SectionStatus{Status: "done"}
				if err := tx.Lists().AddProduct(ctx, lists.Product{ID: uuid.New(), ListID: l.ID, VendorID: v, Name: "Beta Chat", CreatedAt: clock{}.Now()}); err != nil {
					return err
				}
			case "Delta":
				// Last reviewed years ago: overdue under the default policy.
				a := assessments.Assessment{ID: uuid.New(), AccountID: f.acc.ID, ListID: l.ID, VendorID: v, LastReviewedAt: clock{}.Now().AddDate(-5, 0, 0)}
				if err := tx.Assessments().Save(ctx, []assessments.Assessment{a}); err != nil {
					return err
				}
				continue // no profile
			}
			if err := tx.Profiles().Save(ctx, p); err != nil {
				return err
			}
		}
		return nil
	})
	return f, lists.ListRef{ID: l.ID}
}

func names(p assessments.ListPage) string {
	out := make([]string, len(p.Rows))
	for i, r := range p.Rows {
		out[i] = r.VendorName
	}
	return strings.Join(out, ",")
}

func TestListReadShapes(t *testing.T) {
	t.Parallel()
	f, lr := readFixture(t)
	s, a, ref := f.s, f.viewr, f.ref
	ctx := context.Background()
	read := func(q assessments.ListQuery) assessments.ListPage {
		t.Helper()
		p, err := s.ListRead(ctx, a, ref, lr, q)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tt := range []struct {
		name string
		q    assessments.ListQuery
		want string
	}{
		{"by name, case-insensitive", assessments.ListQuery{}, "acme,Beta,Delta,Zoom"},
		{"best rating first, none last", assessments.ListQuery{Sort: "-rating"}, "acme,Zoom,Beta,Delta"},
		{"soonest review first, none last", assessments.ListQuery{Sort: "next_review_at"}, "Delta,acme,Beta,Zoom"},
		{"by status, not assessed last", assessments.ListQuery{Sort: "status"}, "Delta,acme,Beta,Zoom"},
		{"search in vendor and product names", assessments.ListQuery{Q: " chat "}, "Beta"},
		{"review states", assessments.ListQuery{ReviewStates: []string{"overdue"}}, "Delta"},
		{"never reviewed", assessments.ListQuery{ReviewStates: []string{"never_reviewed, current"}}, "acme,Beta,Zoom"},
		{"enrichment states", assessments.ListQuery{EnrichmentStates: []string{"none"}}, "acme,Delta,Zoom"},
		{"alerts on", assessments.ListQuery{Alerts: "true"}, "Beta,Zoom"},
		{"alerts off", assessments.ListQuery{Alerts: "false"}, "acme,Delta"},
	} {
		if got := names(read(tt.q)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}

	// Pages of two, walked with the cursor; rows carry their review and rating.
	p := read(assessments.ListQuery{Limit: 2, Sort: "-rating"})
	if names(p) != "acme,Zoom" || p.NextCursor == nil || *p.Rows[0].Rating != 90 {
		t.Fatalf("first page %s, next %v", names(p), p.NextCursor)
	}
	p = read(assessments.ListQuery{Limit: 2, Sort: "-rating", Cursor: p.NextCursor})
	if names(p) != "Beta,Delta" || p.NextCursor != nil || p.Rows[1].Assessment == nil {
		t.Fatalf("second page %s, next %v", names(p), p.NextCursor)
	}
	// Pages by name with nothing filtered are chosen from the keys.
	p = read(assessments.ListQuery{Limit: 2})
	if names(p) != "acme,Beta" || p.NextCursor == nil {
		t.Fatalf("first page by name %s, next %v", names(p), p.NextCursor)
	}
	p = read(assessments.ListQuery{Limit: 2, Cursor: p.NextCursor})
	if names(p) != "Delta,Zoom" || p.NextCursor != nil || p.Rows[0].Assessment == nil || *p.Rows[1].Rating != 40 {
		t.Fatalf("second page by name %s, next %v", names(p), p.NextCursor)
	}
	if !(assessments.ListQuery{Limit: 1}).Paged() || (assessments.ListQuery{ReviewStates: []string{" , "}}).Paged() {
		t.Error("Paged is wrong")
	}
}

// TestNamePageFillsWhatWasRemoved: a vendor taken off the list between the
// read of the keys and the read of the page's entries leaves no gap: the
// page is filled from the keys after it, so a full page still says the
// list goes on, and a walk by cursor sees every vendor that stayed.
func TestNamePageFillsWhatWasRemoved(t *testing.T) {
	t.Parallel()
	f, lr := readFixture(t) // acme, Beta, Delta, Zoom by name
	s, a, ref := f.s, f.viewr, f.ref
	ctx := context.Background()
	var beta vendors.Vendor
	f.read(func(ctx context.Context, tx assessments.Tx) (err error) {
		beta, err = tx.Vendors().GetByName(ctx, "Beta")
		return err
	})
	f.probe.gone = beta.ID
	p, err := s.ListRead(ctx, a, ref, lr, assessments.ListQuery{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if names(p) != "acme,Delta" || p.NextCursor == nil {
		t.Fatalf("first page by name with Beta removed meanwhile: %s, next %v", names(p), p.NextCursor)
	}
	// Three asked (a page of two and one more), Beta's missing: one more asked.
	if got := f.probe.asked(); !slices.Equal(got, []int{3, 1}) {
		t.Fatalf("EntriesOf asked for %v ids", got)
	}
	p, err = s.ListRead(ctx, a, ref, lr, assessments.ListQuery{Limit: 2, Cursor: p.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if names(p) != "Zoom" || p.NextCursor != nil {
		t.Fatalf("second page: %s, next %v", names(p), p.NextCursor)
	}
}

func TestListReadRefusesBadShapes(t *testing.T) {
	t.Parallel()
	f, lr := readFixture(t)
	s, a, ref := f.s, f.viewr, f.ref
	ctx := context.Background()
	other := assessments.Cursor{Sort: "name", ID: uuid.New()}
	_, err := s.ListRead(ctx, a, ref, lr, assessments.ListQuery{Sort: "size", ReviewStates: []string{"late"}, EnrichmentStates: []string{"maybe"},
		Alerts: "yes", Limit: assessments.MaxListPage + 1, Cursor: &assessments.Cursor{}})
	fields := map[string]bool{}
	for _, f := range core.Failures(err) {
		fields[f.Field] = true
	}
	for _, want := range []string{"ListQuery.Sort", "ListQuery.ReviewStates", "ListQuery.EnrichmentStates", "ListQuery.Alerts", "ListQuery.Limit", "ListQuery.Cursor"} {
		if !fields[want] {
			t.Errorf("no failure names %s (%v)", want, err)
		}
	}
	_, err = s.ListRead(ctx, a, ref, lr, assessments.ListQuery{Sort: "-rating", Cursor: &other})
	if e, ok := core.AsError(err); !ok || !strings.Contains(e.Error(), "was given for sort=name") {
		t.Fatalf("a cursor of another sort: %v", err)
	}
	if _, err := s.ListRead(ctx, accounts.Actor{UserID: uuid.New()}, ref, lr, assessments.ListQuery{}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("outsider: %v", err)
	}
}
