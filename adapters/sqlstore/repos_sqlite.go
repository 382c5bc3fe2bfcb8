package sqlstore

// SQLite's own SQL of the repositories: names unique by a key column folded
// in Go, no row locks (the one writer holds the database's write lock),
// Ensure in three statements and each vendor's latest incident by a
// correlated subquery.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

// sqliteByName sorts a text column by name: SQLite's default collation, BINARY,
// compares bytes, which is the byte order Vetted sorts names in.
func sqliteByName(column string) string { return column }

// emailKey is the column itself: e-mails are stored lower-case, folded in Go.
func (sqliteDialect) emailKey(column string) string { return column }

func (sqliteDialect) accounts(t *tx) accounts.AccountRepo {
	return sqliteAccountRepo{accountRepo{base: t.b}}
}
func (sqliteDialect) vendors(t *tx) vendors.VendorRepo {
	return sqliteVendorRepo{vendorRepo{base: t.b}}
}
func (sqliteDialect) lists(t *tx) lists.ListRepo { return sqliteListRepo{listRepo{base: t.b}} }
func (sqliteDialect) incidents(t *tx) vendors.IncidentRepo {
	return sqliteIncidentRepo{incidentRepo{base: t.b, Keys: sqliteIncidentKeys}}
}
func (sqliteDialect) runs(t *tx) vendors.RunRepo { return sqliteRunRepo{runRepo{base: t.b}} }
func (sqliteDialect) outbox(t *tx) outbox.Repo {
	return sqliteOutboxRepo{outboxRepo{base: t.b}}
}

// The shared rows, extended with the name_key column of the tables whose
// names are unique case-insensitively. The key is the name folded by Go
// (strings.ToLower, as the memory store and vendors.Name.Key fold it):
// SQLite's lower() would fold ASCII only, so "ÅNGSTRÖM" and "ångström"
// would be two names.

type keyedAccountRow struct {
	accountRow `bun:",extend"`
	NameKey    string `bun:"name_key"`
}

func fromAccountKeyed(a accounts.Account) keyedAccountRow {
	return keyedAccountRow{accountRow: fromAccount(a), NameKey: strings.ToLower(a.Name)}
}

type keyedVendorRow struct {
	vendorRow `bun:",extend"`
	NameKey   string `bun:"name_key"`
}

func fromVendorKeyed(v vendors.Vendor) keyedVendorRow {
	return keyedVendorRow{vendorRow: fromVendor(v), NameKey: v.Name.Key()}
}

type keyedListRow struct {
	listRow `bun:",extend"`
	NameKey string `bun:"name_key"`
}

func fromListKeyed(l lists.List) keyedListRow {
	return keyedListRow{listRow: fromList(l), NameKey: strings.ToLower(l.Name)}
}

type keyedProductRow struct {
	productRow `bun:",extend"`
	NameKey    string `bun:"name_key"`
}

func fromProductKeyed(p lists.Product) keyedProductRow {
	return keyedProductRow{productRow: fromProduct(p), NameKey: strings.ToLower(p.Name)}
}

// insertModel is what a shared repository inserts for v: a pointer to its
// keyed row where base.NameKeys is set, else to its plain row.
func insertModel[T, K, P any](b base, v T, keyed func(T) K, plain func(T) P) any {
	if b.NameKeys {
		k := keyed(v)
		return &k
	}
	p := plain(v)
	return &p
}

// each is f of every element.
func each[T, R any](f func(T) R) func([]T) []R {
	return func(ts []T) []R { return mapRows(ts, f) }
}

// sqliteAccountRepo "locks" organizations; the rest is shared.
type sqliteAccountRepo struct{ accountRepo }

// Lock only checks that the account exists: the unit of work began with
// BEGIN IMMEDIATE and holds the database's write lock already, so no other
// unit of work can change the account's members until it ends.
func (r sqliteAccountRepo) Lock(ctx context.Context, id uuid.UUID) error {
	var got uuid.UUID
	err := r.DB.NewSelect().Table("accounts").Column("id").Where("id = ?", id).Scan(ctx, &got)
	return sqliteTranslate(err, "lock account %s", id)
}

// sqliteListRepo finds lists by name through their Go-folded key; the rest
// is shared.
type sqliteListRepo struct{ listRepo }

// GetByName finds the list by its key (the unique index) and then the exact
// name: names are unique case-insensitively but looked up exactly.
func (r sqliteListRepo) GetByName(ctx context.Context, accountID uuid.UUID, name string) (lists.List, error) {
	var rows []listRow
	q := r.SelectLists(&rows).Where("l.account_id = ? AND l.name_key = ? AND l.name = ?", accountID, strings.ToLower(name), name)
	return r.One(ctx, "named "+name, q, &rows)
}

type sqliteRunRepo struct{ runRepo }

// GetForUpdate is Get: the unit of work holds the database's write lock
// since it began (BEGIN IMMEDIATE), so no other one can change the run
// before it ends.
func (r sqliteRunRepo) GetForUpdate(ctx context.Context, id uuid.UUID) (vendors.Run, error) {
	return r.Get(ctx, id)
}

