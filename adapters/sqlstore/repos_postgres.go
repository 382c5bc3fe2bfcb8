package sqlstore

// PostgreSQL's own SQL of the repositories: names unique by lower(name),
// the row locks, Ensure's upsert in two statements and each vendor's latest
// incident by DISTINCT ON.

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/vendors"
)

func (postgresDialect) emailKey(column string) string { return lowerKey(column) }

func (postgresDialect) accounts(t *tx) accounts.AccountRepo {
	return pgAccountRepo{accountRepo{base: t.b}, t.readOnly}
}
func (postgresDialect) vendors(t *tx) vendors.VendorRepo { return pgVendorRepo{vendorRepo{base: t.b}} }
func (postgresDialect) lists(t *tx) lists.ListRepo {
	return pgListRepo{listRepo{base: t.b, Lock: "UPDATE"}}
}
func (postgresDialect) incidents(t *tx) vendors.IncidentRepo {
	return pgIncidentRepo{incidentRepo{base: t.b, Keys: pgIncidentKeys}}
}
func (postgresDialect) runs(t *tx) vendors.RunRepo { return pgRunRepo{runRepo{base: t.b}, t.readOnly} }
func (postgresDialect) outbox(t *tx) outbox.Repo {
	return pgOutboxRepo{outboxRepo{base: t.b}}
}

// Sorting: "by name" means byte order, as Go's sort.Strings, whatever the
// database's collation.
const collateC = ` COLLATE "C"`

// pgByName sorts a text column by name.
func pgByName(column string) string { return column + collateC }

// lowerKey is the expression of the unique indexes on names and e-mails
// that compare case-insensitively.
func lowerKey(column string) string { return "lower(" + column + ")" }

// pgAccountRepo locks organizations; the rest is shared.
type pgAccountRepo struct {
	accountRepo
	readOnly bool
}

func (r pgAccountRepo) Lock(ctx context.Context, id uuid.UUID) error {
	var got uuid.UUID
	q := r.DB.NewSelect().Table("accounts").Column("id").Where("id = ?", id)
	if !r.readOnly {
		// NO KEY UPDATE excludes every other Lock of the account (and its
		// deletion) just as FOR UPDATE would, but not the KEY SHARE locks
		// that foreign-key checks take: writes that merely reference the
		// account (lists, assessments, subscribers) are not held up.
		q = q.For("NO KEY UPDATE")
	}
	err := q.Scan(ctx, &got)
	return pgTranslate(err, "lock account %s", id)
}

// pgListRepo finds lists by exact name (the unique index is on
// lower(name)); the rest is shared.
type pgListRepo struct{ listRepo }

func (r pgListRepo) GetByName(ctx context.Context, accountID uuid.UUID, name string) (lists.List, error) {
	var rows []listRow
	return r.One(ctx, "named "+name, r.SelectLists(&rows).Where("l.account_id = ? AND l.name = ?", accountID, name), &rows)
}

// pgIncidentKeys reads an incident's keys back as a JSON array, in order.
const pgIncidentKeys = `(SELECT coalesce(jsonb_agg(ik.key ORDER BY ik.ord), '[]'::jsonb)
	FROM incident_keys AS ik WHERE ik.incident_id = i.id) AS keys`

// pgIncidentRepo is the shared incident repository with PostgreSQL's own
// Latest.
type pgIncidentRepo struct{ incidentRepo }

// Latest picks each vendor's newest incident with DISTINCT ON, which keeps
// the first row of each vendor in the given order.
func (r pgIncidentRepo) Latest(ctx context.Context, vendorIDs []uuid.UUID) ([]vendors.Incident, error) {
	if len(vendorIDs) == 0 {
		return []vendors.Incident{}, nil
	}
	var rows []incidentRow
	err := r.SelectIncidents(&rows).DistinctOn("i.vendor_id").Where("i.vendor_id IN (?)", bun.List(vendorIDs)).
		OrderExpr("i.vendor_id, " + newestIncident).Scan(ctx)
	if err != nil {
		return nil, pgTranslate(err, "latest incidents of %d vendors", len(vendorIDs))
	}
	return mapRows(rows, incidentRow.Core), nil
}

type pgRunRepo struct {
	runRepo
	readOnly bool
}

// GetForUpdate locks the run's row until the unit of work ends, so two
// read-modify-writes of one run take turns.
func (r pgRunRepo) GetForUpdate(ctx context.Context, id uuid.UUID) (vendors.Run, error) {
	if r.readOnly {
		return r.Get(ctx, id)
	}
	return r.SelectRun(ctx, id, "UPDATE")
}

