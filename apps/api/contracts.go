package api

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/contracts"
)

// DecimalJSON is an exact decimal number on the wire: a JSON number read
// and written digit for digit (never through a float), or null.
type DecimalJSON contracts.Amount

// Schema declares a nullable number.
func (DecimalJSON) Schema(huma.Registry) *huma.Schema {
	return &huma.Schema{Type: "number", Nullable: true, Minimum: new(float64), Description: "Exact decimal (at most 4 decimals, below 10^15); null when unknown",
		Examples: []any{120000.5}}
}

// MarshalJSON writes the number as stored.
func (d DecimalJSON) MarshalJSON() ([]byte, error) { return contracts.Amount(d).MarshalJSON() }

// UnmarshalJSON keeps the number's text as sent (the schema has checked
// that it is a number); the core checks its bounds, naming the field.
func (d *DecimalJSON) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		s = ""
	}
	*d = DecimalJSON(s)
	return nil
}

// ContractServiceJSON is one service a contract covers.
type ContractServiceJSON struct {
	Name string `json:"name" maxLength:"200"`
	Type string `json:"type" enum:"saas,iaas,paas,hosting,data_processing,payment,communication,security,consulting,support,other" doc:"The kind of service (the documented list, core/contracts/services.go)"`
}

// ContractFieldsJSON are the writable fields of a contract.
type ContractFieldsJSON struct {
	VendorID                 string                `json:"vendor_id" format:"uuid" doc:"A vendor on one of the account's lists"`
	Reference                string                `json:"reference,omitempty" maxLength:"200" doc:"The contract's own reference or name"`
	StartDate                string                `json:"start_date" doc:"Civil date, 2006-01-02" example:"2026-01-01"`
	EndDate                  string                `json:"end_date" doc:"Civil date, 2006-01-02, not before start_date; the last day the contract runs" example:"2026-12-31"`
	AutoRenew                bool                  `json:"auto_renew,omitempty" doc:"Renews by its term at its end"`
	NoticePeriodDays         int                   `json:"notice_period_days,omitempty" minimum:"0" maximum:"3650" doc:"Days before end_date by which notice must be given"`
	AnnualValue              DecimalJSON           `json:"annual_value,omitempty"`
	Currency                 string                `json:"currency,omitempty" doc:"ISO 4217 code; required with annual_value" example:"EUR"`
	GoverningLaw             string                `json:"governing_law,omitempty" doc:"ISO 3166-1 alpha-2 country code" example:"DE"`
	DPASigned                bool                  `json:"dpa_signed,omitempty" doc:"A data processing agreement is signed"`
	Services                 []ContractServiceJSON `json:"services,omitempty" maxItems:"50"`
	SupportsCriticalFunction bool                  `json:"supports_critical_function,omitempty" doc:"The services support a critical or important function (DORA)"`
	LEI                      string                `json:"lei,omitempty" doc:"The provider's Legal Entity Identifier (ISO 17442, check digits verified); empty when unknown"`
}

func (f ContractFieldsJSON) input() contracts.Input {
	svcs := make([]contracts.ServiceEntry, len(f.Services))
	for i, s := range f.Services {
		svcs[i] = contracts.ServiceEntry{Name: s.Name, Type: s.Type}
	}
	return contracts.Input{VendorID: f.VendorID, Reference: f.Reference, StartDate: f.StartDate, EndDate: f.EndDate,
		AutoRenew: f.AutoRenew, NoticePeriodDays: f.NoticePeriodDays, AnnualValue: contracts.Amount(f.AnnualValue),
		Currency: f.Currency, GoverningLaw: f.GoverningLaw, DPASigned: f.DPASigned, Services: svcs,
		SupportsCriticalFunction: f.SupportsCriticalFunction, LEI: f.LEI}
}

// ContractJSON is a contract as the API answers it: its fields, with
// start_date and end_date the current period (rolled forward for an
// auto-renewing contract past its end), and what is derived from them.
type ContractJSON struct {
	ID                       string                `json:"id" format:"uuid"`
	VendorID                 string                `json:"vendor_id" format:"uuid"`
	VendorName               string                `json:"vendor_name"`
	Reference                string                `json:"reference"`
	StartDate                string                `json:"start_date" doc:"The current period's first day"`
	EndDate                  string                `json:"end_date" doc:"The current period's last day"`
	AutoRenew                bool                  `json:"auto_renew"`
	NoticePeriodDays         int                   `json:"notice_period_days"`
	AnnualValue              DecimalJSON           `json:"annual_value"`
	Currency                 string                `json:"currency"`
	GoverningLaw             string                `json:"governing_law"`
	DPASigned                bool                  `json:"dpa_signed"`
	Services                 []ContractServiceJSON `json:"services"`
	SupportsCriticalFunction bool                  `json:"supports_critical_function"`
	LEI                      string                `json:"lei"`
	NoticeDeadline           string                `json:"notice_deadline" doc:"end_date minus notice_period_days"`
	State                    string                `json:"state" enum:"active,notice_due,expired" doc:"notice_due from 90 days before notice_deadline until end_date; expired after end_date (never when auto_renew)"`
	CreatedAt                time.Time             `json:"created_at"`
	UpdatedAt                time.Time             `json:"updated_at"`
}

