package assessments_test

import (
	"context"
	"slices"
	"strings"
	"sync"
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
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/core/webhooks"
	"github.com/vetted-dev/vetted/ports"
)

// world is one organization as the assessment use cases see it: members
// by role, lists with entries, the directory's vendors, assessments with
// their events, the policy, calendar keys, reminder keys, documents,
// incidents, rating change events, webhook endpoints and the webhook events
// recorded, delivery keys and the outbox. Units of work run one at a time
// and are not rolled back.
type world struct {
	mu        sync.Mutex
	acc       accounts.Account
	roles     map[uuid.UUID]accounts.Role
	emails    map[uuid.UUID]string
	lists     []lists.List
	entries   map[uuid.UUID][]uuid.UUID
	vendors   []vendors.Vendor
	asms      []assessments.Assessment
	events    []assessments.AuditEvent
	policy    *assessments.Policy
	calKeys   []assessments.CalendarKey
	reminders map[string]bool
	docs      []assessments.Document
	incidents []vendors.Incident
	ratings   []vendors.RatingRecord // rating change events, newest first
	endpoints []webhooks.Endpoint
	hooks     []domainevent.Event // what uow.Unit.Events was given
	sent      map[string]bool
	outbox    []outbox.Message
}

func (w *world) InTx(ctx context.Context, fn func(context.Context, assessments.Tx) error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return fn(ctx, wtx{w: w})
}
func (w *world) View(ctx context.Context, fn func(context.Context, assessments.Tx) error) error {
	return w.InTx(ctx, fn)
}
func (w *world) Ping(context.Context) error { return nil }

type wtx struct {
	assessments.Tx
	w *world
}

func (t wtx) Accounts() accounts.AccountRepo               { return wAccounts{w: t.w} }
func (t wtx) Members() accounts.MemberRepo                 { return wMembers{w: t.w} }
func (t wtx) Lists() lists.ListRepo                        { return wLists{w: t.w} }
func (t wtx) Vendors() vendors.VendorRepo                  { return wVendors{w: t.w} }
func (t wtx) Profiles() vendors.ProfileRepo                { return wProfiles{w: t.w} }
func (t wtx) Assessments() assessments.AssessmentRepo      { return wAssessments{w: t.w} }
func (t wtx) ReviewPolicies() assessments.ReviewPolicyRepo { return wPolicies{w: t.w} }
func (t wtx) CalendarKeys() assessments.CalendarKeyRepo    { return wCal{w: t.w} }
func (t wtx) Reminders() assessments.ReminderRepo          { return wReminders{w: t.w} }
func (t wtx) Documents() assessments.DocumentRepo          { return wDocs{w: t.w} }
func (t wtx) Incidents() vendors.IncidentRepo              { return wIncidents{w: t.w} }
func (t wtx) Deliveries() mailonce.Repo                    { return wDeliveries{w: t.w} }
func (t wtx) Outbox() outbox.Repo                          { return wOutbox{w: t.w} }
func (t wtx) Webhooks() webhooks.WebhookRepo               { return wWebhooks{w: t.w} }

// wWebhooks holds the organization's webhook endpoints (none unless a test
// adds some).
type wWebhooks struct {
	webhooks.WebhookRepo
	w *world
}

func (r wWebhooks) List(context.Context, uuid.UUID) ([]webhooks.Endpoint, error) {
	return slices.Clone(r.w.endpoints), nil
}

type wAccounts struct {
	accounts.AccountRepo
	w *world
}

func (r wAccounts) MembershipOf(_ context.Context, id, user uuid.UUID) (accounts.Membership, error) {
	role, ok := r.w.roles[user]
	if id != r.w.acc.ID || !ok {
		return accounts.Membership{}, core.ErrNotFound
	}
	return accounts.Membership{Account: r.w.acc, Role: role}, nil
}
func (r wAccounts) Get(_ context.Context, id uuid.UUID) (accounts.Account, error) {
	if id != r.w.acc.ID {
		return accounts.Account{}, core.ErrNotFound
	}
	return r.w.acc, nil
}
func (r wAccounts) ListReviewing(context.Context) ([]accounts.Account, error) {
	return []accounts.Account{r.w.acc}, nil
}

