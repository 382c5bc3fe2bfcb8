// Package memstore is the in-memory implementation of stores.Store: the
// reference implementation of the store port, the one ports/porttest is
// written against. The core's unit tests, the examples and VETTED_STORE=memory
// use it; it lives in the root module, so it imports only the standard
// library, uuid and the core.
//
// It is really transactional: writers hold one exclusive lock for their whole
// unit of work and record an undo entry for every row they touch, so a unit
// that fails (error or panic) is rolled back by replaying its undo log in
// reverse. The cost of a rollback is proportional to what the unit wrote, not
// to the size of the store. Readers (View) share the lock. Because writers
// are serialized, Lock and GetForUpdate need no further locking.
//
// Every value crossing the boundary is deep-copied, so callers may mutate
// what they pass in or get back without touching the stored rows.
package memstore

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/alerts"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/attestations"
	"github.com/vetted-dev/vetted/core/contracts"
	incidentsarea "github.com/vetted-dev/vetted/core/incidents"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/records"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports/stores"
)

// Store is an in-memory stores.Store. The zero value is not usable; call New.
type Store struct {
	mu sync.RWMutex
	d  *data
}

var _ stores.Store = (*Store)(nil)

// New returns an empty store.
func New() *Store { return &Store{d: newData()} }

var (
	errReadOnly = errors.New("memory store: write in a read-only unit of work")
	errDone     = errors.New("memory store: unit of work used after it ended")
)

// InTx runs fn in an exclusive unit of work. If fn returns an error or
// panics, everything it wrote is undone; a panic is re-raised after the
// rollback. A nested InTx on the same store deadlocks, as it would block on
// a row lock in a database.
func (s *Store) InTx(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &tx{d: s.d, write: true}
	committed := false
	defer func() {
		t.done = true
		if !committed {
			// Reached on error, on panic (re-raised by the runtime after
			// this deferred call) and on runtime.Goexit.
			t.rollbackTo(0)
		}
	}()
	if err := fn(ctx, t); err != nil {
		return err
	}
	committed = true
	return nil
}

