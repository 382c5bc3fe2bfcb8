package assessments_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/mailtmpl"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/signedlink"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
)

// fixture is one organization on the memory store: an owner and a viewer,
// the master list and Slack in the directory, with the assessment service
// wired to a real lists and directory service on the same store.
type fixture struct {
	s            *assessments.Service
	st           *memstore.Store
	blobs        *blobStore
	mail         *mailbox
	hooks        *hooks
	probe        *probe
	owner, viewr accounts.Actor
	acc          accounts.Account
	ref          accounts.AccountRef
	list         lists.List
	slack        vendors.Vendor
	t            *testing.T
}

// hooks are the webhook events the units of work recorded.
type hooks struct {
	mu  sync.Mutex
	evs []domainevent.Event
}

func (h *hooks) all() []domainevent.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]domainevent.Event(nil), h.evs...)
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	f := fixture{owner: accounts.Actor{UserID: uuid.New(), Email: "ann@acme.test"}, viewr: accounts.Actor{UserID: uuid.New(), Email: "vic@acme.test"},
		st: memstore.New(), blobs: &blobStore{objects: map[string]int64{}}, mail: &mailbox{}, hooks: &hooks{}, probe: &probe{}, t: t}
	f.acc = accounts.Account{ID: uuid.New(), Name: "Acme", Active: true}
	f.ref = accounts.AccountRef{ID: f.acc.ID}
	f.list = lists.List{ID: uuid.New(), AccountID: f.acc.ID, Name: lists.MasterList}
	f.slack = vendors.Vendor{ID: uuid.New(), Name: "Slack"}
	f.write(func(ctx context.Context, tx assessments.Tx) error {
		if err := tx.Accounts().Create(ctx, f.acc); err != nil {
			return err
		}
		for a, role := range map[accounts.Actor]accounts.Role{f.owner: accounts.RoleOwner, f.viewr: accounts.RoleViewer} {
			if err := tx.Users().Save(ctx, accounts.User{ID: a.UserID, Email: a.Email}); err != nil {
				return err
			}
			if err := tx.Members().Put(ctx, []accounts.Member{{AccountID: f.acc.ID, UserID: a.UserID, Role: role}}); err != nil {
				return err
			}
		}
		if err := tx.Lists().Create(ctx, f.list); err != nil {
			return err
		}
		_, err := tx.Vendors().Ensure(ctx, []vendors.Vendor{f.slack})
		return err
	})
	signer, err := signedlink.New([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	h := f.hooks
	record := func(_ context.Context, _ assessments.Tx, ev domainevent.Event) error {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.evs = append(h.evs, ev)
		return nil
	}
	unit := probed{ports.Narrow[assessments.Tx](f.st), f.probe}
	dir, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: ports.Narrow[vendors.Tx](f.st), Clock: clock{}, IDs: ports.UUIDv7{}},
		Enricher: noEnricher{}, Incidents: noIncidents{}})
	if err != nil {
		t.Fatal(err)
	}
	ls, err := lists.NewService(lists.Deps{Unit: uow.Unit[lists.Tx]{Store: ports.Narrow[lists.Tx](f.st), Clock: clock{}, IDs: ports.UUIDv7{}}, Directory: dir,
		Files: func(context.Context, lists.Tx, uuid.UUID, uuid.UUID) ([]string, error) { return nil, nil }})
	if err != nil {
		t.Fatal(err)
	}
	f.s, err = assessments.NewService(assessments.Deps{Unit: uow.Unit[assessments.Tx]{Store: unit, Clock: clock{}, IDs: ports.UUIDv7{}, Events: record}, Blobs: f.blobs, Lists: ls,
		Mail: mailonce.Mail[assessments.Tx]{Store: unit, Clock: clock{}, Mailer: f.mail}, Signer: signer, PublicURL: "https://vetted.test"})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// write runs fn in a unit of work on the store; read in a read-only one.
func (f fixture) write(fn func(context.Context, assessments.Tx) error) {
	f.t.Helper()
	if err := ports.Narrow[assessments.Tx](f.st).InTx(f.t.Context(), fn); err != nil {
		f.t.Fatal(err)
	}
}

func (f fixture) read(fn func(context.Context, assessments.Tx) error) {
	f.t.Helper()
	if err := ports.Narrow[assessments.Tx](f.st).View(f.t.Context(), fn); err != nil {
		f.t.Fatal(err)
	}
}

// assessment returns the vendor's assessment on the master list.
func (f fixture) assessment(vendorID uuid.UUID) (a assessments.Assessment) {
	f.t.Helper()
	f.read(func(ctx context.Context, tx assessments.Tx) error {
		as, err := tx.Assessments().ListByVendors(ctx, f.list.ID, []uuid.UUID{vendorID})
		if err == nil && len(as) != 1 {
			err = core.NotFound("no assessment of %s", vendorID)
		}
		if err == nil {
			a = as[0]
		}
		return err
	})
	return a
}

// reviewed sets when the vendor's assessment was last reviewed.
func (f fixture) reviewed(vendorID uuid.UUID, at time.Time) {
	f.t.Helper()
	a := f.assessment(vendorID)
	a.LastReviewedAt = at
	f.write(func(ctx context.Context, tx assessments.Tx) error {
		return tx.Assessments().Save(ctx, []assessments.Assessment{a})
	})
}