type wMembers struct {
	accounts.MemberRepo
	w *world
}

func (r wMembers) List(context.Context, uuid.UUID) ([]accounts.Member, error) {
	var out []accounts.Member
	for u, role := range r.w.roles {
		out = append(out, accounts.Member{AccountID: r.w.acc.ID, UserID: u, Email: r.w.emails[u], Role: role})
	}
	slices.SortFunc(out, func(a, b accounts.Member) int { return strings.Compare(a.Email, b.Email) })
	return out, nil
}

type wLists struct {
	lists.ListRepo
	w *world
}

func (r wLists) Get(_ context.Context, _, id uuid.UUID) (lists.List, error) {
	for _, l := range r.w.lists {
		if l.ID == id {
			return l, nil
		}
	}
	return lists.List{}, core.ErrNotFound
}
func (r wLists) GetByName(_ context.Context, _ uuid.UUID, name string) (lists.List, error) {
	for _, l := range r.w.lists {
		if l.Name == name {
			return l, nil
		}
	}
	return lists.List{}, core.ErrNotFound
}
func (r wLists) ListByAccount(context.Context, uuid.UUID) ([]lists.List, error) {
	return slices.Clone(r.w.lists), nil
}
func (r wLists) entry(l, v uuid.UUID) lists.Entry {
	e := lists.Entry{ListID: l, VendorID: v, AlertsEnabled: true}
	for _, x := range r.w.vendors {
		if x.ID == v {
			e.VendorName = string(x.Name)
		}
	}
	return e
}
func (r wLists) Entries(_ context.Context, l uuid.UUID) ([]lists.Entry, error) {
	var out []lists.Entry
	for _, v := range r.w.entries[l] {
		out = append(out, r.entry(l, v))
	}
	return out, nil
}
func (r wLists) EntriesAfter(ctx context.Context, l uuid.UUID, after lists.EntryKey, limit int) ([]lists.Entry, error) {
	es, _ := r.Entries(ctx, l)
	slices.SortFunc(es, func(a, b lists.Entry) int { return strings.Compare(a.VendorName, b.VendorName) })
	es = slices.DeleteFunc(es, func(e lists.Entry) bool { return after.VendorName != "" && e.VendorName <= after.VendorName })
	return es[:min(limit, len(es))], nil
}
func (r wLists) AddEntries(_ context.Context, l uuid.UUID, vs []uuid.UUID, _ time.Time) error {
	for _, v := range vs {
		if !slices.Contains(r.w.entries[l], v) {
			r.w.entries[l] = append(r.w.entries[l], v)
		}
	}
	return nil
}
func (r wLists) LockEntries(context.Context, uuid.UUID, []uuid.UUID) error { return nil }
func (r wAssessments) Counts(_ context.Context, scope lists.ListScope, statuses []assessments.Status) (lists.ListCounts, error) {
	var c lists.ListCounts
	seen := map[uuid.UUID]bool{}
	for l, vs := range r.w.entries {
		if scope.ListID != nil && *scope.ListID != l {
			continue
		}
		for _, v := range vs {
			if !seen[v] {
				seen[v] = true
				c.Vendors++
				c.Followed++
			}
		}
	}
	for _, a := range r.w.asms {
		if slices.Contains(statuses, a.Status) && (scope.ListID == nil || *scope.ListID == a.ListID) {
			c.Assessments++
		}
	}
	return c, nil
}

type wVendors struct {
	vendors.VendorRepo
	w *world
}

func (r wVendors) Get(_ context.Context, id uuid.UUID) (vendors.Vendor, error) {
	for _, v := range r.w.vendors {
		if v.ID == id {
			return v, nil
		}
	}
	return vendors.Vendor{}, core.ErrNotFound
}
func (r wVendors) GetByName(_ context.Context, n vendors.Name) (vendors.Vendor, error) {
	for _, v := range r.w.vendors {
		if v.Name.Key() == n.Key() {
			return v, nil
		}
	}
	return vendors.Vendor{}, core.ErrNotFound
}

type wProfiles struct {
	vendors.ProfileRepo
	w *world
}

