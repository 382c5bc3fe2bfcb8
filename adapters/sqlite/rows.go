package sqlite

import (
	"strings"

	"github.com/vetted-dev/vetted/adapters/internal/dbrow"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/vendorlist"
	"github.com/vetted-dev/vetted/core/vendors"
)

// The shared rows, extended with the name_key column of the tables whose
// names are unique case-insensitively. The key is the name folded by Go
// (strings.ToLower, as the memory store and vendors.Name.Key fold it):
// SQLite's lower() would fold ASCII only, so "ÅNGSTRÖM" and "ångström"
// would be two names.

type accountRow struct {
	dbrow.Account `bun:",extend"`
	NameKey       string `bun:"name_key"`
}

func fromAccount(a accounts.Account) accountRow {
	return accountRow{Account: dbrow.FromAccount(a), NameKey: strings.ToLower(a.Name)}
}

type vendorRow struct {
	dbrow.Vendor `bun:",extend"`
	NameKey      string `bun:"name_key"`
}

func fromVendor(v vendors.Vendor) vendorRow {
	return vendorRow{Vendor: dbrow.FromVendor(v), NameKey: v.Name.Key()}
}

type listRow struct {
	dbrow.List `bun:",extend"`
	NameKey    string `bun:"name_key"`
}

func fromList(l vendorlist.List) listRow {
	return listRow{List: dbrow.FromList(l), NameKey: strings.ToLower(l.Name)}
}

type productRow struct {
	dbrow.Product `bun:",extend"`
	NameKey       string `bun:"name_key"`
}

func fromProduct(p vendorlist.Product) productRow {
	return productRow{Product: dbrow.FromProduct(p), NameKey: strings.ToLower(p.Name)}
}
