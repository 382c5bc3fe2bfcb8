package lists

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/vendors"
)

// EnrichmentQuota is the number of distinct custom vendors an organization
// may have queued for enrichment, over its lifetime. A custom vendor past
// the quota is still saved on the list, just not enriched.
const EnrichmentQuota = 500

// quotaExceeded is the message of a vendor saved past the quota.
var quotaExceeded = fmt.Sprintf("saved, but not queued for enrichment: the account has used its quota of %d custom vendors", EnrichmentQuota)

// QueueEnrichment claims quota for the custom vendors among vs and queues an
// enrichment run for them. A vendor the account has claimed before, or one
// that already has a profile, counts as already known.
func (s *Service) QueueEnrichment(ctx context.Context, tx Tx, a accounts.Actor, accountID uuid.UUID, vs []vendors.Vendor) (QuotaReport, error) {
	rep := QuotaReport{Limit: EnrichmentQuota, Errors: []QuotaError{}}
	var custom []uuid.UUID
	for _, v := range vs {
		if v.IsCustom() {
			custom = append(custom, v.ID)
		} else {
			rep.AlreadyKnown++
		}
	}
	if len(custom) > 0 {
		// Reading what is used and claiming more is one decision per
		// account: concurrent saves queue up here, so the quota holds.
		if err := tx.Accounts().Lock(ctx, accountID); err != nil {
			return rep, err
		}
	}
	used, err := tx.Quota().Used(ctx, accountID)
	if err != nil {
		return rep, err
	}
	claimed, err := tx.Quota().Claimed(ctx, accountID, custom)
	if err != nil {
		return rep, err
	}
	had := make(map[uuid.UUID]bool, len(claimed))
	for _, id := range claimed {
		had[id] = true
	}
	var queue []vendors.Vendor
	var claim []uuid.UUID
	for _, v := range vs {
		if !v.IsCustom() {
			continue
		}
		if had[v.ID] {
			rep.AlreadyKnown++
			continue
		}
		if used+len(claim) >= EnrichmentQuota {
			rep.Errors = append(rep.Errors, QuotaError{VendorName: v.Name.String(), Code: "quota_exceeded",
				Message: quotaExceeded})
			continue
		}
		claim = append(claim, v.ID)
		queue = append(queue, v)
	}
	if err := tx.Quota().Claim(ctx, accountID, claim, s.d.Now()); err != nil {
		return rep, err
	}
	rep.Queued = len(queue)
	rep.QueuedVendors = make([]string, 0, len(queue))
	for _, v := range queue {
		rep.QueuedVendors = append(rep.QueuedVendors, v.Name.String())
	}
	rep.Used = used + len(claim)
	if len(queue) > 0 {
		if _, err := s.d.Directory.StartEnrichRun(ctx, tx, a.Email, queue, vendors.SectionValues()); err != nil {
			return rep, err
		}
	}
	return rep, nil
}
