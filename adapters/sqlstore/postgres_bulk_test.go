package sqlstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// bulkWorld is an account with a list and n vendors on it, ready for bulk calls.
type bulkWorld struct {
	org   accounts.Account
	l     lists.List
	vs    []vendors.Vendor
	users []accounts.User
}

func (e *env) bulkWorld(n int) bulkWorld {
	e.t.Helper()
	org := e.org("Org " + uuid.NewString())
	l := e.list(org.ID, lists.MasterList)
	vs := e.ensure(e.newVendors("V"+uuid.NewString()[:8], n)...)
	e.onList(l.ID, vs...)
	users := make([]accounts.User, n)
	for i := range users {
		users[i] = accounts.User{ID: newID(), Email: fmt.Sprintf("u%d-%s@example.com", i, uuid.NewString()[:8]), CreatedAt: e.now}
	}
	e.write(func(ctx context.Context, tx stores.Tx) error {
		for _, u := range users {
			if err := tx.Users().Save(ctx, u); err != nil {
				return err
			}
		}
		return nil
	})
	return bulkWorld{org: org, l: l, vs: vs, users: users}
}

// bulkOps are the set-based calls: each gets a fresh world of n rows.
func bulkOps(e *env) []struct {
	name string
	op   func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error
} {
	return []struct {
		name string
		op   func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error
	}{
		{"Vendors.Ensure new and existing", func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error {
			in := append(e.newVendors("N"+uuid.NewString()[:8], len(w.vs)), w.vs...)
			return func(ctx context.Context, tx stores.Tx) error { _, err := tx.Vendors().Ensure(ctx, in); return err }
		}},
		{"Lists.AddEntries", func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error {
			l := e.list(w.org.ID, "other "+uuid.NewString())
			return func(ctx context.Context, tx stores.Tx) error {
				return tx.Lists().AddEntries(ctx, l.ID, vendorIDs(w.vs), e.now)
			}
		}},
		{"Lists.RemoveEntries", func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error {
			return func(ctx context.Context, tx stores.Tx) error {
				return tx.Lists().RemoveEntries(ctx, w.l.ID, vendorIDs(w.vs))
			}
		}},
		{"Lists.MergeProducts", func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error {
			ps := make([]lists.Product, len(w.vs))
			for i, v := range w.vs {
				ps[i] = e.newProduct(w.l.ID, v.ID, "Product")
			}
			return func(ctx context.Context, tx stores.Tx) error { _, err := tx.Lists().MergeProducts(ctx, ps); return err }
		}},
		{"Assessments.Save", func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error {
			as := make([]assessments.Assessment, len(w.vs))
			for i, v := range w.vs {
				as[i] = e.newAssessment(w.l, v)
			}
			return func(ctx context.Context, tx stores.Tx) error { return tx.Assessments().Save(ctx, as) }
		}},
		{"Assessments.AppendEvents", func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error {
			a := e.newAssessment(w.l, w.vs[0])
			e.write(func(ctx context.Context, tx stores.Tx) error {
				return tx.Assessments().Save(ctx, []assessments.Assessment{a})
			})
			es := make([]assessments.AuditEvent, len(w.vs))
			for i := range es {
				es[i] = assessments.AuditEvent{ID: newID(), AssessmentID: a.ID, AccountID: w.org.ID, CreatedAt: e.now,
					Changes: []assessments.Change{{Field: "use_case", NewValue: fmt.Sprint(i)}}}
			}
			return func(ctx context.Context, tx stores.Tx) error { return tx.Assessments().AppendEvents(ctx, es) }
		}},
		{"Quota.Claim", func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error {
			return func(ctx context.Context, tx stores.Tx) error {
				return tx.Quota().Claim(ctx, w.org.ID, vendorIDs(w.vs), e.now)
			}
		}},
		{"Incidents.Merge", func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error {
			ins := make([]vendors.Incident, len(w.vs))
			for i, v := range w.vs {
				ins[i], _ = vendors.NewIncident(vendors.Incident{ID: newID(), VendorID: v.ID, Title: "t", Source: "feed",
					ExternalID: fmt.Sprint(i), PublishedAt: e.now, CreatedAt: e.now})
			}
			return func(ctx context.Context, tx stores.Tx) error { _, err := tx.Incidents().Merge(ctx, ins); return err }
		}},
		{"Members.Put", func(w bulkWorld) func(ctx context.Context, tx stores.Tx) error {
			ms := make([]accounts.Member, len(w.users))
			for i, u := range w.users {
				ms[i] = accounts.Member{AccountID: w.org.ID, UserID: u.ID, Role: accounts.RoleMember, CreatedAt: e.now}
			}
			return func(ctx context.Context, tx stores.Tx) error { return tx.Members().Put(ctx, ms) }
		}},
	}
}

// TestBulkRoundTrips checks that every set-based call sends as many
// statements for 200 rows as for 1.
func TestBulkRoundTrips(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	stmts := sqlstore.CountStatements(e.s)
	for i, tc := range bulkOps(e) {
		t.Run(tc.name, func(t *testing.T) {
			// The same store, with this subtest's t for failures.
			e := &env{t: t, s: e.s, ctx: e.ctx, now: e.now}
			tc := bulkOps(e)[i]
			count := func(w bulkWorld) int64 {
				fn := tc.op(w)
				var n int64
				e.write(func(ctx context.Context, tx stores.Tx) error {
					before := stmts.Load()
					err := fn(ctx, tx)
					n = stmts.Load() - before
					return err
				})
				return n
			}
			one, many := count(e.bulkWorld(1)), count(e.bulkWorld(200))
			if one != many || many > 2 {
				t.Errorf("%d statements for 1 row, %d for 200 rows; want the same, at most 2", one, many)
			}
		})
	}
}