func (wProfiles) ListByVendors(context.Context, []uuid.UUID) ([]vendors.Profile, error) {
	return nil, nil
}
func (wProfiles) GetByID(context.Context, uuid.UUID) (vendors.Profile, error) {
	return vendors.Profile{}, core.ErrNotFound
}
func (r wProfiles) RatingEvents(_ context.Context, vs []uuid.UUID, limit int) ([]vendors.RatingRecord, error) {
	var out []vendors.RatingRecord
	for _, rec := range r.w.ratings {
		if slices.Contains(vs, rec.VendorID) && len(out) < limit {
			out = append(out, rec)
		}
	}
	return out, nil
}

type wAssessments struct {
	assessments.AssessmentRepo
	w *world
}

func (r wAssessments) Get(_ context.Context, _, id uuid.UUID) (assessments.Assessment, error) {
	for _, a := range r.w.asms {
		if a.ID == id {
			return a, nil
		}
	}
	return assessments.Assessment{}, core.ErrNotFound
}
func (r wAssessments) ListByVendors(_ context.Context, l uuid.UUID, vs []uuid.UUID) ([]assessments.Assessment, error) {
	var out []assessments.Assessment
	for _, a := range r.w.asms {
		if a.ListID == l && slices.Contains(vs, a.VendorID) {
			out = append(out, a)
		}
	}
	return out, nil
}
func (r wAssessments) Find(_ context.Context, f assessments.AssessmentFilter) ([]assessments.Assessment, error) {
	var out []assessments.Assessment
	for _, a := range r.w.asms {
		if (f.ListID == nil || *f.ListID == a.ListID) && (f.VendorID == nil || *f.VendorID == a.VendorID) && (f.ID == nil || *f.ID == a.ID) {
			out = append(out, a)
		}
	}
	return out, nil
}
func (r wAssessments) Timings(ctx context.Context, f assessments.AssessmentFilter) ([]assessments.Timing, error) {
	as, err := r.Find(ctx, f)
	var out []assessments.Timing
	for _, a := range as {
		out = append(out, assessments.TimingOf(a))
	}
	return out, err
}
func (r wAssessments) Save(_ context.Context, as []assessments.Assessment) error {
	for _, a := range as {
		i := slices.IndexFunc(r.w.asms, func(x assessments.Assessment) bool { return x.ID == a.ID })
		if i < 0 {
			r.w.asms = append(r.w.asms, a)
		} else {
			r.w.asms[i] = a
		}
	}
	return nil
}
func (r wAssessments) Delete(_ context.Context, _, id uuid.UUID) error {
	r.w.asms = slices.DeleteFunc(r.w.asms, func(a assessments.Assessment) bool { return a.ID == id })
	return nil
}
func (r wAssessments) AppendEvents(_ context.Context, es []assessments.AuditEvent) error {
	r.w.events = append(r.w.events, es...)
	return nil
}
func (r wAssessments) Events(_ context.Context, id uuid.UUID, offset, limit int) ([]assessments.AuditEvent, int, error) {
	var es []assessments.AuditEvent
	for _, e := range r.w.events {
		if e.AssessmentID == id {
			es = append(es, e)
		}
	}
	n := len(es)
	es = es[min(offset, n):min(offset+limit, n)]
	return es, n, nil
}

type wPolicies struct{ w *world }

func (r wPolicies) Get(context.Context, uuid.UUID) (assessments.Policy, error) {
	if r.w.policy == nil {
		return assessments.Policy{}, core.ErrNotFound
	}
	return *r.w.policy, nil
}
func (r wPolicies) Put(_ context.Context, _ uuid.UUID, p assessments.Policy) error {
	r.w.policy = &p
	return nil
}

type wCal struct{ w *world }

