package memstore

import (
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/attestations"
)

type attestationsRepo struct{ *tx }

func cloneAttestation(a attestations.Attestation) attestations.Attestation {
	a.SubserviceOrganizations = slices.Clone(a.SubserviceOrganizations)
	a.CUECs = slices.Clone(a.CUECs)
	return attestations.AttestationFromStore(a)
}

func attestationOrder(a, b attestations.Attestation) int {
	return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), slices.Compare(a.ID[:], b.ID[:]))
}

func (r attestationsRepo) Create(_ context.Context, a attestations.Attestation) error {
	return r.atomic(func() error {
		if _, ok := r.d.attestations[a.ID]; ok {
			return conflict("attestation %s exists", a.ID)
		}
		if a.AccountID != uuid.Nil {
			if _, ok := r.d.accounts[a.AccountID]; !ok {
				return notFound("account", a.AccountID)
			}
		}
		if _, ok := r.d.vendors[a.VendorID]; !ok {
			return notFound("vendor", a.VendorID)
		}
		put(r.tx, r.d.attestations, a.ID, cloneAttestation(a))
		return nil
	})
}

func (r attestationsRepo) Get(_ context.Context, accountID, id uuid.UUID) (attestations.Attestation, error) {
	if err := r.readable(); err != nil {
		return attestations.Attestation{}, err
	}
	a, ok := r.d.attestations[id]
	if !ok || a.AccountID != accountID {
		return attestations.Attestation{}, notFound("attestation", id)
	}
	return cloneAttestation(a), nil
}

func (r attestationsRepo) scan(keep func(attestations.Attestation) bool) []attestations.Attestation {
	out := []attestations.Attestation{}
	for _, a := range r.d.attestations {
		if keep(a) {
			out = append(out, cloneAttestation(a))
		}
	}
	slices.SortFunc(out, attestationOrder)
	return out
}

func (r attestationsRepo) ForVendor(_ context.Context, accountID, vendorID uuid.UUID) ([]attestations.Attestation, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	return r.scan(func(a attestations.Attestation) bool {
		return a.VendorID == vendorID && (a.AccountID == accountID || a.AccountID == uuid.Nil)
	}), nil
}

func (r attestationsRepo) Delete(_ context.Context, accountID, id uuid.UUID) error {
	return r.atomic(func() error {
		if a, ok := r.d.attestations[id]; !ok || a.AccountID != accountID {
			return notFound("attestation", id)
		}
		del(r.tx, r.d.attestations, id)
		return nil
	})
}

func (r attestationsRepo) ListByAccount(_ context.Context, accountID uuid.UUID) ([]attestations.Attestation, error) {
	if err := r.readable(); err != nil {
		return nil, err
	}
	return r.scan(func(a attestations.Attestation) bool { return a.AccountID == accountID }), nil
}

func (r attestationsRepo) OnAccountLists(_ context.Context, accountID, vendorID uuid.UUID) (bool, error) {
	if err := r.readable(); err != nil {
		return false, err
	}
	for _, l := range r.d.listsByAccount.of(accountID) {
		if _, ok := r.d.entries[pair{l, vendorID}]; ok {
			return true, nil
		}
	}
	return false, nil
}