// View runs fn in a shared, read-only unit of work; writes fail.
func (s *Store) View(ctx context.Context, fn func(ctx context.Context, tx stores.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	t := &tx{d: s.d}
	defer func() { t.done = true }()
	return fn(ctx, t)
}

// Ping reports whether the store is usable; memory always is.
func (s *Store) Ping(ctx context.Context) error { return ctx.Err() }

// tx is one unit of work with its undo log.
type tx struct {
	d     *data
	write bool
	done  bool
	undo  []func()
}

func (t *tx) readable() error {
	if t.done {
		return errDone
	}
	return nil
}

func (t *tx) writable() error {
	if t.done {
		return errDone
	}
	if !t.write {
		return errReadOnly
	}
	return nil
}

func (t *tx) record(f func()) { t.undo = append(t.undo, f) }

// rollbackTo undoes everything recorded after mark.
func (t *tx) rollbackTo(mark int) {
	for i := len(t.undo) - 1; i >= mark; i-- {
		t.undo[i]()
	}
	t.undo = t.undo[:mark]
}

// atomic runs a multi-row write as one statement: when it fails, the rows
// it already wrote are undone, as a failed statement would leave none.
func (t *tx) atomic(fn func() error) error {
	if err := t.writable(); err != nil {
		return err
	}
	mark := len(t.undo)
	if err := fn(); err != nil {
		t.rollbackTo(mark)
		return err
	}
	return nil
}

func (t *tx) Users() accounts.UserRepo                { return users{t} }
func (t *tx) Accounts() accounts.AccountRepo          { return accountsRepo{t} }
func (t *tx) Members() accounts.MemberRepo            { return members{t} }
func (t *tx) Vendors() vendors.VendorRepo             { return vendorsRepo{t} }
func (t *tx) Profiles() vendors.ProfileRepo           { return profiles{t} }
func (t *tx) Lists() lists.ListRepo                   { return listsRepo{t} }
func (t *tx) Quota() lists.QuotaRepo                  { return quota{t} }
func (t *tx) Assessments() assessments.AssessmentRepo { return assessmentsRepo{t} }
func (t *tx) Documents() assessments.DocumentRepo     { return documents{t} }
func (t *tx) Subscribers() alerts.SubscriberRepo      { return subscribers{t} }
func (t *tx) Incidents() vendors.IncidentRepo         { return incidents{t} }
func (t *tx) Sources() incidentsarea.SourceStateRepo  { return sourceStates{t} }
func (t *tx) Possible() incidentsarea.PossibleRepo    { return possibleRepo{t} }
func (t *tx) Candidates() incidentsarea.CandidateRepo { return candidates{t} }
func (t *tx) Deliveries() mailonce.Repo               { return deliveries{t} }
func (t *tx) Runs() vendors.RunRepo                   { return runs{t} }
func (t *tx) Outbox() outbox.Repo                     { return outboxRepo{t} }
func (t *tx) Webhooks() webhooks.WebhookRepo          { return webhooksRepo{t} }
func (t *tx) Records() records.RecordRepo             { return recordsRepo{t} }
func (t *tx) Contracts() contracts.ContractRepo       { return contractsRepo{t} }

// Attestations is the attestations area's repository.
func (t *tx) Attestations() attestations.AttestationRepo { return attestationsRepo{t} }

// put stores m[k] = v and records how to undo it.
func put[K comparable, V any](t *tx, m map[K]V, k K, v V) {
	old, had := m[k]
	m[k] = v
	t.record(func() {
		if had {
			m[k] = old
		} else {
			delete(m, k)
		}
	})
}

// del removes m[k], records how to undo it and reports whether it was there.
func del[K comparable, V any](t *tx, m map[K]V, k K) bool {
	old, had := m[k]
	if !had {
		return false
	}
	delete(m, k)
	t.record(func() { m[k] = old })
	return true
}

// index maps a parent key to the set of its children's keys.
type index[P, C comparable] map[P]map[C]struct{}

func (ix index[P, C]) rawAdd(p P, c C) {
	s := ix[p]
	if s == nil {
		s = map[C]struct{}{}
		ix[p] = s
	}
	s[c] = struct{}{}
}

func (ix index[P, C]) rawRemove(p P, c C) {
	s := ix[p]
	delete(s, c)
	if len(s) == 0 {
		delete(ix, p)
	}
}

func (ix index[P, C]) add(t *tx, p P, c C) {
	if _, ok := ix[p][c]; ok {
		return
	}
	ix.rawAdd(p, c)
	t.record(func() { ix.rawRemove(p, c) })
}

func (ix index[P, C]) remove(t *tx, p P, c C) {
	if _, ok := ix[p][c]; !ok {
		return
	}
	ix.rawRemove(p, c)
	t.record(func() { ix.rawAdd(p, c) })
}

// of returns a snapshot of p's children, safe to use while deleting them.
func (ix index[P, C]) of(p P) []C {
	out := make([]C, 0, len(ix[p]))
	for c := range ix[p] {
		out = append(out, c)
	}
	return out
}

// pair is a two-id key: (account, user), (list, vendor), (account, vendor).
type pair struct{ a, b uuid.UUID }

// named is an id-scoped lower-case or exact name key.
type named struct {
	id   uuid.UUID
	name string
}

type productKey struct {
	entry pair
	name  string
}

type incidentKey struct {
	vendor             uuid.UUID
	source, externalID string
}

type memberRow struct {
	role      accounts.Role
	createdAt time.Time
}

type entryRow struct {
	alerts  bool
	addedAt time.Time
	given   string // the name it was added under, "" for the directory's
}

// outboxRow is a message with its payload in the JSON form the SQL stores
// keep (outboxjson): storing it copies it, and refuses a payload of the
// wrong type for its kind, as they do.
type outboxRow struct {
	msg         outbox.Message
	payload     json.RawMessage
	nextAttempt time.Time
}

// data holds the tables and their indexes. Unique indexes map a key to a row
// id; index values map a parent to its children.
type data struct {
	policies     map[uuid.UUID]assessments.Policy      // review policies by account
	calendarKeys map[uuid.UUID]assessments.CalendarKey // calendar keys by id
	reminderKeys map[string]time.Time                  // reminder keys, when recorded

	// Outbound webhooks: few rows per account, so they are scanned.
	endpoints  map[uuid.UUID]webhooks.Endpoint
	whDelivery map[uuid.UUID]webhooks.Delivery
	whAttempts map[attemptKey]webhooks.Attempt

	// Vendor records by (account, vendor), with their notes in order.
	vendorRecords map[pair]records.Record
	recordNotes   map[pair][]records.Note
	contracts     map[uuid.UUID]contracts.Contract // contracts by id; few per account, scanned
	// Attestations: few per vendor, so they are scanned.
	attestations map[uuid.UUID]attestations.Attestation

	users         map[uuid.UUID]accounts.User
	userByEmail   map[string]uuid.UUID
	userBySubject map[string]uuid.UUID

	accounts  map[uuid.UUID]accounts.Account
	orgByName map[string]uuid.UUID

	members          map[pair]memberRow // (account, user)
	membersByAccount index[uuid.UUID, uuid.UUID]
	membersByUser    index[uuid.UUID, uuid.UUID]

	vendors     map[uuid.UUID]vendors.Vendor
	vendorByKey map[string]uuid.UUID
	profiles    map[uuid.UUID]vendors.Profile // by vendor id
	profileByID map[uuid.UUID]uuid.UUID       // profile id -> vendor id
	instances   map[uuid.UUID][]vendors.SecurityInstance
	grc         map[uuid.UUID][]vendors.GRCAssessment // by vendor id, in insertion order
	ratings     map[uuid.UUID][]vendors.RatingRecord  // by vendor id, in insertion order

	lists          map[uuid.UUID]lists.List
	listByName     map[named]uuid.UUID // (account, lower-case name): unique that way, looked up exactly
	listsByAccount index[uuid.UUID, uuid.UUID]

	entries         map[pair]entryRow // (list, vendor)
	entriesByList   index[uuid.UUID, uuid.UUID]
	entriesByVendor index[uuid.UUID, uuid.UUID]

	products        map[uuid.UUID]lists.Product
	productByName   map[productKey]uuid.UUID
	productsByEntry index[pair, uuid.UUID]

	claims          map[pair]time.Time // (account, vendor)
	claimsByAccount index[uuid.UUID, uuid.UUID]

	assessments          map[uuid.UUID]assessments.Assessment
	assessmentByPair     map[pair]uuid.UUID // (list, vendor)
	assessmentsByList    index[uuid.UUID, uuid.UUID]
	assessmentsByAccount index[uuid.UUID, uuid.UUID]

	events             map[uuid.UUID]assessments.AuditEvent
	eventsByAssessment index[uuid.UUID, uuid.UUID]

	documents             map[uuid.UUID]assessments.Document
	documentsByAssessment index[uuid.UUID, uuid.UUID]
	documentsByAccount    index[uuid.UUID, uuid.UUID]

	subscribers       map[uuid.UUID]alerts.Subscriber
	subscriberByEmail map[named]uuid.UUID // (list, lower-case e-mail)
	subscribersByList index[uuid.UUID, uuid.UUID]

	incidents         map[uuid.UUID]vendors.Incident
	incidentByKey     map[incidentKey]uuid.UUID
	incidentsByVendor index[uuid.UUID, uuid.UUID]

	sourceStates  map[string]incidentsarea.SourceState
	possible      map[uuid.UUID]incidentsarea.PossibleMatch
	possibleByKey map[string]uuid.UUID

	deliveries map[string]deliveryRow
	runs       map[uuid.UUID]vendors.Run
	outbox     map[uuid.UUID]outboxRow
	pending    map[uuid.UUID]struct{}
}

func newData() *data {
	return &data{
		policies:     map[uuid.UUID]assessments.Policy{},
		calendarKeys: map[uuid.UUID]assessments.CalendarKey{},
		reminderKeys: map[string]time.Time{},
		endpoints:    map[uuid.UUID]webhooks.Endpoint{}, whDelivery: map[uuid.UUID]webhooks.Delivery{}, whAttempts: map[attemptKey]webhooks.Attempt{},
		vendorRecords: map[pair]records.Record{}, recordNotes: map[pair][]records.Note{},
		users: map[uuid.UUID]accounts.User{}, userByEmail: map[string]uuid.UUID{}, userBySubject: map[string]uuid.UUID{},
		contracts: map[uuid.UUID]contracts.Contract{},
		accounts:  map[uuid.UUID]accounts.Account{}, orgByName: map[string]uuid.UUID{},
		members: map[pair]memberRow{}, membersByAccount: index[uuid.UUID, uuid.UUID]{}, membersByUser: index[uuid.UUID, uuid.UUID]{},
		vendors: map[uuid.UUID]vendors.Vendor{}, vendorByKey: map[string]uuid.UUID{},
		grc: map[uuid.UUID][]vendors.GRCAssessment{}, ratings: map[uuid.UUID][]vendors.RatingRecord{}, profiles: map[uuid.UUID]vendors.Profile{}, profileByID: map[uuid.UUID]uuid.UUID{}, instances: map[uuid.UUID][]vendors.SecurityInstance{},
		lists: map[uuid.UUID]lists.List{}, listByName: map[named]uuid.UUID{}, listsByAccount: index[uuid.UUID, uuid.UUID]{},
		entries: map[pair]entryRow{}, entriesByList: index[uuid.UUID, uuid.UUID]{}, entriesByVendor: index[uuid.UUID, uuid.UUID]{},
		products: map[uuid.UUID]lists.Product{}, productByName: map[productKey]uuid.UUID{}, productsByEntry: index[pair, uuid.UUID]{},
		claims: map[pair]time.Time{}, claimsByAccount: index[uuid.UUID, uuid.UUID]{},
		assessments: map[uuid.UUID]assessments.Assessment{}, assessmentByPair: map[pair]uuid.UUID{},
		assessmentsByList: index[uuid.UUID, uuid.UUID]{}, assessmentsByAccount: index[uuid.UUID, uuid.UUID]{},
		events: map[uuid.UUID]assessments.AuditEvent{}, eventsByAssessment: index[uuid.UUID, uuid.UUID]{},
		documents: map[uuid.UUID]assessments.Document{}, documentsByAssessment: index[uuid.UUID, uuid.UUID]{}, documentsByAccount: index[uuid.UUID, uuid.UUID]{},
		subscribers: map[uuid.UUID]alerts.Subscriber{}, subscriberByEmail: map[named]uuid.UUID{}, subscribersByList: index[uuid.UUID, uuid.UUID]{},
		incidents: map[uuid.UUID]vendors.Incident{}, incidentByKey: map[incidentKey]uuid.UUID{}, incidentsByVendor: index[uuid.UUID, uuid.UUID]{},
		sourceStates: map[string]incidentsarea.SourceState{}, possible: map[uuid.UUID]incidentsarea.PossibleMatch{}, possibleByKey: map[string]uuid.UUID{},
		deliveries: map[string]deliveryRow{}, runs: map[uuid.UUID]vendors.Run{},
		outbox: map[uuid.UUID]outboxRow{}, pending: map[uuid.UUID]struct{}{},

		attestations: map[uuid.UUID]attestations.Attestation{},
	}
}

func notFound(what string, id any) error { return core.NotFound("%s %v not found", what, id) }

func conflict(format string, args ...any) error { return core.Conflict(format, args...) }

// update changes the stored row m[k] in place of a read-modify-write, or
// reports core.ErrNotFound.
func update[K comparable, V any](t *tx, m map[K]V, k K, what string, change func(*V)) error {
	return t.atomic(func() error {
		cur, ok := m[k]
		if !ok {
			return notFound(what, k)
		}
		change(&cur)
		put(t, m, k, cur)
		return nil
	})
}

// lookup returns a deep copy of m[id], or core.ErrNotFound.
func lookup[V any](t *tx, m map[uuid.UUID]V, id uuid.UUID, what string, clone func(V) V) (V, error) {
	var zero V
	if err := t.readable(); err != nil {
		return zero, err
	}
	v, ok := m[id]
	if !ok {
		return zero, notFound(what, id)
	}
	return clone(v), nil
}

// requireRow is the foreign-key check of the store: a row that refers to a
// missing parent is refused the way a database would refuse it.
func requireRow[V any](m map[uuid.UUID]V, id uuid.UUID, what string) error {
	if _, ok := m[id]; !ok {
		return core.NotFound("%s %s not found", what, id)
	}
	return nil
}
