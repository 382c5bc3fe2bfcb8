package assessments

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/ports"
)

// readStore is one account with one list whose entries (with their
// ratings) and assessments a list read shapes.
type readStore struct {
	ports.UnitOfWork[Tx]
	acc     uuid.UUID
	user    uuid.UUID
	list    lists.List
	entries []lists.Entry
	asms    []Assessment
	// between, when set, runs once at the next EntriesOf; entriesOf
	// records how many ids each EntriesOf asked for.
	between   func()
	entriesOf []int
}

func (s *readStore) View(ctx context.Context, fn func(context.Context, Tx) error) error {
	return fn(ctx, readTx{s: s})
}

type readTx struct {
	Tx
	s *readStore
}

func (t readTx) Accounts() accounts.AccountRepo   { return readAccounts{s: t.s} }
func (t readTx) Lists() lists.ListRepo            { return readLists{s: t.s} }
func (t readTx) Assessments() AssessmentRepo      { return readAssessments{s: t.s} }
func (t readTx) ReviewPolicies() ReviewPolicyRepo { return noPolicy{} }

type readAccounts struct {
	accounts.AccountRepo
	s *readStore
}

func (r readAccounts) MembershipOf(_ context.Context, accountID, userID uuid.UUID) (accounts.Membership, error) {
	if accountID != r.s.acc || userID != r.s.user {
		return accounts.Membership{}, core.ErrNotFound
	}
	return accounts.Membership{Account: accounts.Account{ID: r.s.acc, Active: true}, Role: accounts.RoleViewer}, nil
}

type readLists struct {
	lists.ListRepo
	s *readStore
}

func (r readLists) Get(context.Context, uuid.UUID, uuid.UUID) (lists.List, error) {
	return r.s.list, nil
}
func (r readLists) Entries(context.Context, uuid.UUID) ([]lists.Entry, error) {
	return append([]lists.Entry(nil), r.s.entries...), nil
}
func (r readLists) EntryKeys(context.Context, uuid.UUID) ([]lists.EntryKey, error) {
	out := make([]lists.EntryKey, len(r.s.entries))
	for i, e := range r.s.entries {
		out[i] = lists.EntryKey{VendorName: e.VendorName, VendorID: e.VendorID}
	}
	return out, nil
}
func (r readLists) EntriesOf(_ context.Context, _ uuid.UUID, ids []uuid.UUID) ([]lists.Entry, error) {
	r.s.entriesOf = append(r.s.entriesOf, len(ids))
	if r.s.between != nil {
		r.s.between() // a write between the keys' read and this one
		r.s.between = nil
	}
	var out []lists.Entry
	for _, e := range r.s.entries {
		if slices.Contains(ids, e.VendorID) {
			out = append(out, e)
		}
	}
	return out, nil
}

type readAssessments struct {
	AssessmentRepo
	s *readStore
}

func (r readAssessments) ListByVendors(context.Context, uuid.UUID, []uuid.UUID) ([]Assessment, error) {
	return append([]Assessment(nil), r.s.asms...), nil
}

// readClock is the day the fixture's reads run on.
type readClock struct{}

func (readClock) Now() time.Time { return time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC) }

// noPolicy is an account that keeps the default review policy.
type noPolicy struct{ ReviewPolicyRepo }

func (noPolicy) Get(context.Context, uuid.UUID) (Policy, error) {
	return Policy{}, core.ErrNotFound
}

func readFixture() (*Service, *readStore, accounts.Actor) {
	st := &readStore{acc: uuid.New(), user: uuid.New()}
	st.list = lists.List{ID: uuid.New(), AccountID: st.acc, Name: "Critical"}
	rating := func(n int) *int { return &n }
	for i, name := range []string{"Zoom", "acme", "Beta", "Delta"} {
		e := lists.Entry{ListID: st.list.ID, VendorID: uuid.New(), VendorName: name, AlertsEnabled: i%2 == 0}
		if name == "Beta" {
			e.Products = []lists.Product{{Name: "Beta Chat"}}
			e.EnrichmentStatus = "done"
		}
		switch name {
		case "Zoom":
			e.Rating = rating(40)
		case "acme":
			e.Rating = rating(90)
		}
		st.entries = append(st.entries, e)
	}
	// Delta was last reviewed years ago: overdue under the default policy.
	st.asms = []Assessment{{ID: uuid.New(), VendorID: st.entries[3].VendorID,
		LastReviewedAt: readClock{}.Now().AddDate(-5, 0, 0)}}
	s := &Service{d: Deps{Unit: uow.Unit[Tx]{Store: st, Clock: readClock{}}}}
	return s, st, accounts.Actor{UserID: st.user}
}

func names(p ListPage) string {
	out := make([]string, len(p.Rows))
	for i, r := range p.Rows {
		out[i] = r.VendorName
	}
	return strings.Join(out, ",")
}

