package sqlstore

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
)

// listRepo holds the methods of lists.ListRepo whose SQL is the same in both
// dialects; each adds GetByName, which finds a list by its own case-folded
// key.
type listRepo struct {
	base
	// Lock is the row lock LockList takes, and every write of a list's
	// entries or products takes first: "UPDATE" on PostgreSQL, "" on
	// SQLite, whose units of work that write run one at a time. Taken
	// before the write and not only by the version's update after it, the
	// lock comes first in every unit of work, so that two of them never
	// wait on each other crosswise (one on the list, the other on an entry).
	Lock string
}

// vendorCount is the computed column behind List.VendorCount.
const vendorCount = "(SELECT count(*) FROM list_entries AS e WHERE e.list_id = l.id) AS vendor_count"

// SelectLists selects into rows the lists' columns and their vendor counts.
func (r listRepo) SelectLists(rows *[]listRow) *bun.SelectQuery {
	return r.DB.NewSelect().Model(rows).ColumnExpr("?TableColumns").ColumnExpr(vendorCount)
}

// One runs q, a SelectLists query into rows, for one list, or core.ErrNotFound.
func (r listRepo) One(ctx context.Context, what string, q *bun.SelectQuery, rows *[]listRow) (lists.List, error) {
	if err := q.Limit(1).Scan(ctx); err != nil {
		return lists.List{}, r.Translate(err, "list %s", what)
	}
	if len(*rows) == 0 {
		return lists.List{}, notFound("list %s", what)
	}
	return (*rows)[0].Core(), nil
}

// Get returns a list of the account with its vendor count.
func (r listRepo) Get(ctx context.Context, accountID, id uuid.UUID) (lists.List, error) {
	var rows []listRow
	return r.One(ctx, id.String(), r.SelectLists(&rows).Where("l.id = ? AND l.account_id = ?", id, accountID), &rows)
}

// ListByAccount returns the account's lists with vendor counts, by name.
func (r listRepo) ListByAccount(ctx context.Context, accountID uuid.UUID) ([]lists.List, error) {
	var rows []listRow
	if err := r.SelectLists(&rows).Where("l.account_id = ?", accountID).OrderExpr(r.ByName("l.name") + ", l.id").Scan(ctx); err != nil {
		return nil, r.Translate(err, "lists of account %s", accountID)
	}
	return mapRows(rows, listRow.Core), nil
}

// Entries reads a list in two statements: the entries with their vendors
// and profiles, then all product rows of the list. Both are scanned column
// by column into plain values (Time, Statuses) rather than
// through bun's reflection over a model: for a list of 500 that scan was
// the largest share of the read's Go CPU.
func (r listRepo) Entries(ctx context.Context, listID uuid.UUID) ([]lists.Entry, error) {
	return r.entries(ctx, listID, entrySel{})
}

// EntriesAfter returns at most limit entries of a list after the key, in
// the order of Entries (vendor name in byte order, then vendor id): a
// keyset page, with the products of those vendors only.
func (r listRepo) EntriesAfter(ctx context.Context, listID uuid.UUID, after lists.EntryKey, limit int) ([]lists.Entry, error) {
	return r.entries(ctx, listID, entrySel{after: &after, limit: max(limit, 1)})
}

// EntriesOf returns the entries of the given vendors on a list, in the
// order of Entries, with their products (vendors not on it are left out).
func (r listRepo) EntriesOf(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) ([]lists.Entry, error) {
	if len(vendorIDs) == 0 {
		return []lists.Entry{}, nil
	}
	return r.entries(ctx, listID, entrySel{ids: vendorIDs})
}

