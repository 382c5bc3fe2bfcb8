package assessments

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// List read bounds.
const (
	MaxListPage = 500
)

// ListSorts are the orders of a list read.
func ListSorts() []string { return []string{"name", "-rating", "next_review_at", "status"} }

// EnrichmentStates are the values of the enrichment-state filter ("none":
// no profile or no section state yet; "needs_website": known by name only,
// and website discovery found no site).
func EnrichmentStates() []string {
	return []string{"none", "queued", "running", vendors.StatusNeedsWebsite, "failed", "done"}
}

// ListQuery shapes a list read. The zero query reads the whole list.
type ListQuery struct {
	Limit int
	// Cursor is the NextCursor of the previous page. apps/api encodes it
	// for the wire; a cursor it could not decode is the zero Cursor, which
	// no page gives and which is refused here.
	Cursor           *Cursor
	Q                string
	Sort             string
	ReviewStates     []string
	EnrichmentStates []string
	Alerts           string // "", "true" or "false"
}

// Paged reports whether any shaping parameter was given.
func (q ListQuery) Paged() bool {
	return q.Limit != 0 || q.Cursor != nil || q.Q != "" || q.Sort != "" || len(nonBlank(q.ReviewStates)) > 0 ||
		len(nonBlank(q.EnrichmentStates)) > 0 || q.Alerts != ""
}

func nonBlank(vs []string) []string {
	var out []string
	for _, v := range vs {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// ListRow is an entry of a list read with its review and rating.
type ListRow struct {
	lists.Entry
	// Assessment is nil when the vendor has none on the list.
	Assessment *Assessment
	Rating     *int
}

// ListPage is one answer of a shaped list read.
type ListPage struct {
	List lists.List
	Rows []ListRow
	// NextCursor is nil on the last page.
	NextCursor *Cursor
}

// Cursor is the position after which a page starts: the sort, the last
// row's sort value, name and vendor id (keyset, so that inserts and
// deletes elsewhere in the list never shift a page).
type Cursor struct {
	Sort string
	Num  int64
	Name string
	ID   uuid.UUID
}

type listView struct {
	sort   string
	states []State
	enrich []string
	alerts *bool
	q      string
	limit  int
	after  *Cursor
}

func parseListQuery(q ListQuery) (listView, error) {
	var errs core.Fields
	v := listView{sort: cmp.Or(strings.TrimSpace(q.Sort), "name"), q: strings.ToLower(strings.TrimSpace(q.Q)), limit: q.Limit}
	if !slices.Contains(ListSorts(), v.sort) {
		errs.Add("ListQuery.Sort", "%q is not one of: %s", v.sort, strings.Join(ListSorts(), ", "))
	}
	for _, s := range nonBlank(q.ReviewStates) {
		st, err := ParseState("ListQuery.ReviewStates", s)
		if !errs.AddErr(err) {
			v.states = append(v.states, st)
		}
	}
	for _, s := range nonBlank(q.EnrichmentStates) {
		if !slices.Contains(EnrichmentStates(), s) {
			errs.Add("ListQuery.EnrichmentStates", "%q is not one of: %s", s, strings.Join(EnrichmentStates(), ", "))
			continue
		}
		v.enrich = append(v.enrich, s)
	}
	if a := strings.TrimSpace(q.Alerts); a != "" {
		b, err := strconv.ParseBool(a)
		if err != nil || (a != "true" && a != "false") {
			errs.Add("ListQuery.Alerts", "%q is not one of: true, false", a)
		} else {
			v.alerts = &b
		}
	}
	if q.Limit < 0 || q.Limit > MaxListPage {
		errs.Add("ListQuery.Limit", "must be between 1 and %d", MaxListPage)
	}
	if lc := q.Cursor; lc != nil {
		switch {
		case lc.ID == uuid.Nil:
			errs.Add("ListQuery.Cursor", "is not a cursor this API gave")
		case lc.Sort != v.sort:
			errs.Add("ListQuery.Cursor", "was given for sort=%s, not sort=%s", lc.Sort, v.sort)
		default:
			v.after = lc
		}
	}
	return v, errs.Err()
}

// ListRead reads one list shaped by q (viewer or above): filtered by the
// search text (vendor and product names, case-insensitive), review states,
// enrichment states and alerts, in one of ListSorts, and cut to pages of
// q.Limit after q.Cursor when a limit is given.
func (s *Service) ListRead(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, lr lists.ListRef, q ListQuery) (ListPage, error) {
	v, err := parseListQuery(q)
	if err != nil {
		return ListPage{}, err
	}
	var out ListPage
	var rows []ListRow
	err = s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, l, err := lists.AccountList(ctx, tx, a, ref, accounts.ReadRole, lr, false)
		if err != nil {
			return err
		}
		out.List = l
		var es []lists.Entry
		if v.pageByName() {
			es, err = v.namePage(ctx, tx, l.ID)
		} else {
			es, err = tx.Lists().Entries(ctx, l.ID)
		}
		if err != nil {
			return err
		}
		rows = make([]ListRow, 0, len(es))
		ids := make([]uuid.UUID, 0, len(es))
		for _, e := range es {
			rows = append(rows, ListRow{Entry: e})
			ids = append(ids, e.VendorID)
		}
		as, err := tx.Assessments().ListByVendors(ctx, l.ID, ids)
		if err != nil {
			return err
		}
		if err := s.Schedule(ctx, tx, acc.Account.ID, as); err != nil {
			return err
		}
		byVendor := make(map[uuid.UUID]*Assessment, len(as))
		for i := range as {
			byVendor[as[i].VendorID] = &as[i]
		}
		for i := range rows {
			rows[i].Assessment, rows[i].Rating = byVendor[rows[i].VendorID], rows[i].Entry.Rating
		}
		return nil
	})
	if err != nil {
		return ListPage{}, err
	}
	rows = slices.DeleteFunc(rows, func(r ListRow) bool { return !v.keep(r) })
	slices.SortStableFunc(rows, func(x, y ListRow) int { return v.compare(v.key(x), v.key(y)) })
	if v.after != nil {
		after := *v.after
		start, _ := slices.BinarySearchFunc(rows, after, func(r ListRow, c Cursor) int {
			return cmp.Or(v.compare(v.key(r), c), -1) // the cursor's own row is before the page
		})
		rows = rows[start:]
	}
	if v.limit > 0 && len(rows) > v.limit {
		rows = rows[:v.limit]
		next := v.key(rows[len(rows)-1])
		out.NextCursor = &next
	}
	out.Rows = rows
	return out, nil
}

