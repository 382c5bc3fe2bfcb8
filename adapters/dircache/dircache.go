// Package dircache keeps the vendor views the directory use cases read
// (vendors.VendorViews) in memory, stale-while-revalidate, in front of the
// store: the directory is global and read far more often than it is
// written, so the hot read of the API skips the store. It also watches the
// units of work of the store (Watch): one that touches vendors or profiles
// makes every remembered view stale at once, and one that writes them
// announces the vendors on a stores.ChangeFeed so that other processes
// forget them too (ForgetVendors). The core has no goroutine of its own:
// the background reads of stale views run here.
package dircache

import (
	"context"
	"log/slog"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/ttlcache"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Loader reads views from the store: one by reference, or a batch by id
// (vendors.StoreViews).
type Loader interface {
	View(ctx context.Context, ref vendors.Ref) (vendors.View, error)
	ViewsByID(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]vendors.View, error)
}

// Options tune a Cache.
type Options struct {
	// Clock tells the age of views; nil is the system clock.
	Clock ports.Clock
	// Logger receives the failures of background reads; nil is slog.Default().
	Logger *slog.Logger
}

// Cache is a vendors.VendorViews that remembers what its Loader read.
type Cache struct {
	load     Loader
	dir      *viewCache
	clock    ports.Clock
	log      *slog.Logger
	onCommit atomic.Pointer[[]func(stores.Changed)]
}

// OnCommit adds f to what is told, in this process, of every unit of work
// that committed through the watched store (Watch), with what it changed
// (Data is always set: each one wrote something). Other caches of this
// process (the API's encoded answers) forget with it what they remembered;
// other processes hear the same through the feed.
func (c *Cache) OnCommit(f func(stores.Changed)) {
	for {
		old := c.onCommit.Load()
		var fs []func(stores.Changed)
		if old != nil {
			fs = slices.Clone(*old)
		}
		fs = append(fs, f)
		if c.onCommit.CompareAndSwap(old, &fs) {
			return
		}
	}
}

// New returns a cache in front of load.
func New(load Loader, o Options) *Cache {
	c := &Cache{load: load, dir: newDirectory(), clock: o.Clock, log: o.Logger}
	if c.clock == nil {
		c.clock = ports.SystemClock{}
	}
	if c.log == nil {
		c.log = slog.Default()
	}
	return c
}

// Watch returns store as the use cases are to write through it: a unit of
// work that reaches the vendor or profile repositories makes the cache's
// views stale when it ends, and one that wrote to them announces the
// vendors on feed (nil: no other process hears of changes).
func (c *Cache) Watch(store stores.Store, feed stores.ChangeFeed) stores.Store {
	return watchedStore{Store: store, dir: c.dir, feed: feed, onCommit: &c.onCommit, onErr: func(err error) {
		c.log.Warn("announce changed vendors (other processes see them within the directory's max age)", "err", err)
	}}
}

// ForgetVendors drops the vendor views remembered of the vendors ch names
// (or all of them), so that the next read of each goes to the store. A
// change feed's subscriber calls it for every notice, and with All after it
// lost and regained its connection.
func (c *Cache) ForgetVendors(ch stores.Changed) { c.dir.evict(ch) }

func (c *Cache) now() time.Time { return c.clock.Now().UTC() }

// View returns the view of ref from memory when it may be served (a stale
// one is read again in the background), else from the Loader.
func (c *Cache) View(ctx context.Context, ref vendors.Ref) (vendors.View, error) {
	key := ref.String()
	view, stale, ok := c.dir.get(key, c.now())
	if !ok {
		return c.read(ctx, ref)
	}
	if stale && c.dir.markDue(key, view.Vendor.ID) {
		go c.refreshViews()
	}
	return view, nil
}

// read reads a view from the store and remembers it.
func (c *Cache) read(ctx context.Context, ref vendors.Ref) (vendors.View, error) {
	now := c.now()
	gen := c.dir.generation()
	view, err := c.load.View(ctx, ref)
	if err != nil {
		return view, err
	}
	c.dir.put(ref.String(), view, gen, now)
	return view, nil
}

