package lists_test

import (
	"context"
	"slices"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
)

// lockSpy is a unit of work that records whether the account was locked.
type lockSpy struct {
	lists.Tx
	locked *bool
}

func (t lockSpy) Accounts() accounts.AccountRepo { return lockSpyAccounts{t.Tx.Accounts(), t.locked} }

type lockSpyAccounts struct {
	accounts.AccountRepo
	locked *bool
}

func (r lockSpyAccounts) Lock(ctx context.Context, id uuid.UUID) error {
	*r.locked = true
	return r.AccountRepo.Lock(ctx, id)
}

func custom(n int) []vendors.Vendor {
	vs := make([]vendors.Vendor, n)
	for i := range vs {
		vs[i] = vendors.Vendor{ID: uuid.New(), Name: vendors.Name("Custom " + uuid.NewString())}
	}
	return vs
}

func TestEnrichmentQuota(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	s, acc, r := f.s, f.ref.ID, f.dir
	locked := false
	// queue queues vs in a unit of work that records whether the account
	// was locked.
	queue := func(vs []vendors.Vendor) (rep lists.QuotaReport, err error) {
		t.Helper()
		f.write(func(ctx context.Context, tx lists.Tx) error {
			if _, err := tx.Vendors().Ensure(ctx, vs); err != nil {
				return err
			}
			rep, err = s.QueueEnrichment(ctx, lockSpy{tx, &locked}, accounts.Actor{}, acc, vs)
			return err
		})
		return rep, err
	}

	// Up to the quota, every new custom vendor is claimed and queued.
	first := custom(lists.EnrichmentQuota - 2)
	rep, err := queue(first)
	if err != nil || rep.Queued != lists.EnrichmentQuota-2 || rep.Used != lists.EnrichmentQuota-2 || len(rep.Errors) != 0 || !locked {
		t.Fatalf("first save: %+v, %v (locked %v)", rep, err, locked)
	}

	// A vendor with a profile and one claimed before count as known; of
	// three new custom vendors two fit, the third is saved but refused.
	known := vendors.Vendor{ID: uuid.New(), Name: "Slack", HasProfile: true}
	more := custom(3)
	rep, err = queue(append([]vendors.Vendor{known, first[0]}, more...))
	if err != nil {
		t.Fatal(err)
	}
	if rep.AlreadyKnown != 2 || rep.Queued != 2 || rep.Used != lists.EnrichmentQuota || rep.Limit != lists.EnrichmentQuota || rep.Remaining() != 0 {
		t.Fatalf("second save: %+v", rep)
	}
	if len(rep.Errors) != 1 || rep.Errors[0].VendorName != more[2].Name.String() || rep.Errors[0].Code != "quota_exceeded" ||
		rep.Errors[0].Message != "saved, but not queued for enrichment: the account has used its quota of 500 custom vendors" {
		t.Fatalf("errors %+v", rep.Errors)
	}
	if len(r.started) != 2 || !slices.EqualFunc(r.started[1], more[:2], func(x, y vendors.Vendor) bool { return x.ID == y.ID }) {
		t.Fatalf("runs started %d, last %v", len(r.started), r.started[len(r.started)-1])
	}

	// Nothing custom: no lock taken, no run started.
	locked = false
	rep, err = queue([]vendors.Vendor{known})
	if err != nil || rep.Queued != 0 || rep.AlreadyKnown != 1 || locked || len(r.started) != 2 {
		t.Fatalf("known only: %+v, %v (locked %v)", rep, err, locked)
	}
}