// pageByName reports whether a page can be chosen from the entries' keys
// alone: by name, with nothing to filter on, and a page size given.
func (v listView) pageByName() bool {
	return v.limit > 0 && v.sort == "name" && v.q == "" && len(v.states) == 0 && len(v.enrich) == 0 && v.alerts == nil
}

// namePage reads the entries of one page by name, and one more when the
// list goes on (so that the caller knows to give a cursor): the keys of the
// whole list are ordered here, whole entries are read for the page only.
// A list of 5,000 vendors costs 101 entries, not 5,000.
//
// The keys and the entries are two reads: a vendor taken off the list
// between them has no entry, and a page left short by it would read as the
// last one (a walk would end early). So the page is filled from the keys
// after it until it is whole or the keys run out: the page is the list as
// it was when its keys were read, less the vendors removed since.
func (v listView) namePage(ctx context.Context, tx Tx, listID uuid.UUID) ([]lists.Entry, error) {
	keys, err := tx.Lists().EntryKeys(ctx, listID)
	if err != nil {
		return nil, err
	}
	at := func(k lists.EntryKey) Cursor { return Cursor{Sort: v.sort, Name: k.VendorName, ID: k.VendorID} }
	slices.SortFunc(keys, func(a, b lists.EntryKey) int { return v.compare(at(a), at(b)) })
	if v.after != nil {
		start, _ := slices.BinarySearchFunc(keys, *v.after, func(k lists.EntryKey, c Cursor) int {
			return cmp.Or(v.compare(at(k), c), -1) // the cursor's own row is before the page
		})
		keys = keys[start:]
	}
	want := v.limit + 1
	var out []lists.Entry
	for len(out) < want && len(keys) > 0 {
		next := keys[:min(len(keys), want-len(out))]
		keys = keys[len(next):]
		ids := make([]uuid.UUID, len(next))
		for i, k := range next {
			ids[i] = k.VendorID
		}
		es, err := tx.Lists().EntriesOf(ctx, listID, ids)
		if err != nil {
			return nil, err
		}
		out = append(out, es...)
	}
	return out, nil
}

// key is the sort position of a row.
func (v listView) key(r ListRow) Cursor {
	c := Cursor{Sort: v.sort, Name: r.VendorName, ID: r.VendorID}
	switch v.sort {
	case "-rating":
		c.Num = -1 // no rating: last
		if r.Rating != nil {
			c.Num = int64(*r.Rating)
		}
		c.Num = -c.Num
	case "next_review_at":
		c.Num = math.MaxInt64 // never reviewed or not assessed: last
		if r.Assessment != nil && !r.Assessment.Due.NextReviewAt.IsZero() {
			c.Num = r.Assessment.Due.NextReviewAt.Unix()
		}
	case "status":
		c.Num = int64(len(StatusValues())) // not assessed: last
		if r.Assessment != nil {
			c.Num = int64(slices.Index(StatusValues(), string(r.Assessment.Status)))
		}
	}
	return c
}

func (listView) compare(a, b Cursor) int {
	return cmp.Or(cmp.Compare(a.Num, b.Num), cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)),
		cmp.Compare(a.Name, b.Name), slices.Compare(a.ID[:], b.ID[:]))
}

// keep applies the search text and the filters.
func (v listView) keep(r ListRow) bool {
	if v.q != "" && !strings.Contains(strings.ToLower(r.VendorName), v.q) && !strings.Contains(strings.ToLower(r.DisplayName), v.q) &&
		!slices.ContainsFunc(r.Products, func(p lists.Product) bool { return strings.Contains(strings.ToLower(p.Name), v.q) }) {
		return false
	}
	if len(v.states) > 0 {
		st := NeverReviewed
		if r.Assessment != nil {
			st = r.Assessment.Due.State
		}
		if !slices.Contains(v.states, st) {
			return false
		}
	}
	if len(v.enrich) > 0 && !slices.Contains(v.enrich, cmp.Or(r.EnrichmentStatus, "none")) {
		return false
	}
	return v.alerts == nil || *v.alerts == r.AlertsEnabled
}