// EntryKeys returns the name and id of every vendor on a list, in the
// order of Entries: what a page in another order is chosen from, without
// reading the rest of each entry.
func (r listRepo) EntryKeys(ctx context.Context, listID uuid.UUID) ([]lists.EntryKey, error) {
	rows, err := r.DB.NewSelect().
		TableExpr("list_entries AS e").
		ColumnExpr("v.name, e.vendor_id").
		Join("JOIN vendors AS v ON v.id = e.vendor_id").
		Where("e.list_id = ?", listID).
		OrderExpr(r.ByName("v.name") + ", e.vendor_id").
		Rows(ctx)
	if err != nil {
		return nil, r.Translate(err, "entry keys of list %s", listID)
	}
	var k lists.EntryKey
	out := make([]lists.EntryKey, 0, 64)
	err = scanAll(rows, func(rows *sql.Rows) error {
		if err := rows.Scan(&k.VendorName, &k.VendorID); err != nil {
			return err
		}
		out = append(out, k)
		return nil
	})
	if err != nil {
		return nil, r.Translate(err, "entry keys of list %s", listID)
	}
	return out, nil
}

// entrySel narrows a read of entries: the zero value reads them all.
type entrySel struct {
	after *lists.EntryKey // with limit: a keyset page after the key
	limit int
	ids   []uuid.UUID // these vendors only
}

// entries is Entries narrowed by sel (the products read for the selected
// vendors only).
func (r listRepo) entries(ctx context.Context, listID uuid.UUID, sel entrySel) ([]lists.Entry, error) {
	after, limit := sel.after, sel.limit
	what := "entries of list %s"
	q := r.DB.NewSelect().
		TableExpr("list_entries AS e").
		ColumnExpr("e.vendor_id, e.alerts_enabled, e.added_at, e.given_name").
		ColumnExpr("v.name, v.website_url").
		ColumnExpr("p.id IS NOT NULL").
		ColumnExpr("p.section_statuses, p.security_rating").
		Join("JOIN vendors AS v ON v.id = e.vendor_id").
		Join("LEFT JOIN profiles AS p ON p.vendor_id = e.vendor_id").
		Where("e.list_id = ?", listID).
		OrderExpr(r.ByName("v.name") + ", e.vendor_id")
	if after != nil {
		what = "page of list %s"
		if after.VendorID != uuid.Nil {
			name := r.ByName("v.name")
			q = q.Where("("+name+" > ? OR ("+name+" = ? AND e.vendor_id > ?))", after.VendorName, after.VendorName, after.VendorID)
		}
		q = q.Limit(int64(limit))
	}
	if sel.ids != nil {
		what = "some entries of list %s"
		q = q.Where("e.vendor_id IN (?)", bun.List(sel.ids))
	}
	rows, err := q.Rows(ctx)
	if err != nil {
		return nil, r.Translate(err, what, listID)
	}
	// One set of scan targets for every row (pointers handed to Scan
	// escape, so targets declared per row would each be an allocation).
	var (
		v        entryViewRow
		added    dbTime
		statuses dbStatuses
		rating   sql.NullInt64
	)
	out := make([]lists.Entry, 0, 64)
	err = scanAll(rows, func(rows *sql.Rows) error {
		if err := rows.Scan(&v.VendorID, &v.AlertsEnabled, &added, &v.GivenName, &v.VendorName, &v.WebsiteURL, &v.HasProfile, &statuses, &rating); err != nil {
			return err
		}
		v.ListID, v.AddedAt, v.Statuses, v.Rating = listID, added.Time, statuses, nil
		if rating.Valid {
			n := int(rating.Int64)
			v.Rating = &n
		}
		out = append(out, v.Core(nil))
		return nil
	})
	if err != nil {
		return nil, r.Translate(err, what, listID)
	}
	if len(out) == 0 {
		return out, nil
	}
	pq := r.DB.NewSelect().Table("products").Column("id", "vendor_id", "name", "created_at").Where("list_id = ?", listID)
	// A vendor's products by creation, name and id. All of a list's are read
	// in the order of its index on (list, created, name, id); some vendors'
	// are read vendor by vendor (the same order for each), so that the store
	// looks each vendor up rather than walks every product of the list, as
	// it did for each page of a list read a page at a time.
	order := "created_at, " + r.ByName("name") + ", id"
	if after != nil || sel.ids != nil {
		ids := make([]uuid.UUID, len(out))
		for i := range out {
			ids[i] = out[i].VendorID
		}
		pq = pq.Where("vendor_id IN (?)", bun.List(ids))
		order = "vendor_id, " + order
	}
	rows, err = pq.OrderExpr(order).Rows(ctx)
	if err != nil {
		return nil, r.Translate(err, "products of "+what, listID)
	}
	byVendor := make(map[uuid.UUID][]lists.Product)
	var (
		p       lists.Product
		created dbTime
	)
	err = scanAll(rows, func(rows *sql.Rows) error {
		if err := rows.Scan(&p.ID, &p.VendorID, &p.Name, &created); err != nil {
			return err
		}
		p.ListID, p.CreatedAt = listID, created.Time
		byVendor[p.VendorID] = append(byVendor[p.VendorID], p)
		return nil
	})
	if err != nil {
		return nil, r.Translate(err, "products of "+what, listID)
	}
	for i := range out {
		if ps, ok := byVendor[out[i].VendorID]; ok {
			out[i].Products = ps
		}
	}
	return out, nil
}

