package csvimport

// The dry-run quota rule: a dry run reports the enrichment quota as the
// real import will spend it. The API rolls each dry-run request back, so
// every batch of a dry run starts from the quota as it was before the
// import: each would queue up to the whole quota, and a vendor repeated in
// a later batch would be queued again. dryQuota replays the batches
// instead: the vendors a batch would queue or refuse for the quota
// (org_enrichment.queued_vendors and its quota_exceeded errors), less
// those an earlier batch already took, are queued while the quota the
// first answer left lasts, and the rest are not queued
// (quota_exceeded), in their order. The summary's used and remaining are
// the replay's. Other counts of a dry run (vendors added, already known)
// still count a vendor repeated across batches once per batch.

// quotaExceeded is the API's code of a vendor saved past the quota.
const quotaExceeded = "quota_exceeded"

type dryQuota struct {
	started   bool
	quota     Quota           // as the real import would leave it so far
	seen      map[string]bool // vendors an earlier batch queued or refused
	exceeded  EnrichmentError // a refusal of the API, to copy for a replayed one
	haveError bool
}

// replay turns one dry-run answer into what the real import's batch would
// answer: queued vendors, and vendors not queued for the quota.
func (d *dryQuota) replay(queued []string, errs []EnrichmentError, q Quota) (int, []EnrichmentError, Quota) {
	if !d.started {
		// Nothing is spent before the first batch: its answer's used less
		// what it queued is what the account had used.
		d.started = true
		d.seen = map[string]bool{}
		d.quota = Quota{Limit: q.Limit, Used: q.Used - len(queued)}
	}
	var (
		n    int
		kept []EnrichmentError
	)
	take := func(name string) bool {
		if d.seen[name] {
			return false
		}
		d.seen[name] = true
		return true
	}
	place := func(name string) {
		if d.quota.Used < d.quota.Limit {
			d.quota.Used++
			n++
			return
		}
		e := d.exceeded
		if !d.haveError {
			e = EnrichmentError{Code: quotaExceeded, Message: "saved, but not queued for enrichment: the account has used its enrichment quota"}
		}
		e.VendorName = name
		kept = append(kept, e)
	}
	for _, name := range queued {
		if take(name) {
			place(name)
		}
	}
	for _, e := range errs {
		if e.Code != quotaExceeded {
			kept = append(kept, e)
			continue
		}
		if !d.haveError {
			d.exceeded, d.haveError = e, true
		}
		if take(e.VendorName) {
			place(e.VendorName)
		}
	}
	d.quota.Remaining = max(d.quota.Limit-d.quota.Used, 0)
	return n, kept, d.quota
}