func TestListReadShapes(t *testing.T) {
	t.Parallel()
	s, st, a := readFixture()
	ctx := context.Background()
	ref, lr := accounts.AccountRef{ID: st.acc}, lists.ListRef{ID: st.list.ID}
	read := func(q ListQuery) ListPage {
		t.Helper()
		p, err := s.ListRead(ctx, a, ref, lr, q)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tt := range []struct {
		name string
		q    ListQuery
		want string
	}{
		{"by name, case-insensitive", ListQuery{}, "acme,Beta,Delta,Zoom"},
		{"best rating first, none last", ListQuery{Sort: "-rating"}, "acme,Zoom,Beta,Delta"},
		{"soonest review first, none last", ListQuery{Sort: "next_review_at"}, "Delta,acme,Beta,Zoom"},
		{"by status, not assessed last", ListQuery{Sort: "status"}, "Delta,acme,Beta,Zoom"},
		{"search in vendor and product names", ListQuery{Q: " chat "}, "Beta"},
		{"review states", ListQuery{ReviewStates: []string{"overdue"}}, "Delta"},
		{"never reviewed", ListQuery{ReviewStates: []string{"never_reviewed, current"}}, "acme,Beta,Zoom"},
		{"enrichment states", ListQuery{EnrichmentStates: []string{"none"}}, "acme,Delta,Zoom"},
		{"alerts on", ListQuery{Alerts: "true"}, "Beta,Zoom"},
		{"alerts off", ListQuery{Alerts: "false"}, "acme,Delta"},
	} {
		if got := names(read(tt.q)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}

	// Pages of two, walked with the cursor; rows carry their review and rating.
	p := read(ListQuery{Limit: 2, Sort: "-rating"})
	if names(p) != "acme,Zoom" || p.NextCursor == nil || *p.Rows[0].Rating != 90 {
		t.Fatalf("first page %s, next %v", names(p), p.NextCursor)
	}
	p = read(ListQuery{Limit: 2, Sort: "-rating", Cursor: p.NextCursor})
	if names(p) != "Beta,Delta" || p.NextCursor != nil || p.Rows[1].Assessment == nil {
		t.Fatalf("second page %s, next %v", names(p), p.NextCursor)
	}
	// Pages by name with nothing filtered are chosen from the keys.
	p = read(ListQuery{Limit: 2})
	if names(p) != "acme,Beta" || p.NextCursor == nil {
		t.Fatalf("first page by name %s, next %v", names(p), p.NextCursor)
	}
	p = read(ListQuery{Limit: 2, Cursor: p.NextCursor})
	if names(p) != "Delta,Zoom" || p.NextCursor != nil || p.Rows[0].Assessment == nil || *p.Rows[1].Rating != 40 {
		t.Fatalf("second page by name %s, next %v", names(p), p.NextCursor)
	}
	if !(ListQuery{Limit: 1}).Paged() || (ListQuery{ReviewStates: []string{" , "}}).Paged() {
		t.Error("Paged is wrong")
	}
}

// TestNamePageFillsWhatWasRemoved: a vendor taken off the list between the
// read of the keys and the read of the page's entries leaves no gap: the
// page is filled from the keys after it, so a full page still says the
// list goes on, and a walk by cursor sees every vendor that stayed.
func TestNamePageFillsWhatWasRemoved(t *testing.T) {
	t.Parallel()
	s, st, a := readFixture() // acme, Beta, Delta, Zoom by name
	ctx := context.Background()
	ref, lr := accounts.AccountRef{ID: st.acc}, lists.ListRef{ID: st.list.ID}
	st.between = func() {
		st.entries = slices.DeleteFunc(st.entries, func(e lists.Entry) bool { return e.VendorName == "Beta" })
	}
	p, err := s.ListRead(ctx, a, ref, lr, ListQuery{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if names(p) != "acme,Delta" || p.NextCursor == nil {
		t.Fatalf("first page by name with Beta removed meanwhile: %s, next %v", names(p), p.NextCursor)
	}
	// Three asked (a page of two and one more), Beta's missing: one more asked.
	if !slices.Equal(st.entriesOf, []int{3, 1}) {
		t.Fatalf("EntriesOf asked for %v ids", st.entriesOf)
	}
	p, err = s.ListRead(ctx, a, ref, lr, ListQuery{Limit: 2, Cursor: p.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if names(p) != "Zoom" || p.NextCursor != nil {
		t.Fatalf("second page: %s, next %v", names(p), p.NextCursor)
	}
}

func TestListReadRefusesBadShapes(t *testing.T) {
	t.Parallel()
	s, st, a := readFixture()
	ctx := context.Background()
	ref, lr := accounts.AccountRef{ID: st.acc}, lists.ListRef{ID: st.list.ID}
	other := Cursor{Sort: "name", ID: uuid.New()}
	_, err := s.ListRead(ctx, a, ref, lr, ListQuery{Sort: "size", ReviewStates: []string{"late"}, EnrichmentStates: []string{"maybe"},
		Alerts: "yes", Limit: MaxListPage + 1, Cursor: &Cursor{}})
	fields := map[string]bool{}
	for _, f := range core.Failures(err) {
		fields[f.Field] = true
	}
	for _, want := range []string{"ListQuery.Sort", "ListQuery.ReviewStates", "ListQuery.EnrichmentStates", "ListQuery.Alerts", "ListQuery.Limit", "ListQuery.Cursor"} {
		if !fields[want] {
			t.Errorf("no failure names %s (%v)", want, err)
		}
	}
	_, err = s.ListRead(ctx, a, ref, lr, ListQuery{Sort: "-rating", Cursor: &other})
	if e, ok := core.AsError(err); !ok || !strings.Contains(e.Error(), "was given for sort=name") {
		t.Fatalf("a cursor of another sort: %v", err)
	}
	if _, err := s.ListRead(ctx, accounts.Actor{UserID: uuid.New()}, ref, lr, ListQuery{}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("outsider: %v", err)
	}
}
