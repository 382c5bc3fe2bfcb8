package contracts

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/uow"
)

// Deps are the ports the contract use cases need.
type Deps struct {
	uow.Unit[Tx]
}

// Service implements the contract use cases.
type Service struct{ d Deps }

// NewService checks the dependencies and returns the service.
func NewService(d Deps) (*Service, error) {
	if missing := d.Missing(); len(missing) > 0 {
		return nil, errors.New("contracts: missing dependencies: " + strings.Join(missing, ", "))
	}
	return &Service{d: d}, nil
}

// View is a contract with what its dates say today.
type View struct {
	Contract
	Derived
}

func (s *Service) view(c Contract) View {
	return View{Contract: c, Derived: c.Derive(civil(s.d.Now()))}
}

// Create records a contract of the account with a vendor on one of its
// lists. Member or above.
func (s *Service) Create(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, in Input) (View, error) {
	t, err := in.Check()
	if err != nil {
		return View{}, err
	}
	var c Contract
	err = s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.WriteRole)
		if err != nil {
			return err
		}
		now := s.d.Now()
		c = Contract{ID: s.d.IDs.New(), AccountID: acc.Account.ID, Terms: t, CreatedAt: now, UpdatedAt: now}
		if c.VendorName, err = vendorOnLists(ctx, tx, acc.Account.ID, t.VendorID); err != nil {
			return err
		}
		return tx.Contracts().Create(ctx, c)
	})
	if err != nil {
		return View{}, err
	}
	return s.view(c), nil
}

// List returns the account's contracts, of one vendor when vendorID is not
// uuid.Nil. Viewer or above.
func (s *Service) List(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, vendorID uuid.UUID) ([]View, error) {
	var cs []Contract
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.ReadRole)
		if err != nil {
			return err
		}
		if cs, err = tx.Contracts().List(ctx, acc.Account.ID, vendorID); err != nil {
			return err
		}
		return nameVendors(ctx, tx, cs)
	})
	out := make([]View, len(cs))
	for i, c := range cs {
		out[i] = s.view(c)
	}
	return out, err
}

// Patch applies a JSON merge patch to a contract (see Apply). Member or
// above.
func (s *Service) Patch(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID, patch map[string]json.RawMessage) (View, error) {
	var c Contract
	err := s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.WriteRole)
		if err != nil {
			return err
		}
		if c, err = tx.Contracts().Get(ctx, acc.Account.ID, id); err != nil {
			return err
		}
		t, err := Apply(c, civil(s.d.Now()), patch)
		if err != nil {
			return err
		}
		// The vendor is checked when it changes: a contract whose vendor
		// has left the account's lists since stays editable.
		if t.VendorID != c.VendorID {
			if _, err = vendorOnLists(ctx, tx, acc.Account.ID, t.VendorID); err != nil {
				return err
			}
		}
		c.Terms, c.UpdatedAt = t, s.d.Now()
		if err := tx.Contracts().Update(ctx, c); err != nil {
			return err
		}
		one := []Contract{c}
		if err := nameVendors(ctx, tx, one); err != nil {
			return err
		}
		c = one[0]
		return nil
	})
	if err != nil {
		return View{}, err
	}
	return s.view(c), nil
}

// Delete removes a contract. Member or above.
func (s *Service) Delete(ctx context.Context, a accounts.Actor, ref accounts.AccountRef, id uuid.UUID) error {
	return s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		acc, err := accounts.Authorize(ctx, tx, a, ref, accounts.WriteRole)
		if err != nil {
			return err
		}
		return tx.Contracts().Delete(ctx, acc.Account.ID, id)
	})
}

// vendorOnLists returns the name of a vendor on one of the account's
// lists; a vendor on none of them is core.ErrInvalid on vendor_id.
func vendorOnLists(ctx context.Context, tx Tx, accountID, vendorID uuid.UUID) (string, error) {
	ls, err := tx.Lists().ListByAccount(ctx, accountID)
	if err != nil {
		return "", err
	}
	for _, l := range ls {
		es, err := tx.Lists().EntriesOf(ctx, l.ID, []uuid.UUID{vendorID})
		if err != nil {
			return "", err
		}
		if len(es) > 0 {
			return es[0].VendorName, nil
		}
	}
	return "", core.Invalid("Contract.VendorID", "is not a vendor on one of the account's lists")
}

// nameVendors fills the contracts' VendorName from the directory.
func nameVendors(ctx context.Context, tx Tx, cs []Contract) error {
	ids := make([]uuid.UUID, 0, len(cs))
	seen := map[uuid.UUID]bool{}
	for _, c := range cs {
		if !seen[c.VendorID] {
			seen[c.VendorID] = true
			ids = append(ids, c.VendorID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	vs, err := tx.Vendors().ListByIDs(ctx, ids)
	if err != nil {
		return err
	}
	names := make(map[uuid.UUID]string, len(vs))
	for _, v := range vs {
		names[v.ID] = v.Name.String()
	}
	for i := range cs {
		cs[i].VendorName = names[cs[i].VendorID]
	}
	return nil
}
