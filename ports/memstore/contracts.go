package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/contracts"
)

type contractsRepo struct{ *tx }

func cloneContract(c contracts.Contract) contracts.Contract {
	c.Services = slices.Clone(c.Services)
	if c.Services == nil {
		c.Services = []contracts.ServiceEntry{}
	}
	c.VendorName = ""
	return c
}

func (r contractsRepo) Create(_ context.Context, c contracts.Contract) error {
	return r.atomic(func() error {
		if _, ok := r.d.contracts[c.ID]; ok {
			return conflict("contract %s exists", c.ID)
		}
		put(r.tx, r.d.contracts, c.ID, cloneContract(c))
		return nil
	})
}

func (r contractsRepo) Get(_ context.Context, accountID, id uuid.UUID) (contracts.Contract, error) {
	if err := r.readable(); err != nil {
		return contracts.Contract{}, err
	}
	c, ok := r.d.contracts[id]
	if !ok || c.AccountID != accountID {
		return contracts.Contract{}, notFound("contract", id)
	}
	return cloneContract(c), nil
}

func (r contractsRepo) List(_ context.Context, accountID, vendorID uuid.UUID) ([]contracts.Contract, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	out := []contracts.Contract{}
	for _, c := range r.d.contracts {
		if c.AccountID == accountID && (vendorID == uuid.Nil || c.VendorID == vendorID) {
			out = append(out, cloneContract(c))
		}
	}
	slices.SortFunc(out, func(a, b contracts.Contract) int {
		return cmp.Or(a.End.Compare(b.End), a.CreatedAt.Compare(b.CreatedAt), slices.Compare(a.ID[:], b.ID[:]))
	})
	return out, nil
}

func (r contractsRepo) Update(_ context.Context, c contracts.Contract) error {
	return r.atomic(func() error {
		old, ok := r.d.contracts[c.ID]
		if !ok || old.AccountID != c.AccountID {
			return notFound("contract", c.ID)
		}
		c = cloneContract(c)
		c.CreatedAt = old.CreatedAt
		put(r.tx, r.d.contracts, c.ID, c)
		return nil
	})
}

func (r contractsRepo) Delete(_ context.Context, accountID, id uuid.UUID) error {
	return r.atomic(func() error {
		if c, ok := r.d.contracts[id]; !ok || c.AccountID != accountID {
			return notFound("contract", id)
		}
		del(r.tx, r.d.contracts, id)
		return nil
	})
}

// deleteContractsOf removes an account's contracts with the account.
func (t *tx) deleteContractsOf(accountID uuid.UUID) {
	for id, c := range t.d.contracts {
		if c.AccountID == accountID {
			del(t, t.d.contracts, id)
		}
	}
}