func contractJSON(v contracts.View) ContractJSON {
	svcs := make([]ContractServiceJSON, len(v.Services))
	for i, s := range v.Services {
		svcs[i] = ContractServiceJSON{Name: s.Name, Type: s.Type}
	}
	return ContractJSON{ID: v.ID.String(), VendorID: v.VendorID.String(), VendorName: v.VendorName, Reference: v.Reference,
		StartDate: v.Derived.Start.Format(time.DateOnly), EndDate: v.Derived.End.Format(time.DateOnly), AutoRenew: v.AutoRenew,
		NoticePeriodDays: v.NoticePeriodDays, AnnualValue: DecimalJSON(v.AnnualValue), Currency: v.Currency,
		GoverningLaw: v.GoverningLaw, DPASigned: v.DPASigned, Services: svcs, SupportsCriticalFunction: v.SupportsCriticalFunction,
		LEI: v.LEI, NoticeDeadline: v.NoticeDeadline.Format(time.DateOnly), State: string(v.State),
		CreatedAt: v.CreatedAt, UpdatedAt: v.UpdatedAt}
}

// ContractParam names a contract.
type ContractParam struct {
	ContractID string `query:"contract-id" required:"true" doc:"The contract's id" format:"uuid"`
}

func (p ContractParam) contractID() (uuid.UUID, error) {
	return accounts.ParseID("contract-id", p.ContractID)
}

type contractsListIn struct {
	AccountParam
	VendorID string `query:"vendor-id" doc:"Only the contracts with this vendor" format:"uuid"`
}

type contractsListOut struct {
	Body struct {
		Contracts []ContractJSON `json:"contracts" doc:"By end date"`
	}
}

type contractsCreateIn struct {
	AccountParam
	Body ContractFieldsJSON
}

type contractOut struct {
	Body ContractJSON
}

type contractsPatchIn struct {
	AccountParam
	ContractParam
	Body map[string]json.RawMessage `doc:"JSON merge patch (RFC 7396) of the writable fields; derived fields (id, vendor_name, notice_deadline, state, created_at, updated_at) are ignored, so a contract as GET returned it is accepted"`
}

type contractsDeleteIn struct {
	AccountParam
	ContractParam
}

// contractsHandler answers the Contracts operations with the contracts
// area of the core.
type contractsHandler struct{ *Server }

// listContracts answers list-contracts.
func (h contractsHandler) listContracts(ctx context.Context, in *contractsListIn) (*contractsListOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	var vendor uuid.UUID
	if strings.TrimSpace(in.VendorID) != "" {
		if vendor, err = accounts.ParseID("vendor-id", in.VendorID); err != nil {
			return nil, err
		}
	}
	vs, err := h.contracts.List(ctx, actor(ctx), acc, vendor)
	if err != nil {
		return nil, err
	}
	out := &contractsListOut{}
	out.Body.Contracts = make([]ContractJSON, len(vs))
	for i, v := range vs {
		out.Body.Contracts[i] = contractJSON(v)
	}
	return out, nil
}

// createContract answers create-contract.
func (h contractsHandler) createContract(ctx context.Context, in *contractsCreateIn) (*contractOut, error) {
	acc, err := in.accountRef()
	if err != nil {
		return nil, err
	}
	v, err := h.contracts.Create(ctx, actor(ctx), acc, in.Body.input())
	if err != nil {
		return nil, err
	}
	return &contractOut{Body: contractJSON(v)}, nil
}

// patchContract answers patch-contract.
func (h contractsHandler) patchContract(ctx context.Context, in *contractsPatchIn) (*contractOut, error) {
	acc, id, err := accountAnd(in.AccountParam, in.contractID)
	if err != nil {
		return nil, err
	}
	v, err := h.contracts.Patch(ctx, actor(ctx), acc, id, in.Body)
	if err != nil {
		return nil, err
	}
	return &contractOut{Body: contractJSON(v)}, nil
}

// deleteContract answers delete-contract.
func (h contractsHandler) deleteContract(ctx context.Context, in *contractsDeleteIn) (*struct{}, error) {
	acc, id, err := accountAnd(in.AccountParam, in.contractID)
	if err != nil {
		return nil, err
	}
	return nil, h.contracts.Delete(ctx, actor(ctx), acc, id)
}