// refreshViews reads again the views View found stale, a batch at a time
// (see refreshGather), until none are due.
func (c *Cache) refreshViews() {
	for {
		time.Sleep(refreshGather)
		refs := c.dir.takeDue(refreshBatch)
		if refs == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
		err := c.readViews(ctx, refs)
		cancel()
		if err != nil {
			// The stale views are served until MaxAge; the next read
			// past that goes to the store and reports the failure.
			c.log.Warn("read vendor views again", "views", len(refs), "err", err)
		}
	}
}

// readViews reads the views of refs (references with their vendors' ids)
// in one batch, and remembers them. A reference by name whose vendor no
// longer has that name, or a vendor no longer there, is forgotten: the next
// read resolves it afresh.
func (c *Cache) readViews(ctx context.Context, refs map[string]uuid.UUID) error {
	now := c.now()
	gen := c.dir.generation()
	views, err := c.load.ViewsByID(ctx, slices.Collect(maps.Values(refs)))
	if err != nil {
		return err
	}
	for key, id := range refs {
		ref, perr := vendors.ParseRef(key)
		if view, ok := views[id]; ok && perr == nil && ref.Finds(view.Vendor) {
			c.dir.put(key, view, gen, now)
		} else {
			c.dir.forget(key)
		}
	}
	return nil
}

// TTL is how long the cache serves a directory entry with its profile from
// memory as it was read. The directory is global and read far
// more often than it is written, so the hot read of the API skips the
// store. A change made through this process (a PATCH, a DELETE, an
// enrichment run by the in-process jobs) shows at once: every unit of work
// that touches vendors or profiles moves the directory's generation on, and
// a view remembered in an older generation is not served. A change made by
// another process (the asynq worker's enrichment, another API replica)
// shows as soon as its notice arrives (the feed given to Watch: the writer
// announces the vendors it changed and every process's subscriber calls
// ForgetVendors), and without one (no feed, or its connection lost) within
// MaxAge, and on a vendor read at least every TTL, within
// TTL and one read of the store.
const TTL = 2 * time.Second

// MaxAge is the age past which a remembered view is never served.
// Between TTL and MaxAge a read is answered from memory
// while the view is read again in the background (stale-while-revalidate,
// as RFC 5861 names it for HTTP caches), so a vendor that is read all the
// time never makes a reader wait for the store.
const MaxAge = 5 * time.Second

// maxDirectoryViews bounds the memory of vendor views (ttlcache.Map.Max).
const maxDirectoryViews = 4096

// The background reads are batched: the views due gather for refreshGather,
// then up to refreshBatch of them are read in one unit of work of two
// set-based queries (entries by id, their profiles), not two queries each;
// a view asked by name is read by the id of the vendor it holds.
// One goroutine does it while views are due, and ends when none are.
const (
	refreshGather  = 50 * time.Millisecond
	refreshBatch   = 500
	refreshTimeout = 10 * time.Second
)

// viewCache remembers vendor views by the reference they were asked by (a
// UUID or a name, as given), each with the generation it was read in.
type viewCache struct {
	gen       atomic.Uint64
	versions  atomic.Uint64 // the last vendors.View.Version given
	evictions atomic.Uint64 // ForgetVendors calls so far
	views     ttlcache.Map[string, cachedView]

	mu         sync.Mutex
	due        map[string]uuid.UUID // references to read again, with their vendor's id
	refreshing bool                 // a goroutine reads them
}

type cachedView struct {
	view  vendors.View
	gen   uint64
	fresh time.Time // until when it is served without reading it again
}

func newDirectory() *viewCache {
	return &viewCache{views: ttlcache.Map[string, cachedView]{Max: maxDirectoryViews}, due: map[string]uuid.UUID{}}
}

// readToken is what a read of views started in: the generation, and how
// many evictions had been made.
type readToken struct{ gen, evictions uint64 }

// generation is read before a view is loaded and given to put with it.
func (d *viewCache) generation() readToken {
	return readToken{gen: d.gen.Load(), evictions: d.evictions.Load()}
}

