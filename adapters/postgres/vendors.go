package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/vendors"
)

// vendorRepo finds and ensures names by lower(name), the expression of the
// unique index vendors_name_key; the other reads and Update are shared.
type vendorRepo struct{ bunrepo.Vendors }

func (r vendorRepo) GetByName(ctx context.Context, name vendors.Name) (vendors.Vendor, error) {
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
func (r vendorRepo) Ensure(ctx context.Context, vs []vendors.Vendor) ([]vendors.Vendor, error) {
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
		return nil, translate(err, "ensure vendors")
	}
	var rows []struct {
		dbrow.Vendor `bun:",extend"`
		Ord          int `bun:"ord"`
	}
	err = r.DB.NewRaw(`WITH `+input+`
	SELECT v.*, `+bunrepo.HasProfile+`, input.ord
	FROM input JOIN vendors AS v ON lower(v.name) = lower(input.name)
	ORDER BY input.ord`, string(doc)).Scan(ctx, &rows)
	if err != nil {
		return nil, translate(err, "ensure vendors: read back")
	}
	if len(rows) != len(vs) {
		return nil, fmt.Errorf("ensure vendors: read back %d of %d entries", len(rows), len(vs))
	}
	out := make([]vendors.Vendor, len(rows))
	for i, row := range rows {
		out[i] = row.Vendor.Core()
	}
	return out, nil
}