type sqliteOutboxRepo struct{ outboxRepo }

// sqliteIncidentKeys reads an incident's keys back as a JSON array, in
// order (json_group_array of no row is []).
const sqliteIncidentKeys = `(SELECT json_group_array(ik.key ORDER BY ik.ord)
	FROM incident_keys AS ik WHERE ik.incident_id = i.id) AS keys`

// sqliteIncidentRepo picks each vendor's newest incident with a correlated
// subquery (SQLite has no DISTINCT ON); it walks incidents_vendor_published_idx.
type sqliteIncidentRepo struct{ incidentRepo }

func (r sqliteIncidentRepo) Latest(ctx context.Context, vendorIDs []uuid.UUID) ([]vendors.Incident, error) {
	if len(vendorIDs) == 0 {
		return []vendors.Incident{}, nil
	}
	var rows []incidentRow
	err := r.SelectIncidents(&rows).Where("i.vendor_id IN (?)", bun.List(vendorIDs)).
		Where("i.id = (SELECT i2.id FROM incidents AS i2 WHERE i2.vendor_id = i.vendor_id ORDER BY " +
			strings.ReplaceAll(newestIncident, "i.", "i2.") + " LIMIT 1)").
		Scan(ctx)
	if err != nil {
		return nil, sqliteTranslate(err, "latest incidents of %d vendors", len(vendorIDs))
	}
	return mapRows(rows, incidentRow.Core), nil
}

// Claim takes the oldest due messages without a row lock (SQLite has none,
// and no SKIP LOCKED): relays write in turns on the database's write lock,
// so no other relay sees these messages before this unit of work ends.
func (r sqliteOutboxRepo) Claim(ctx context.Context, limit int, now time.Time) ([]outbox.Message, error) {
	return r.SelectDue(ctx, limit, now, "")
}

// sqliteVendorRepo finds and ensures names by their Go-folded key, the column of
// the unique index vendors_name_key; the other reads and Update are shared.
type sqliteVendorRepo struct{ vendorRepo }

func (r sqliteVendorRepo) GetByName(ctx context.Context, name vendors.Name) (vendors.Vendor, error) {
	return r.One(ctx, fmt.Sprintf("%q", name), "v.name_key = ?", name.Key())
}

// site is a website to fill in for the entry with a name key, as JSON for
// json_each.
type site struct {
	Key        string `json:"key"`
	WebsiteURL string `json:"website_url"`
	Domain     string `json:"domain"`
}

// Ensure works in three statements whatever the number of vendors: insert
// the names that are new (the first input of each name key wins), fill in
// the websites of entries that have none (from the first input of the key
// that has one), and read back every entry by key. The unit of work holds
// the database's write lock, so nothing can come between the three.
func (r sqliteVendorRepo) Ensure(ctx context.Context, vs []vendors.Vendor) ([]vendors.Vendor, error) {
	if len(vs) == 0 {
		return []vendors.Vendor{}, nil
	}
	var (
		rows  []keyedVendorRow
		sites []site
		keys  []string
		seen  = map[string]bool{}
		sited = map[string]bool{}
	)
	for _, v := range vs {
		k := v.Name.Key()
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
			rows = append(rows, fromVendorKeyed(v))
		}
		if v.WebsiteURL != "" && !sited[k] {
			sited[k] = true
			sites = append(sites, site{Key: k, WebsiteURL: v.WebsiteURL, Domain: v.Domain})
		}
	}
	if _, err := r.DB.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
		return nil, sqliteTranslate(err, "ensure vendors")
	}
	if len(sites) > 0 {
		doc, err := json.Marshal(sites)
		if err != nil {
			return nil, fmt.Errorf("ensure vendors: %w", err)
		}
		_, err = r.DB.NewRaw(`UPDATE vendors AS v SET website_url = site.website_url, domain = site.domain
			FROM (SELECT value ->> 'key' AS key, value ->> 'website_url' AS website_url, value ->> 'domain' AS domain
				FROM json_each(?)) AS site
			WHERE v.name_key = site.key AND v.website_url = ''`, string(doc)).Exec(ctx)
		if err != nil {
			return nil, sqliteTranslate(err, "ensure vendors: fill in websites")
		}
	}
	var stored []keyedVendorRow
	if err := r.SelectVendors(&stored).Where("v.name_key IN (?)", bun.List(keys)).Scan(ctx); err != nil {
		return nil, sqliteTranslate(err, "ensure vendors: read back")
	}
	byKey := make(map[string]vendors.Vendor, len(stored))
	for _, row := range stored {
		byKey[row.NameKey] = row.Core()
	}
	out := make([]vendors.Vendor, len(vs))
	for i, v := range vs {
		got, ok := byKey[v.Name.Key()]
		if !ok {
			// Its id was taken by an entry of another name.
			return nil, fmt.Errorf("ensure vendors: %q was not stored", v.Name)
		}
		out[i] = got
	}
	return out, nil
}