// changed is called after a unit of work that touched vendors or profiles.
func (d *viewCache) changed() { d.gen.Add(1) }

// get returns the view remembered for ref, if it may be served, and
// whether it is past TTL (stale: to be read again).
func (d *viewCache) get(ref string, now time.Time) (view vendors.View, stale, ok bool) {
	c, ok := d.views.Get(ref, now)
	if !ok || c.gen != d.gen.Load() {
		return vendors.View{}, false, false
	}
	return c.view, !now.Before(c.fresh), true
}

// put remembers a view read in generation tok at now, unless the directory
// has changed since or views were evicted since (then the view may be older
// than the change: a notice from another process may have come while it was
// read, after the read had seen the store as it was before the change).
func (d *viewCache) put(ref string, v vendors.View, tok readToken, now time.Time) {
	gen := tok.gen
	if gen != d.gen.Load() || tok.evictions != d.evictions.Load() {
		return
	}
	// A view read again and found as it was keeps its version, so what is
	// derived from it and remembered by it (the API's encoded answer)
	// stays valid; any other gets a new one.
	if old, ok := d.views.Get(ref, now); ok && old.gen == gen &&
		reflect.DeepEqual(old.view.Vendor, v.Vendor) && reflect.DeepEqual(old.view.Profile, v.Profile) {
		v = old.view
	} else {
		v.Version = d.versions.Add(1)
	}
	d.views.Put(ref, cachedView{view: v, gen: gen, fresh: now.Add(freshFor())}, now.Add(MaxAge), now)
}

// freshFor is how long a view just read is fresh: TTL less up to a
// quarter, at random. Views read together (a cold start, a busy second) would
// otherwise all fall due together, every TTL, and their background
// read come as one burst that holds a CPU for tens of milliseconds while
// requests wait; spread, the reads come a few at a time.
func freshFor() time.Duration {
	return TTL - time.Duration(rand.Int64N(int64(TTL/4)))
}

// forget drops what is remembered for ref (a vendor no longer there).
func (d *viewCache) forget(ref string) { d.views.Delete(ref) }

// evict drops the views of the vendors c names, by whatever reference they
// were asked, or every view; a read under way when it is called is not
// remembered (see put).
func (d *viewCache) evict(c stores.Changed) {
	d.evictions.Add(1)
	if c.All {
		d.views.Clear()
		return
	}
	if len(c.Vendors) == 0 {
		return
	}
	named := make(map[uuid.UUID]bool, len(c.Vendors))
	for _, id := range c.Vendors {
		named[id] = true
	}
	d.views.DeleteFunc(func(_ string, cv cachedView) bool { return named[cv.view.Vendor.ID] })
}

// markDue asks for ref, a reference to vendor id, to be read again; true
// when the caller is to start the goroutine that does it (none runs).
func (d *viewCache) markDue(ref string, id uuid.UUID) (start bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.due[ref] = id
	if d.refreshing {
		return false
	}
	d.refreshing = true
	return true
}

// takeDue returns up to max references due with their vendors' ids, or
// none, and then the goroutine that asked is to end (the next markDue
// starts another).
func (d *viewCache) takeDue(max int) map[string]uuid.UUID {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.due) == 0 {
		d.refreshing = false
		return nil
	}
	refs := make(map[string]uuid.UUID, min(max, len(d.due)))
	for ref, id := range d.due {
		if len(refs) == max {
			break
		}
		refs[ref] = id
		delete(d.due, ref)
	}
	return refs
}

// watchedStore is the store as the use cases see it: a unit of work that
// writes a directory entry or a profile (every write method of the two
// repositories is wrapped below) moves the directory's generation on when
// it ends, whether it committed or not, and every unit of
// work that commits and reached data that answers show announces on the
// change feed that data changed, with the vendors it wrote and, when it ran
// in an account's scope and wrote nothing other accounts show, that
// account (staged in the unit of work, published after it committed), and
// tells this process's OnCommit listeners the same. A unit of work that
// only kept books (the outbox, runs, deliveries) announces nothing.
type watchedStore struct {
	stores.Store
	dir      *viewCache
	feed     stores.ChangeFeed // nil: no other process hears of changes
	onCommit *atomic.Pointer[[]func(stores.Changed)]
	onErr    func(err error) // a Publish that failed
}

