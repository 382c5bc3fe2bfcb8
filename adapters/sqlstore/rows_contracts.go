package sqlstore

import (
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/vetted-dev/vetted/core/contracts"
)

// contractRow is a row of contracts. Dates are stored as their civil
// YYYY-MM-DD text, the annual value as its exact decimal text.
type contractRow struct {
	bun.BaseModel `bun:"table:contracts,alias:ct"`

	ID                       uuid.UUID             `bun:"id,pk"`
	AccountID                uuid.UUID             `bun:"account_id"`
	VendorID                 uuid.UUID             `bun:"vendor_id"`
	Reference                string                `bun:"reference"`
	StartDate                string                `bun:"start_date"`
	EndDate                  string                `bun:"end_date"`
	AutoRenew                bool                  `bun:"auto_renew"`
	NoticePeriodDays         int                   `bun:"notice_period_days"`
	AnnualValue              string                `bun:"annual_value"`
	Currency                 string                `bun:"currency"`
	GoverningLaw             string                `bun:"governing_law"`
	DPASigned                bool                  `bun:"dpa_signed"`
	Services                 []contractServiceJSON `bun:"services,type:jsonb"`
	SupportsCriticalFunction bool                  `bun:"supports_critical_function"`
	LEI                      string                `bun:"lei"`
	CreatedAt                time.Time             `bun:"created_at"`
	UpdatedAt                time.Time             `bun:"updated_at"`
}

// contractServiceJSON is the stored shape of one entry of services, with
// fixed keys that do not follow the core's Go names.
type contractServiceJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// fromContract makes the row of c.
func fromContract(c contracts.Contract) contractRow {
	svcs := make([]contractServiceJSON, len(c.Services))
	for i, s := range c.Services {
		svcs[i] = contractServiceJSON{Name: s.Name, Type: s.Type}
	}
	return contractRow{ID: c.ID, AccountID: c.AccountID, VendorID: c.VendorID, Reference: c.Reference,
		StartDate: c.Start.Format(time.DateOnly), EndDate: c.End.Format(time.DateOnly), AutoRenew: c.AutoRenew,
		NoticePeriodDays: c.NoticePeriodDays, AnnualValue: string(c.AnnualValue), Currency: c.Currency,
		GoverningLaw: c.GoverningLaw, DPASigned: c.DPASigned, Services: svcs, SupportsCriticalFunction: c.SupportsCriticalFunction,
		LEI: c.LEI, CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC()}
}

// Core rebuilds the contract; a date that does not parse reads as the zero
// date rather than failing the read.
func (r contractRow) Core() contracts.Contract {
	svcs := make([]contracts.ServiceEntry, len(r.Services))
	for i, s := range r.Services {
		svcs[i] = contracts.ServiceEntry{Name: s.Name, Type: s.Type}
	}
	start, _ := time.Parse(time.DateOnly, r.StartDate)
	end, _ := time.Parse(time.DateOnly, r.EndDate)
	return contracts.FromStore(contracts.Contract{ID: r.ID, AccountID: r.AccountID, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
		Terms: contracts.Terms{VendorID: r.VendorID, Reference: r.Reference, Start: start, End: end, AutoRenew: r.AutoRenew,
			NoticePeriodDays: r.NoticePeriodDays, AnnualValue: contracts.Amount(r.AnnualValue), Currency: r.Currency,
			GoverningLaw: r.GoverningLaw, DPASigned: r.DPASigned, Services: svcs, SupportsCriticalFunction: r.SupportsCriticalFunction, LEI: r.LEI}})
}
