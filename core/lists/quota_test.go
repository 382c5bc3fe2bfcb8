package lists

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
)

// quotaTx keeps one account's claims; the rest of Tx is unused.
type quotaTx struct {
	Tx
	claims map[uuid.UUID]bool
	locked bool
}

func (t *quotaTx) Accounts() accounts.AccountRepo { return quotaAccounts{t: t} }
func (t *quotaTx) Quota() QuotaRepo               { return quotaRepo{t: t} }

type quotaAccounts struct {
	accounts.AccountRepo
	t *quotaTx
}

func (r quotaAccounts) Lock(context.Context, uuid.UUID) error { r.t.locked = true; return nil }

type quotaRepo struct{ t *quotaTx }

func (r quotaRepo) Used(context.Context, uuid.UUID) (int, error) { return len(r.t.claims), nil }

func (r quotaRepo) Claimed(_ context.Context, _ uuid.UUID, ids []uuid.UUID) ([]uuid.UUID, error) {
	var out []uuid.UUID
	for _, id := range ids {
		if r.t.claims[id] {
			out = append(out, id)
		}
	}
	return out, nil
}

func (r quotaRepo) Claim(_ context.Context, _ uuid.UUID, ids []uuid.UUID, _ time.Time) error {
	for _, id := range ids {
		r.t.claims[id] = true
	}
	return nil
}

// runs records the enrichment runs started.
type runs struct{ started [][]vendors.Vendor }

func (r *runs) EnsureVendors(context.Context, vendors.Tx, []vendors.VendorRef) ([]vendors.Vendor, error) {
	return nil, nil
}

func (r *runs) StartEnrichRun(_ context.Context, _ vendors.Tx, _ string, vs []vendors.Vendor, _ []string, _ ...vendors.RunJob) (vendors.Run, error) {
	r.started = append(r.started, vs)
	return vendors.Run{}, nil
}

type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC) }

func custom(n int) []vendors.Vendor {
	vs := make([]vendors.Vendor, n)
	for i := range vs {
		vs[i] = vendors.Vendor{ID: uuid.New(), Name: vendors.Name("Custom " + uuid.NewString())}
	}
	return vs
}

func TestEnrichmentQuota(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := &runs{}
	s := &Service{d: Deps{Unit: uow.Unit[Tx]{Clock: fixedClock{}}, Directory: r}}
	tx := &quotaTx{claims: map[uuid.UUID]bool{}}
	acc := uuid.New()

	// Up to the quota, every new custom vendor is claimed and queued.
	first := custom(EnrichmentQuota - 2)
	rep, err := s.QueueEnrichment(ctx, tx, accounts.Actor{}, acc, first)
	if err != nil || rep.Queued != EnrichmentQuota-2 || rep.Used != EnrichmentQuota-2 || len(rep.Errors) != 0 || !tx.locked {
		t.Fatalf("first save: %+v, %v (locked %v)", rep, err, tx.locked)
	}

	// A vendor with a profile and one claimed before count as known; of
	// three new custom vendors two fit, the third is saved but refused.
	known := vendors.Vendor{ID: uuid.New(), Name: "Slack", HasProfile: true}
	more := custom(3)
	rep, err = s.QueueEnrichment(ctx, tx, accounts.Actor{}, acc, append([]vendors.Vendor{known, first[0]}, more...))
	if err != nil {
		t.Fatal(err)
	}
	if rep.AlreadyKnown != 2 || rep.Queued != 2 || rep.Used != EnrichmentQuota || rep.Limit != EnrichmentQuota || rep.Remaining() != 0 {
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
	tx.locked = false
	rep, err = s.QueueEnrichment(ctx, tx, accounts.Actor{}, acc, []vendors.Vendor{known})
	if err != nil || rep.Queued != 0 || rep.AlreadyKnown != 1 || tx.locked || len(r.started) != 2 {
		t.Fatalf("known only: %+v, %v (locked %v)", rep, err, tx.locked)
	}
}