type pgOutboxRepo struct{ outboxRepo }

// Claim locks the oldest due messages. SKIP LOCKED lets concurrent relays
// each take a different batch instead of queueing behind one another.
func (r pgOutboxRepo) Claim(ctx context.Context, limit int, now time.Time) ([]outbox.Message, error) {
	return r.SelectDue(ctx, limit, now, "UPDATE SKIP LOCKED")
}

// pgVendorRepo finds and ensures names by lower(name), the expression of the
// unique index vendors_name_key; the other reads and Update are shared.
type pgVendorRepo struct{ vendorRepo }

func (r pgVendorRepo) GetByName(ctx context.Context, name vendors.Name) (vendors.Vendor, error) {
	return r.One(ctx, fmt.Sprintf("%q", name), "lower(v.name) = ?", name.Key())
}

// ensureInput is one vendor handed to Ensure, as JSON for jsonb_to_recordset.
type ensureInput struct {
	Ord        int       `json:"ord"`
	ID         uuid.UUID `json:"id"`
	Name       string    `json:"name"`
	WebsiteURL string    `json:"website_url"`
	Domain     string    `json:"domain"`
	Aliases    []string  `json:"aliases"`
	CreatedAt  time.Time `json:"created_at"`
}

// Ensure works in two statements whatever the number of vendors. The first
// inserts the missing names (ON CONFLICT DO NOTHING, which also waits for a
// concurrent insert of the same name) and fills in missing websites; the
// second reads back the stored entry of every input, in input order. At READ
// COMMITTED the second statement sees rows other units of work committed
// while the first one waited for them.
func (r pgVendorRepo) Ensure(ctx context.Context, vs []vendors.Vendor) ([]vendors.Vendor, error) {
	if len(vs) == 0 {
		return []vendors.Vendor{}, nil
	}
	in := make([]ensureInput, len(vs))
	for i, v := range vs {
		aliases := v.Aliases
		if aliases == nil {
			aliases = []string{}
		}
		in[i] = ensureInput{Ord: i, ID: v.ID, Name: v.Name.String(), WebsiteURL: v.WebsiteURL, Domain: v.Domain,
			Aliases: aliases, CreatedAt: v.CreatedAt}
	}
	doc, err := json.Marshal(in)
	if err != nil {
		return nil, fmt.Errorf("ensure vendors: %w", err)
	}
	const input = `input AS (
		SELECT * FROM jsonb_to_recordset(?::jsonb) AS t(ord int, id uuid, name text, website_url text, domain text, aliases jsonb, created_at timestamptz)
	)`
	// Sorting by key takes row locks in one order, so two concurrent saves
	// of overlapping vendors cannot deadlock each other.
	_, err = r.DB.NewRaw(`WITH `+input+`,
	ins AS (
		INSERT INTO vendors (id, name, website_url, domain, aliases, created_at)
		SELECT id, name, website_url, domain, aliases, created_at FROM (
			SELECT DISTINCT ON (lower(name)) * FROM input ORDER BY lower(name), ord
		) AS first
		ORDER BY lower(name)
		ON CONFLICT DO NOTHING
		RETURNING id
	),
	site AS (
		SELECT DISTINCT ON (lower(name)) lower(name) AS key, website_url, domain
		FROM input WHERE website_url <> '' ORDER BY lower(name), ord
	),
	upd AS (
		UPDATE vendors AS v SET website_url = site.website_url, domain = site.domain
		FROM site WHERE lower(v.name) = site.key AND v.website_url = ''
		RETURNING v.id
	)
	SELECT (SELECT count(*) FROM ins) + (SELECT count(*) FROM upd)`, string(doc)).Exec(ctx)
	if err != nil {
		return nil, pgTranslate(err, "ensure vendors")
	}
	var rows []struct {
		vendorRow `bun:",extend"`
		Ord       int `bun:"ord"`
	}
	err = r.DB.NewRaw(`WITH `+input+`
	SELECT v.*, `+hasProfile+`, input.ord
	FROM input JOIN vendors AS v ON lower(v.name) = lower(input.name)
	ORDER BY input.ord`, string(doc)).Scan(ctx, &rows)
	if err != nil {
		return nil, pgTranslate(err, "ensure vendors: read back")
	}
	if len(rows) != len(vs) {
		return nil, fmt.Errorf("ensure vendors: read back %d of %d entries", len(rows), len(vs))
	}
	out := make([]vendors.Vendor, len(rows))
	for i, row := range rows {
		out[i] = row.vendorRow.Core()
	}
	return out, nil
}