func (w watchedStore) InTx(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) error {
	var touched atomic.Bool
	var written *changeSet
	defer func() {
		if touched.Load() {
			w.dir.changed()
		}
	}()
	scope, _ := stores.AccountScope(ctx)
	err := w.Store.InTx(ctx, func(ctx context.Context, tx stores.Tx) error {
		written = &changeSet{scope: scope, touched: &touched} // fn may run again: only its last run counts
		if err := fn(ctx, watchedTx{Tx: tx, written: written}); err != nil {
			return err
		}
		if c := written.changed(); w.feed != nil && !c.Empty() {
			return w.feed.Stage(ctx, tx, c)
		}
		return nil
	})
	if err != nil {
		return err
	}
	c := written.changed()
	if c.Empty() {
		return nil // bookkeeping only (the outbox, runs, deliveries): no cache holds it
	}
	if w.onCommit != nil {
		if fs := w.onCommit.Load(); fs != nil {
			for _, f := range *fs {
				f(c)
			}
		}
	}
	if w.feed != nil {
		if perr := w.feed.Publish(ctx, c); perr != nil && w.onErr != nil {
			w.onErr(perr)
		}
	}
	return nil
}

// maxNamedChanges is the most vendors a notice names; a unit of work that
// wrote more (a CSV import) announces that all changed.
const maxNamedChanges = 100

// changeSet gathers what a unit of work wrote: the vendors whose directory
// entries or profiles it wrote, whether it reached account data at all, and
// whether it wrote something every account may show (see stores.Changed).
type changeSet struct {
	mu      sync.Mutex
	vendors []uuid.UUID
	all     bool
	scope   uuid.UUID    // the account the unit of work acts in (stores.AccountScope), or Nil
	touched *atomic.Bool // it wrote a directory entry or profile, even in a run that failed
	data    bool         // it reached a repository of data that answers show
	shared  bool         // it wrote data other accounts show too
}

func (c *changeSet) add(ids ...uuid.UUID) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.data = true
	if c.touched != nil {
		c.touched.Store(true)
	}
	for _, id := range ids {
		if c.all || slices.Contains(c.vendors, id) {
			continue
		}
		if len(c.vendors) == maxNamedChanges {
			c.all, c.vendors = true, nil
			return
		}
		c.vendors = append(c.vendors, id)
	}
}

// reached notes that the unit of work reached account data; share, that it
// wrote data other accounts show.
func (c *changeSet) reached() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.data = true
}

// rewrote notes that the unit of work changed existing directory entries
// or profiles: their vendors, and data every account holding them shows.
func (c *changeSet) rewrote(ids ...uuid.UUID) {
	c.share()
	c.add(ids...)
}

func (c *changeSet) share() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.data, c.shared = true, true
}

// changed is the notice of a unit of work that committed: data changed,
// and the vendors it wrote.
func (c *changeSet) changed() stores.Changed {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := stores.Changed{Vendors: slices.Clone(c.vendors), All: c.all, Data: c.data}
	if c.data && !c.shared && c.scope != uuid.Nil {
		ch.Accounts = []uuid.UUID{c.scope}
	}
	return ch
}

type watchedTx struct {
	stores.Tx
	written *changeSet
}

func (t watchedTx) Vendors() vendors.VendorRepo {
	t.written.reached()
	return watchedVendors{VendorRepo: t.Tx.Vendors(), written: t.written}
}

// The repositories of data that answers show: reaching one makes the unit
// of work's notice say that data changed. Users and incidents are shown by
// every account they belong to, so writing one is shared. The others
// (calendar keys, reminder keys, mail deliveries, job runs, the outbox,
// webhooks) are bookkeeping no remembered answer holds.

func (t watchedTx) Users() accounts.UserRepo {
	t.written.reached()
	return watchedUsers{UserRepo: t.Tx.Users(), written: t.written}
}

func (t watchedTx) Incidents() vendors.IncidentRepo {
	t.written.reached()
	return watchedIncidents{IncidentRepo: t.Tx.Incidents(), written: t.written}
}

