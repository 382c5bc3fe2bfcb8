package incidents

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/vendors"
)

// MaxPossiblePage is the most possible matches one read returns.
const MaxPossiblePage = 500

// PossibleMatches lists the possible matches of a status (pending when
// empty), newest first, at most limit (platform admins).
func (s *Service) PossibleMatches(ctx context.Context, a accounts.Actor, status string, limit int) ([]PossibleMatch, error) {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return nil, err
	}
	if status == "" {
		status = PossiblePending
	}
	switch status {
	case PossiblePending, PossibleConfirmed, PossibleDismissed:
	default:
		return nil, core.Invalid("Status", "must be one of %s, %s, %s", PossiblePending, PossibleConfirmed, PossibleDismissed)
	}
	if limit <= 0 || limit > MaxPossiblePage {
		limit = MaxPossiblePage
	}
	var out []PossibleMatch
	err := s.d.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		out, err = tx.Possible().List(ctx, status, limit)
		return err
	})
	return out, err
}

// ConfirmPossible makes a pending possible match the vendor's incident
// (platform admins): merged into the incident of its event when there is
// one, and alerted as any new incident unless it came from a source's
// first poll. It returns the decided match and the incident.
func (s *Service) ConfirmPossible(ctx context.Context, a accounts.Actor, id uuid.UUID) (PossibleMatch, vendors.Incident, error) {
	var (
		p  PossibleMatch
		in vendors.Incident
	)
	err := s.decide(ctx, a, id, func(ctx context.Context, tx Tx, cur PossibleMatch) (PossibleMatch, error) {
		d := cur.Draft
		it := item{source: Source(d.Source), draft: d}
		for _, k := range d.Keys {
			if !strings.HasPrefix(k, keySource) {
				it.keys = append(it.keys, k)
			}
		}
		vm := VendorMatch{VendorID: d.VendorID, Vendor: cur.VendorName, AffectedService: d.AffectedService}
		if d.Match != nil {
			vm.Match = Match(*d.Match)
		}
		var err error
		if in, _, err = s.record(ctx, tx, it, vm, d.Backfilled); err != nil {
			return cur, err
		}
		if in.ID == uuid.Nil {
			return cur, core.Conflict("the incident of possible match %s cannot be made: its vendor or title is gone", cur.ID)
		}
		cur.Status, cur.IncidentID = PossibleConfirmed, in.ID
		p = cur
		return cur, nil
	})
	return p, in, err
}

// DismissPossible closes a pending possible match without an incident
// (platform admins).
func (s *Service) DismissPossible(ctx context.Context, a accounts.Actor, id uuid.UUID) (PossibleMatch, error) {
	var p PossibleMatch
	err := s.decide(ctx, a, id, func(_ context.Context, _ Tx, cur PossibleMatch) (PossibleMatch, error) {
		cur.Status = PossibleDismissed
		p = cur
		return cur, nil
	})
	return p, err
}

// decide applies a platform admin's decision to a pending possible match
// in one unit of work.
func (s *Service) decide(ctx context.Context, a accounts.Actor, id uuid.UUID,
	apply func(ctx context.Context, tx Tx, p PossibleMatch) (PossibleMatch, error)) error {
	if err := accounts.RequirePlatformAdmin(a); err != nil {
		return err
	}
	return s.d.Write(ctx, func(ctx context.Context, tx Tx) error {
		cur, err := tx.Possible().Get(ctx, id)
		if err != nil {
			return err
		}
		if cur.Status != PossiblePending {
			return errNotPending(cur)
		}
		cur.DecidedAt, cur.DecidedBy = s.d.Now(), a.Email
		if cur, err = apply(ctx, tx, cur); err != nil {
			return err
		}
		return tx.Possible().Save(ctx, cur)
	})
}
