package sqlite

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/adapters/internal/bunrepo"
	"github.com/vetted-dev/vetted/core/vendors"
)

// vendorRepo finds and ensures names by their Go-folded key, the column of
// the unique index vendors_name_key; the other reads and Update are shared.
type vendorRepo struct{ bunrepo.Vendors }

func (r vendorRepo) GetByName(ctx context.Context, name vendors.Name) (vendors.Vendor, error) {
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
func (r vendorRepo) Ensure(ctx context.Context, vs []vendors.Vendor) ([]vendors.Vendor, error) {
	if len(vs) == 0 {
		return []vendors.Vendor{}, nil
	}
	var (
		rows  []vendorRow
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
			rows = append(rows, fromVendor(v))
		}
		if v.WebsiteURL != "" && !sited[k] {
			sited[k] = true
			sites = append(sites, site{Key: k, WebsiteURL: v.WebsiteURL, Domain: v.Domain})
		}
	}
	if _, err := r.DB.NewInsert().Model(&rows).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
		return nil, translate(err, "ensure vendors")
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
			return nil, translate(err, "ensure vendors: fill in websites")
		}
	}
	var stored []vendorRow
	if err := r.SelectVendors(&stored).Where("v.name_key IN (?)", bun.List(keys)).Scan(ctx); err != nil {
		return nil, translate(err, "ensure vendors: read back")
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