func (t watchedTx) Accounts() accounts.AccountRepo { t.written.reached(); return t.Tx.Accounts() }
func (t watchedTx) Members() accounts.MemberRepo   { t.written.reached(); return t.Tx.Members() }
func (t watchedTx) Lists() lists.ListRepo          { t.written.reached(); return t.Tx.Lists() }
func (t watchedTx) Quota() lists.QuotaRepo         { t.written.reached(); return t.Tx.Quota() }
func (t watchedTx) Assessments() assessments.AssessmentRepo {
	t.written.reached()
	return t.Tx.Assessments()
}
func (t watchedTx) ReviewPolicies() assessments.ReviewPolicyRepo {
	t.written.reached()
	return t.Tx.ReviewPolicies()
}
func (t watchedTx) Documents() assessments.DocumentRepo { t.written.reached(); return t.Tx.Documents() }
func (t watchedTx) Subscribers() alerts.SubscriberRepo {
	t.written.reached()
	return t.Tx.Subscribers()
}

type watchedUsers struct {
	accounts.UserRepo
	written *changeSet
}

func (r watchedUsers) Save(ctx context.Context, u accounts.User) error {
	r.written.share()
	return r.UserRepo.Save(ctx, u)
}

type watchedIncidents struct {
	vendors.IncidentRepo
	written *changeSet
}

func (r watchedIncidents) Create(ctx context.Context, in vendors.Incident) error {
	r.written.share()
	return r.IncidentRepo.Create(ctx, in)
}

func (r watchedIncidents) Merge(ctx context.Context, ins []vendors.Incident) ([]vendors.Incident, error) {
	r.written.share()
	return r.IncidentRepo.Merge(ctx, ins)
}

func (t watchedTx) Profiles() vendors.ProfileRepo {
	t.written.reached()
	return watchedProfiles{ProfileRepo: t.Tx.Profiles(), written: t.written}
}

// watchedVendors and watchedProfiles note the vendors of every write; the
// reads pass through.
type watchedVendors struct {
	vendors.VendorRepo
	written *changeSet
}

func (r watchedVendors) Ensure(ctx context.Context, vs []vendors.Vendor) ([]vendors.Vendor, error) {
	// A new entry is on no other account's list; an existing one changes
	// only when it gets the website an input brings.
	if slices.ContainsFunc(vs, func(v vendors.Vendor) bool { return v.WebsiteURL != "" }) {
		r.written.share()
	}
	out, err := r.VendorRepo.Ensure(ctx, vs)
	for _, v := range out {
		r.written.add(v.ID)
	}
	return out, err
}

func (r watchedVendors) Update(ctx context.Context, v vendors.Vendor) error {
	r.written.rewrote(v.ID)
	return r.VendorRepo.Update(ctx, v)
}

type watchedProfiles struct {
	vendors.ProfileRepo
	written *changeSet
}

func (r watchedProfiles) Save(ctx context.Context, p vendors.Profile) error {
	r.written.rewrote(p.VendorID)
	return r.ProfileRepo.Save(ctx, p)
}

func (r watchedProfiles) Delete(ctx context.Context, vendorID uuid.UUID) error {
	r.written.rewrote(vendorID)
	return r.ProfileRepo.Delete(ctx, vendorID)
}

func (r watchedProfiles) ReplaceInstances(ctx context.Context, vendorID uuid.UUID, is []vendors.SecurityInstance) error {
	r.written.rewrote(vendorID)
	return r.ProfileRepo.ReplaceInstances(ctx, vendorID, is)
}

func (r watchedProfiles) AddRating(ctx context.Context, rec vendors.RatingRecord) error {
	r.written.rewrote(rec.VendorID)
	return r.ProfileRepo.AddRating(ctx, rec)
}

func (r watchedProfiles) AddGRCAssessment(ctx context.Context, vendorID uuid.UUID, a vendors.GRCAssessment) error {
	r.written.rewrote(vendorID)
	return r.ProfileRepo.AddGRCAssessment(ctx, vendorID, a)
}