func (r wCal) Get(_ context.Context, acc, user uuid.UUID) (assessments.CalendarKey, error) {
	for _, k := range r.w.calKeys {
		if k.AccountID == acc && k.UserID == user {
			return k, nil
		}
	}
	return assessments.CalendarKey{}, core.ErrNotFound
}
func (r wCal) GetByID(_ context.Context, id uuid.UUID) (assessments.CalendarKey, error) {
	for _, k := range r.w.calKeys {
		if k.ID == id {
			return k, nil
		}
	}
	return assessments.CalendarKey{}, core.ErrNotFound
}
func (r wCal) Create(_ context.Context, k assessments.CalendarKey) error {
	r.w.calKeys = append(r.w.calKeys, k)
	return nil
}
func (r wCal) Delete(_ context.Context, acc, user uuid.UUID) error {
	n := len(r.w.calKeys)
	r.w.calKeys = slices.DeleteFunc(r.w.calKeys, func(k assessments.CalendarKey) bool { return k.AccountID == acc && k.UserID == user })
	if n == len(r.w.calKeys) {
		return core.ErrNotFound
	}
	return nil
}

type wReminders struct{ w *world }

func (r wReminders) Record(_ context.Context, keys []string, _ time.Time) ([]string, error) {
	var fresh []string
	for _, k := range keys {
		if !r.w.reminders[k] {
			r.w.reminders[k] = true
			fresh = append(fresh, k)
		}
	}
	return fresh, nil
}
func (r wReminders) Recorded(_ context.Context, keys []string) ([]string, error) {
	var out []string
	for _, k := range keys {
		if r.w.reminders[k] {
			out = append(out, k)
		}
	}
	return out, nil
}

type wDocs struct{ w *world }

func (r wDocs) Create(_ context.Context, d assessments.Document) error {
	r.w.docs = append(r.w.docs, d)
	return nil
}
func (r wDocs) Get(_ context.Context, _, id uuid.UUID) (assessments.Document, error) {
	for _, d := range r.w.docs {
		if d.ID == id {
			return d, nil
		}
	}
	return assessments.Document{}, core.ErrNotFound
}
func (r wDocs) ListByAssessment(_ context.Context, id uuid.UUID) ([]assessments.Document, error) {
	var out []assessments.Document
	for _, d := range r.w.docs {
		if d.AssessmentID == id {
			out = append(out, d)
		}
	}
	return out, nil
}
func (r wDocs) ListByAccount(context.Context, uuid.UUID) ([]assessments.Document, error) {
	return slices.Clone(r.w.docs), nil
}
func (r wDocs) Update(_ context.Context, d assessments.Document) error {
	for i := range r.w.docs {
		if r.w.docs[i].ID == d.ID {
			r.w.docs[i] = d
		}
	}
	return nil
}
func (r wDocs) Delete(_ context.Context, _, id uuid.UUID) error {
	r.w.docs = slices.DeleteFunc(r.w.docs, func(d assessments.Document) bool { return d.ID == id })
	return nil
}

type wIncidents struct {
	vendors.IncidentRepo
	w *world
}

func (r wIncidents) Recent(_ context.Context, vs []uuid.UUID, limit int) ([]vendors.Incident, error) {
	var out []vendors.Incident
	for _, in := range r.w.incidents {
		if slices.Contains(vs, in.VendorID) {
			out = append(out, in)
		}
	}
	return out[:min(limit, len(out))], nil
}
func (r wIncidents) Latest(ctx context.Context, vs []uuid.UUID) ([]vendors.Incident, error) {
	return r.Recent(ctx, vs, len(r.w.incidents))
}

type wDeliveries struct{ w *world }

func (r wDeliveries) Claim(_ context.Context, key string, now time.Time, _ time.Duration) (mailonce.Delivery, error) {
	if r.w.sent[key] {
		return mailonce.Delivery{State: mailonce.DeliverySent}, nil
	}
	return mailonce.Delivery{State: mailonce.DeliveryClaimed, ClaimedAt: now}, nil
}
func (r wDeliveries) MarkSent(_ context.Context, key string, _ time.Time) error {
	r.w.sent[key] = true
	return nil
}
func (r wDeliveries) Release(context.Context, string) error { return nil }

type wOutbox struct {
	outbox.Repo
	w *world
}

func (r wOutbox) Add(_ context.Context, ms ...outbox.Message) error {
	r.w.outbox = append(r.w.outbox, ms...)
	return nil
}

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

// noLists is the lists area of tests that import no CSV.
type noLists struct{ assessments.ListWriter }