// scanAll calls scan on every row of rows and closes them.
func scanAll(rows *sql.Rows, scan func(*sql.Rows) error) error {
	defer rows.Close()
	for rows.Next() {
		if err := scan(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Delete removes a list of the account.
func (r listRepo) Delete(ctx context.Context, accountID, id uuid.UUID) error {
	// Entries, products, assessments (with their events and documents) and
	// subscribers go with it by ON DELETE CASCADE.
	res, err := r.DB.NewDelete().Model((*listRow)(nil)).Where("id = ? AND account_id = ?", id, accountID).Exec(ctx)
	if err != nil {
		return r.Translate(err, "delete list %s", id)
	}
	return r.MustAffect(res, "delete list %s", id)
}

// VendorIDs returns the ids of the vendors on a list, oldest entry first.
func (r listRepo) VendorIDs(ctx context.Context, listID uuid.UUID) ([]uuid.UUID, error) {
	ids := []uuid.UUID{}
	err := r.DB.NewSelect().Table("list_entries").Column("vendor_id").Where("list_id = ?", listID).
		OrderExpr("added_at, vendor_id").Scan(ctx, &ids)
	if err != nil {
		return nil, r.Translate(err, "vendors of list %s", listID)
	}
	return ids, nil
}

// LockList locks the list (Lock) and reads its version: a concurrent write
// of the list waits until this unit of work ends, then reads the version
// it left.
func (r listRepo) LockList(ctx context.Context, listID uuid.UUID) (int64, error) {
	var v []int64
	q := r.DB.NewSelect().Table("lists").Column("version").Where("id = ?", listID)
	if r.Lock != "" {
		q = q.For(r.Lock)
	}
	if err := q.Scan(ctx, &v); err != nil {
		return 0, r.Translate(err, "lock list %s", listID)
	}
	if len(v) == 0 {
		return 0, notFound("list %s", listID)
	}
	return v[0], nil
}

// LockFirst takes the lock of the lists (in id order) before a write of
// their entries or products; nothing where Lock is "".
func (r listRepo) LockFirst(ctx context.Context, listIDs ...uuid.UUID) error {
	if r.Lock == "" || len(listIDs) == 0 {
		return nil
	}
	var locked []uuid.UUID
	err := r.DB.NewSelect().Table("lists").Column("id").Where("id IN (?)", bun.List(listIDs)).
		OrderExpr("id").For(r.Lock).Scan(ctx, &locked)
	return r.Translate(err, "lock lists %v", listIDs)
}

// execer is a write query: an INSERT, UPDATE or DELETE.
type execer interface {
	bun.Query
	Exec(ctx context.Context, dest ...any) (sql.Result, error)
}

// write runs q, a write of the entries or products of the lists, and adds
// one to their versions if it changed a row, in the unit of work; it
// answers how many rows q changed. Every write of entries or products goes
// through it (see lists.ListRepo.AddEntries). Where lists are locked
// (PostgreSQL) it locks them first (LockFirst), then writes and counts in
// one statement: q, returning its rows (returning makes q answer them), in
// a WITH beside the update of the versions. Two statements whatever the
// number of rows, as before the versions. On SQLite: q, then the update.
func (r listRepo) write(ctx context.Context, q execer, returning func(), listIDs []uuid.UUID, format string, args ...any) (int64, error) {
	if r.Lock == "" {
		res, err := q.Exec(ctx)
		if err != nil {
			return 0, r.Translate(err, format, args...)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return 0, r.Translate(err, format, args...)
		}
		if n > 0 {
			_, err = r.DB.NewUpdate().Table("lists").Set("version = version + 1").Where("id IN (?)", bun.List(listIDs)).Exec(ctx)
		}
		return n, r.Translate(err, "count a change of lists %v", listIDs)
	}
	if err := r.LockFirst(ctx, listIDs...); err != nil {
		return 0, err
	}
	returning()
	bump := r.DB.NewUpdate().Table("lists").Set("version = version + 1").
		Where("id IN (?) AND EXISTS (SELECT 1 FROM w)", bun.List(listIDs))
	var n int64
	err := r.DB.NewSelect().With("w", q).With("bump", bump).TableExpr("w").ColumnExpr("count(*)").Scan(ctx, &n)
	return n, r.Translate(err, format, args...)
}

// AddEntries puts vendors on a list in one statement; vendors already on it
// keep their entry.
func (r listRepo) AddEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID, now time.Time) error {
	if len(vendorIDs) == 0 {
		return nil
	}
	rows := make([]entryRow, 0, len(vendorIDs))
	for _, id := range vendorIDs {
		rows = append(rows, entryRow{ListID: listID, VendorID: id, AlertsEnabled: true, AddedAt: now})
	}
	q := r.DB.NewInsert().Model(&rows).On("CONFLICT (list_id, vendor_id) DO NOTHING")
	_, err := r.write(ctx, q, func() { q.Returning("1") }, []uuid.UUID{listID}, "add vendors to list %s", listID)
	return err
}

// nameBatch is how many entries one statement of NameEntries names: two
// parameters each, well below SQLite's and PostgreSQL's limits.
const nameBatch = 500

// NameEntries sets the given names of entries of a list, a statement per
// nameBatch of them (an UPDATE with a CASE over the vendor ids).
func (r listRepo) NameEntries(ctx context.Context, listID uuid.UUID, names map[uuid.UUID]string) error {
	ids := make([]uuid.UUID, 0, len(names))
	for id := range names {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
	for batch := range slices.Chunk(ids, nameBatch) {
		var set strings.Builder
		args := make([]any, 0, 2*len(batch))
		set.WriteString("given_name = CASE vendor_id")
		for _, id := range batch {
			set.WriteString(" WHEN ? THEN ?")
			args = append(args, id, names[id])
		}
		set.WriteString(" ELSE given_name END")
		q := r.DB.NewUpdate().Table("list_entries").Set(set.String(), args...).
			Where("list_id = ?", listID).Where("vendor_id IN (?)", bun.List(batch))
		if _, err := r.write(ctx, q, func() { q.Returning("1") }, []uuid.UUID{listID}, "name vendors on list %s", listID); err != nil {
			return err
		}
	}
	return nil
}

// RemoveEntries takes vendors off a list in one statement.
func (r listRepo) RemoveEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) error {
	if len(vendorIDs) == 0 {
		return nil
	}
	// Products go with their entries by ON DELETE CASCADE.
	q := r.DB.NewDelete().Model((*entryRow)(nil)).
		Where("list_id = ?", listID).Where("vendor_id IN (?)", bun.List(vendorIDs))
	_, err := r.write(ctx, q, func() { q.Returning("1") }, []uuid.UUID{listID}, "remove vendors from list %s", listID)
	return err
}

// SetAlerts sets alerts_enabled of a vendor on a list.
func (r listRepo) SetAlerts(ctx context.Context, listID, vendorID uuid.UUID, enabled bool) error {
	q := r.DB.NewUpdate().Model((*entryRow)(nil)).Set("alerts_enabled = ?", enabled).
		Where("list_id = ? AND vendor_id = ?", listID, vendorID)
	n, err := r.write(ctx, q, func() { q.Returning("1") }, []uuid.UUID{listID}, "set alerts of vendor %s on list %s", vendorID, listID)
	if err == nil && n == 0 {
		err = notFound("vendor %s on list %s", vendorID, listID)
	}
	return err
}

// Counts counts vendors, followed vendors and assessments over the lists of
// scope in one statement: the entries of the account's lists joined once,
// whatever their number, and the assessments by their account (an index).
func (r assessmentRepo) Counts(ctx context.Context, scope lists.ListScope, statuses []assessments.Status) (lists.ListCounts, error) {
	var c lists.ListCounts
	entries, assessments := "l.account_id = ?", "s.account_id = ?"
	scoped := []any{scope.AccountID}
	if scope.ListID != nil {
		entries, assessments = entries+" AND l.id = ?", assessments+" AND s.list_id = ?"
		scoped = append(scoped, *scope.ListID)
	}
	// The subquery is written first, so its arguments come first.
	args := slices.Clone(scoped)
	if len(statuses) == 0 {
		assessments += " AND 1 = 0"
	} else {
		in := make([]string, len(statuses))
		for i, st := range statuses {
			in[i] = string(st)
		}
		assessments += " AND s.status IN (?)"
		args = append(args, bun.List(in))
	}
	args = append(args, scoped...)
	// One list: its entries grouped by vendor once (one sort or hash),
	// rather than two count(DISTINCT ...), each its own: on SQLite that
	// halves the read. Every list of the account: the account's vendors as
	// the triggers on list entries keep them (migration account_vendors),
	// whatever the number of lists.
	from := "(SELECT max(CASE WHEN e.alerts_enabled THEN 1 ELSE 0 END) AS followed " +
		"FROM lists AS l JOIN list_entries AS e ON e.list_id = l.id WHERE " + entries + " GROUP BY e.vendor_id) AS v"
	if scope.ListID == nil {
		from = "(SELECT CASE WHEN av.followed > 0 THEN 1 ELSE 0 END AS followed FROM account_vendors AS av WHERE av.account_id = ?) AS v"
	}
	query := "SELECT count(*), coalesce(sum(v.followed), 0), " +
		"(SELECT count(*) FROM assessments AS s WHERE " + assessments + ") FROM " + from
	if err := r.DB.NewRaw(query, args...).Scan(ctx, &c.Vendors, &c.Followed, &c.Assessments); err != nil {
		return c, r.Translate(err, "counts of account %s", scope.AccountID)
	}
	return c, nil
}

// InsertNew inserts the rows of model (a pointer to a slice of rows) that
// collide with no unique key, in one statement, and says how many it
// inserted. Rows repeating one another are skipped like existing rows: DO
// NOTHING checks each row against those inserted before it.
func (b base) InsertNew(ctx context.Context, model any, format string, args ...any) (int, error) {
	res, err := b.DB.NewInsert().Model(model).On("CONFLICT DO NOTHING").Exec(ctx)
	if err != nil {
		return 0, b.Translate(err, format, args...)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, b.Translate(err, format, args...)
	}
	return int(n), nil
}

// quotaRepo is lists.QuotaRepo.
type quotaRepo struct{ base }

// Used counts the vendors the account has claimed.
func (r quotaRepo) Used(ctx context.Context, accountID uuid.UUID) (int, error) {
	n, err := r.DB.NewSelect().Model((*claimRow)(nil)).Where("q.account_id = ?", accountID).Count(ctx)
	if err != nil {
		return 0, r.Translate(err, "quota used by %s", accountID)
	}
	return int(n), nil
}

// Claimed returns which of vendorIDs the account has claimed.
func (r quotaRepo) Claimed(ctx context.Context, accountID uuid.UUID, vendorIDs []uuid.UUID) ([]uuid.UUID, error) {
	ids := []uuid.UUID{}
	if len(vendorIDs) == 0 {
		return ids, nil
	}
	err := r.DB.NewSelect().Table("quota_claims").Column("vendor_id").
		Where("account_id = ?", accountID).Where("vendor_id IN (?)", bun.List(vendorIDs)).Scan(ctx, &ids)
	if err != nil {
		return nil, r.Translate(err, "quota claims of %s", accountID)
	}
	return ids, nil
}

// Claim records claims in one statement; existing ones are left alone.
func (r quotaRepo) Claim(ctx context.Context, accountID uuid.UUID, vendorIDs []uuid.UUID, now time.Time) error {
	if len(vendorIDs) == 0 {
		return nil
	}
	rows := make([]claimRow, 0, len(vendorIDs))
	for _, id := range vendorIDs {
		rows = append(rows, claimRow{AccountID: accountID, VendorID: id, ClaimedAt: now})
	}
	_, err := r.DB.NewInsert().Model(&rows).On("CONFLICT (account_id, vendor_id) DO NOTHING").Exec(ctx)
	return r.Translate(err, "claim quota for %s", accountID)
}

// AddProductRow inserts row, the store's row of p (a pointer), and counts
// a change of its list. Each store makes its own row: its products are
// unique by its own case-folded key.
func (r listRepo) AddProductRow(ctx context.Context, p lists.Product, row any) error {
	q := r.DB.NewInsert().Model(row)
	_, err := r.write(ctx, q, func() { q.Returning("1") }, []uuid.UUID{p.ListID}, "add product %q of vendor %s to list %s", p.Name, p.VendorID, p.ListID)
	return err
}

// MergeProductRows inserts the rows of ps that do not exist yet (rows: a
// pointer to the store's rows of ps) and counts a change of their lists
// when it inserted any.
func (r listRepo) MergeProductRows(ctx context.Context, ps []lists.Product, rows any) (int, error) {
	if len(ps) == 0 {
		return 0, nil
	}
	// Rows repeating one another are skipped like existing rows: DO
	// NOTHING checks each row against those inserted before it.
	q := r.DB.NewInsert().Model(rows).On("CONFLICT DO NOTHING")
	n, err := r.write(ctx, q, func() { q.Returning("1") }, productLists(ps), "merge products")
	return int(n), err
}

// productLists returns the lists of the product rows, each once.
func productLists(ps []lists.Product) []uuid.UUID {
	var ids []uuid.UUID
	for _, p := range ps {
		if !slices.Contains(ids, p.ListID) {
			ids = append(ids, p.ListID)
		}
	}
	return ids
}

// Create inserts a list; names are unique case-insensitively in an account.
func (r listRepo) Create(ctx context.Context, l lists.List) error {
	_, err := r.DB.NewInsert().Model(insertModel(r.base, l, fromListKeyed, fromList)).Exec(ctx)
	return r.Translate(err, "create list %q", l.Name)
}

// AddProduct adds a product; names are unique case-insensitively per vendor
// on a list.
func (r listRepo) AddProduct(ctx context.Context, p lists.Product) error {
	return r.AddProductRow(ctx, p, insertModel(r.base, p, fromProductKeyed, fromProduct))
}

// MergeProducts adds the products that do not exist yet.
func (r listRepo) MergeProducts(ctx context.Context, ps []lists.Product) (int, error) {
	return r.MergeProductRows(ctx, ps, insertModel(r.base, ps, each(fromProductKeyed), each(fromProduct)))
}

// LockEntries locks the entries in vendor order, so two units of work that
// lock overlapping sets never wait on each other crosswise. Where Lock is ""
// (SQLite) it needs no SQL: the one writer connection runs the units of
// work that write one at a time (BEGIN IMMEDIATE).
func (r listRepo) LockEntries(ctx context.Context, listID uuid.UUID, vendorIDs []uuid.UUID) error {
	if r.Lock == "" || len(vendorIDs) == 0 {
		return nil
	}
	var locked []uuid.UUID
	err := r.DB.NewSelect().Table("list_entries").Column("vendor_id").
		Where("list_id = ?", listID).Where("vendor_id IN (?)", bun.List(vendorIDs)).
		OrderExpr("vendor_id").For(r.Lock).Scan(ctx, &locked)
	return r.Translate(err, "lock vendors %v on list %s", vendorIDs, listID)
}