// audited counts the audit events of an assessment.
func (f fixture) audited(id uuid.UUID) (n int) {
	f.t.Helper()
	f.read(func(ctx context.Context, tx assessments.Tx) (err error) {
		_, n, err = tx.Assessments().Events(ctx, id, 0, 1)
		return err
	})
	return n
}

// outbox returns what the units of work queued since clearOutbox.
func (f fixture) outbox() []outbox.Message { return f.st.Undelivered() }

// clearOutbox marks every queued message delivered.
func (f fixture) clearOutbox() {
	f.t.Helper()
	var ids []uuid.UUID
	for _, m := range f.outbox() {
		ids = append(ids, m.ID)
	}
	f.write(func(ctx context.Context, tx assessments.Tx) error {
		return tx.Outbox().MarkDelivered(ctx, ids, clock{}.Now())
	})
}

// addVendors puts vendors in the directory.
func (f fixture) addVendors(vs ...vendors.Vendor) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx assessments.Tx) error {
		_, err := tx.Vendors().Ensure(ctx, vs)
		return err
	})
}

// addEndpoints gives the account webhook endpoints.
func (f fixture) addEndpoints(es ...webhooks.Endpoint) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx assessments.Tx) error {
		for _, e := range es {
			e.AccountID = f.acc.ID
			if err := tx.Webhooks().Create(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// probe is what the fixture's units of work change in what they read: the
// account reads as a personal space while personal is set, and EntriesOf
// counts the ids each call asks for and leaves out the vendor gone, as if
// taken off the list between the read of the keys and that read.
type probe struct {
	personal  atomic.Bool
	mu        sync.Mutex
	entriesOf []int
	gone      uuid.UUID
}

func (p *probe) asked() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.entriesOf)
}

// probed is the store's unit of work seen through a probe.
type probed struct {
	ports.UnitOfWork[assessments.Tx]
	p *probe
}

func (u probed) InTx(ctx context.Context, fn func(context.Context, assessments.Tx) error) error {
	return u.UnitOfWork.InTx(ctx, func(ctx context.Context, tx assessments.Tx) error { return fn(ctx, probedTx{tx, u.p}) })
}

func (u probed) View(ctx context.Context, fn func(context.Context, assessments.Tx) error) error {
	return u.UnitOfWork.View(ctx, func(ctx context.Context, tx assessments.Tx) error { return fn(ctx, probedTx{tx, u.p}) })
}

type probedTx struct {
	assessments.Tx
	p *probe
}

func (t probedTx) Accounts() accounts.AccountRepo { return probedAccounts{t.Tx.Accounts(), t.p} }
func (t probedTx) Lists() lists.ListRepo          { return probedLists{t.Tx.Lists(), t.p} }

type probedAccounts struct {
	accounts.AccountRepo
	p *probe
}

func (r probedAccounts) Get(ctx context.Context, id uuid.UUID) (accounts.Account, error) {
	a, err := r.AccountRepo.Get(ctx, id)
	if r.p.personal.Load() {
		a.Personal, a.Name = true, "Ann Stored Name"
	}
	return a, err
}

type probedLists struct {
	lists.ListRepo
	p *probe
}

func (r probedLists) EntriesOf(ctx context.Context, listID uuid.UUID, ids []uuid.UUID) ([]lists.Entry, error) {
	r.p.mu.Lock()
	r.p.entriesOf = append(r.p.entriesOf, len(ids))
	gone := r.p.gone
	r.p.mu.Unlock()
	es, err := r.ListRepo.EntriesOf(ctx, listID, ids)
	return slices.DeleteFunc(es, func(e lists.Entry) bool { return e.VendorID == gone }), err
}

// noEnricher and noIncidents are the directory's sources, never reached
// by the assessment use cases.
type (
	noEnricher  struct{ vendors.Enricher }
	noIncidents struct{ vendors.IncidentSource }
)

// blobStore holds object sizes by key.
type blobStore struct {
	mu      sync.Mutex
	objects map[string]int64
}

func (b *blobStore) PresignPut(_ context.Context, key, _ string, _ int64, _ time.Duration) (ports.PresignedRequest, error) {
	return ports.PresignedRequest{URL: "https://blobs.test/" + key, Method: "PUT"}, nil
}
func (b *blobStore) PresignGet(_ context.Context, key, _ string, _ time.Duration) (ports.PresignedRequest, error) {
	return ports.PresignedRequest{URL: "https://blobs.test/" + key, Method: "GET"}, nil
}
func (b *blobStore) Stat(_ context.Context, key string) (int64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, ok := b.objects[key]
	if !ok {
		return 0, core.ErrNotFound
	}
	return n, nil
}
func (b *blobStore) Digest(ctx context.Context, key string) (ports.BlobDigest, error) {
	n, err := b.Stat(ctx, key)
	return ports.BlobDigest{Size: n, SHA256: strings.Repeat("a", 64)}, err
}
func (b *blobStore) Delete(_ context.Context, keys ...string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, k := range keys {
		delete(b.objects, k)
	}
	return nil
}

// mailbox records what was sent.
type mailbox struct {
	mu   sync.Mutex
	sent []mailtmpl.Mail
}

func (m *mailbox) Send(_ context.Context, ml mailtmpl.Mail) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sent = append(m.sent, ml)
	return nil
}
