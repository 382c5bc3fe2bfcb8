package vendors_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
)

// dir is the directory as the vendor use cases read and write it: vendors,
// profiles, instances, incidents, runs and the outbox. Units of work run one
// at a time and are not rolled back.
type dir struct {
	mu        sync.Mutex
	vendors   []vendors.Vendor
	profiles  map[uuid.UUID]vendors.Profile
	instances map[uuid.UUID][]vendors.SecurityInstance
	grc       map[uuid.UUID][]vendors.GRCAssessment
	ratings   []vendors.RatingRecord // newest last
	incidents []vendors.Incident
	runs      map[uuid.UUID]vendors.Run
	outbox    []outbox.Message
}

func newDir(vs ...vendors.Vendor) *dir {
	return &dir{vendors: vs, profiles: map[uuid.UUID]vendors.Profile{}, instances: map[uuid.UUID][]vendors.SecurityInstance{},
		grc: map[uuid.UUID][]vendors.GRCAssessment{}, runs: map[uuid.UUID]vendors.Run{}}
}

func (d *dir) InTx(ctx context.Context, fn func(context.Context, vendors.Tx) error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return fn(ctx, dirTx{d: d})
}
func (d *dir) View(ctx context.Context, fn func(context.Context, vendors.Tx) error) error {
	return d.InTx(ctx, fn)
}
func (d *dir) Ping(context.Context) error { return nil }

type dirTx struct {
	vendors.Tx
	d *dir
}

func (t dirTx) Vendors() vendors.VendorRepo     { return vendorRepo{d: t.d} }
func (t dirTx) Profiles() vendors.ProfileRepo   { return profileRepo{d: t.d} }
func (t dirTx) Incidents() vendors.IncidentRepo { return incidentRepo{d: t.d} }
func (t dirTx) Runs() vendors.RunRepo           { return runRepo{d: t.d} }
func (t dirTx) Outbox() outbox.Repo             { return outboxRepo{d: t.d} }

type vendorRepo struct {
	vendors.VendorRepo
	d *dir
}

func (r vendorRepo) withProfile(v vendors.Vendor) vendors.Vendor {
	_, v.HasProfile = r.d.profiles[v.ID]
	return v
}
func (r vendorRepo) Get(_ context.Context, id uuid.UUID) (vendors.Vendor, error) {
	for _, v := range r.d.vendors {
		if v.ID == id {
			return r.withProfile(v), nil
		}
	}
	return vendors.Vendor{}, core.ErrNotFound
}
func (r vendorRepo) GetByName(_ context.Context, n vendors.Name) (vendors.Vendor, error) {
	for _, v := range r.d.vendors {
		if v.Name.Key() == n.Key() {
			return r.withProfile(v), nil
		}
	}
	return vendors.Vendor{}, core.ErrNotFound
}
func (r vendorRepo) ListByIDs(_ context.Context, ids []uuid.UUID) ([]vendors.Vendor, error) {
	var out []vendors.Vendor
	for _, v := range r.d.vendors {
		if slices.Contains(ids, v.ID) {
			out = append(out, r.withProfile(v))
		}
	}
	return out, nil
}
func (r vendorRepo) List(context.Context) ([]vendors.Vendor, error) {
	out := make([]vendors.Vendor, len(r.d.vendors))
	for i, v := range r.d.vendors {
		out[i] = r.withProfile(v)
	}
	slices.SortFunc(out, func(a, b vendors.Vendor) int { return strings.Compare(string(a.Name), string(b.Name)) })
	return out, nil
}
func (r vendorRepo) Page(ctx context.Context, after vendors.Name, limit int) ([]vendors.Vendor, error) {
	all, _ := r.List(ctx)
	all = slices.DeleteFunc(all, func(v vendors.Vendor) bool { return string(v.Name) <= string(after) })
	return all[:min(limit, len(all))], nil
}
func (r vendorRepo) Update(_ context.Context, v vendors.Vendor) error {
	for i := range r.d.vendors {
		if r.d.vendors[i].ID == v.ID {
			r.d.vendors[i].WebsiteURL, r.d.vendors[i].Domain = v.WebsiteURL, v.Domain
			return nil
		}
	}
	return core.ErrNotFound
}
func (r vendorRepo) Ensure(ctx context.Context, vs []vendors.Vendor) ([]vendors.Vendor, error) {
	out := make([]vendors.Vendor, len(vs))
	for i, v := range vs {
		got, err := r.GetByName(ctx, v.Name)
		if errors.Is(err, core.ErrNotFound) {
			r.d.vendors = append(r.d.vendors, v)
			got = v
		}
		out[i] = got
	}
	return out, nil
}

type profileRepo struct {
	vendors.ProfileRepo
	d *dir
}

func (r profileRepo) Get(_ context.Context, id uuid.UUID) (vendors.Profile, error) {
	p, ok := r.d.profiles[id]
	if !ok {
		return p, core.ErrNotFound
	}
	return p, nil
}
func (r profileRepo) ListByVendors(_ context.Context, ids []uuid.UUID) ([]vendors.Profile, error) {
	var out []vendors.Profile
	for _, id := range ids {
		if p, ok := r.d.profiles[id]; ok {
			out = append(out, p)
		}
	}
	return out, nil
}
func (r profileRepo) Save(_ context.Context, p vendors.Profile) error {
	r.d.profiles[p.VendorID] = p
	return nil
}
func (r profileRepo) Delete(_ context.Context, id uuid.UUID) error {
	if _, ok := r.d.profiles[id]; !ok {
		return core.ErrNotFound
	}
	delete(r.d.profiles, id)
	return nil
}
func (r profileRepo) Instances(_ context.Context, id uuid.UUID) ([]vendors.SecurityInstance, error) {
	return r.d.instances[id], nil
}
func (r profileRepo) ReplaceInstances(_ context.Context, id uuid.UUID, is []vendors.SecurityInstance) error {
	r.d.instances[id] = is
	return nil
}
func (r profileRepo) AddGRCAssessment(_ context.Context, id uuid.UUID, a vendors.GRCAssessment) error {
	r.d.grc[id] = append(r.d.grc[id], a)
	return nil
}
func (r profileRepo) AddRating(_ context.Context, rec vendors.RatingRecord) error {
	r.d.ratings = append(r.d.ratings, rec)
	return nil
}

// Ratings is the newest first, without paging (the tests read the latest).
func (r profileRepo) Ratings(_ context.Context, id uuid.UUID, _ *vendors.RatingCursor, limit int) ([]vendors.RatingRecord, error) {
	var out []vendors.RatingRecord
	for i := len(r.d.ratings) - 1; i >= 0 && len(out) < limit; i-- {
		if r.d.ratings[i].VendorID == id {
			out = append(out, r.d.ratings[i])
		}
	}
	return out, nil
}

type incidentRepo struct {
	vendors.IncidentRepo
	d *dir
}

func (r incidentRepo) Create(_ context.Context, in vendors.Incident) error {
	for _, x := range r.d.incidents {
		if x.VendorID == in.VendorID && x.Source == in.Source && x.ExternalID == in.ExternalID {
			return core.ErrConflict
		}
	}
	r.d.incidents = append(r.d.incidents, in)
	return nil
}
func (r incidentRepo) Merge(ctx context.Context, ins []vendors.Incident) ([]vendors.Incident, error) {
	var out []vendors.Incident
	for _, in := range ins {
		if r.Create(ctx, in) == nil {
			out = append(out, in)
		}
	}
	return out, nil
}
func (r incidentRepo) ListByVendor(_ context.Context, id uuid.UUID) ([]vendors.Incident, error) {
	var out []vendors.Incident
	for _, in := range r.d.incidents {
		if in.VendorID == id {
			out = append(out, in)
		}
	}
	return out, nil
}

type runRepo struct {
	vendors.RunRepo
	d *dir
}

func (r runRepo) Create(_ context.Context, x vendors.Run) error { r.d.runs[x.ID] = x; return nil }
func (r runRepo) Get(_ context.Context, id uuid.UUID) (vendors.Run, error) {
	x, ok := r.d.runs[id]
	if !ok {
		return x, core.ErrNotFound
	}
	return x, nil
}
func (r runRepo) GetForUpdate(ctx context.Context, id uuid.UUID) (vendors.Run, error) {
	return r.Get(ctx, id)
}
func (r runRepo) Save(_ context.Context, x vendors.Run) error { r.d.runs[x.ID] = x; return nil }

type outboxRepo struct {
	outbox.Repo
	d *dir
}

func (r outboxRepo) Add(_ context.Context, ms ...outbox.Message) error {
	r.d.outbox = append(r.d.outbox, ms...)
	return nil
}

func (d *dir) kinds() []outbox.Kind {
	var out []outbox.Kind
	for _, m := range d.outbox {
		out = append(out, m.Kind)
	}
	return out
}

// enricher finds a company name for vendors with a website, nothing else.
type enricher struct{}

func (enricher) Enrich(_ context.Context, v vendors.Vendor, cur vendors.Profile, secs []vendors.Section) (vendors.EnrichResult, error) {
	if v.WebsiteURL == "" {
		if cur.Enrichment == nil {
			cur.Enrichment = map[vendors.Section]vendors.SectionStatus{}
		}
		for _, s := range secs {
			cur.Enrichment[s] = vendors.SectionStatus{Status: vendors.RunSkipped, Error: "no website"}
		}
		return vendors.EnrichResult{Profile: cur}, nil
	}
	cur.Company.CompanyDescription = string(v.Name)
	res := vendors.EnrichResult{Profile: cur}
	for _, s := range secs {
		cur.Enrichment[s] = vendors.SectionStatus{Status: vendors.RunDone}
		if s == vendors.SectionSecurity {
			res.Instances = []vendors.SecurityInstance{} // a scan that found nothing to rate
		}
	}
	return res, nil
}

// incidents are what the source publishes for every vendor.
type incidents struct{ titles []string }

func (s incidents) Fetch(_ context.Context, v vendors.Vendor, _ time.Time) ([]vendors.Incident, error) {
	var out []vendors.Incident
	for _, t := range s.titles {
		out = append(out, vendors.Incident{Title: t, ExternalID: string(v.Name) + "/" + t, Source: "feed"})
	}
	return out, nil
}

type clock struct{}

func (clock) Now() time.Time { return time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC) }

var admin = accounts.Actor{Email: "ops@vetted.test", PlatformAdmin: true}

func newService(t *testing.T, d *dir) *vendors.Service {
	t.Helper()
	s, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: d, Clock: clock{}, IDs: ports.UUIDv7{}}, Enricher: enricher{},
		Incidents: incidents{titles: []string{"outage"}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func vendor(name, site string) vendors.Vendor {
	v, err := vendors.New(uuid.New(), name, site, clock{}.Now())
	if err != nil {
		panic(err)
	}
	return v
}

func ref(t *testing.T, s string) vendors.Ref {
	t.Helper()
	r, err := vendors.ParseRef(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestAdminEditsAndIncidents(t *testing.T) {
	t.Parallel()
	acme := vendor("Acme", "https://acme.test")
	d := newDir(acme)
	s := newService(t, d)
	ctx := context.Background()

	if _, err := s.PatchVendor(ctx, accounts.Actor{}, ref(t, "Acme"), nil); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("a non-admin patched: %v", err)
	}
	view, err := s.PatchVendor(ctx, admin, ref(t, "acme"), map[string]json.RawMessage{"company": json.RawMessage(`{"industry":"Chat"}`)})
	if err != nil || view.Profile == nil || !view.Vendor.HasProfile || view.Profile.Company.Industry != "Chat" {
		t.Fatalf("patch: %+v, %v", view, err)
	}
	if got, err := s.GetVendor(ctx, accounts.Actor{}, ref(t, acme.ID.String())); err != nil || got.Profile == nil {
		t.Fatalf("get: %+v, %v", got, err)
	}
	if _, err := s.GetVendor(ctx, accounts.Actor{}, ref(t, "Globex")); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("unknown vendor: %v", err)
	}
	if v, is, err := s.SecurityInstances(ctx, accounts.Actor{}, ref(t, "Acme")); err != nil || v.ID != acme.ID || len(is) != 0 {
		t.Fatalf("instances: %v %v", is, err)
	}

	// A live incident alerts (a fan-out job); a backfilled one does not; the
	// same one twice is a conflict.
	if _, err := s.RecordIncident(ctx, admin, ref(t, "Acme"), vendors.Incident{Title: "Breach", ExternalID: "b1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordIncident(ctx, admin, ref(t, "Acme"), vendors.Incident{Title: "Old", ExternalID: "o1", Backfilled: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordIncident(ctx, admin, ref(t, "Acme"), vendors.Incident{Title: "Breach", ExternalID: "b1"}); !errors.Is(err, core.ErrConflict) {
		t.Fatalf("a duplicate incident: %v", err)
	}
	if got := d.kinds(); !slices.Equal(got, []outbox.Kind{outbox.KindIncidentFanout}) {
		t.Fatalf("outbox %v", got)
	}
	if ins, err := s.Incidents(ctx, accounts.Actor{}, ref(t, "Acme")); err != nil || len(ins) != 2 {
		t.Fatalf("incidents %v, %v", ins, err)
	}

	if _, err := s.DeleteVendor(ctx, admin, ref(t, "Acme")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteVendor(ctx, admin, ref(t, "Acme")); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("no profile to delete: %v", err)
	}

	vs, more, err := s.VendorsPage(ctx, accounts.Actor{}, "", 1)
	if err != nil || len(vs) != 1 || more {
		t.Fatalf("page: %v %v %v", vs, more, err)
	}
	if _, _, err := s.VendorsPage(ctx, accounts.Actor{}, "", vendors.MaxVendorPage+1); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("a page too large: %v", err)
	}
}

// TestEnrichment: a run has a job per vendor; a vendor for which nothing
// was found stays custom (no profile is made of nothing); createOnly skips
// vendors with a profile; a run is read back only under its own kind.
func TestEnrichment(t *testing.T) {
	t.Parallel()
	acme, bare := vendor("Acme", "https://acme.test"), vendor("Bare", "")
	d := newDir(acme, bare)
	s := newService(t, d)
	ctx := context.Background()

	if _, err := s.Enrich(ctx, admin, nil, nil, false); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("no vendors: %v", err)
	}
	if _, err := s.Enrich(ctx, admin, []string{uuid.NewString()}, nil, false); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("an unknown id: %v", err)
	}
	r, err := s.Enrich(ctx, admin, []string{acme.ID.String(), "Bare", "Newco"}, []string{"basic"}, false)
	if err != nil || len(r.Jobs) != 3 {
		t.Fatalf("enrich: %+v, %v", r, err)
	}
	for _, m := range d.outbox {
		p, ok := m.Payload.(outbox.Enrich)
		if !ok {
			t.Fatalf("payload is %T", m.Payload)
		}
		if err := s.EnrichJob(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := d.profiles[acme.ID]; !ok {
		t.Fatal("Acme has no profile after its enrichment")
	}
	if _, ok := d.profiles[bare.ID]; ok {
		t.Fatal("a vendor with nothing found got a profile")
	}
	got, err := s.Run(ctx, admin, vendors.RunEnrich, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, j := range got.Jobs {
		status[j.VendorName] = j.Status
	}
	if status["Acme"] != vendors.RunDone || status["Bare"] != vendors.RunSkipped {
		t.Fatalf("jobs %v", status)
	}
	if _, err := s.Run(ctx, admin, vendors.RunBackfill, r.ID); !errors.Is(err, core.ErrNotFound) {
		t.Fatalf("a run under another kind: %v", err)
	}

	d.outbox = nil
	r, err = s.Enrich(ctx, admin, []string{"Acme", "Bare"}, nil, true)
	if err != nil || len(d.outbox) != 1 {
		t.Fatalf("createOnly: %+v, %v, %d queued", r, err, len(d.outbox))
	}

	// Re-enrichment queues the profiles older than the age given.
	if n, err := s.ReenrichStale(ctx, time.Hour); err != nil || n != 0 {
		t.Fatalf("nothing stale: %d, %v", n, err)
	}
	if n, err := s.ReenrichStale(ctx, -time.Hour); err != nil || n != 1 {
		t.Fatalf("all stale: %d, %v", n, err)
	}
}

func TestIncidentBackfillAndPoll(t *testing.T) {
	t.Parallel()
	acme := vendor("Acme", "https://acme.test")
	d := newDir(acme)
	s := newService(t, d)
	ctx := context.Background()
	r, err := s.StartBackfill(ctx, admin, []vendors.Ref{ref(t, "Acme"), ref(t, acme.ID.String())}, nil)
	if err != nil || len(r.Jobs) != 1 {
		t.Fatalf("backfill: %+v, %v", r, err)
	}
	if err := s.RunBackfill(ctx, outbox.Backfill{RunID: r.ID}); err != nil {
		t.Fatal(err)
	}
	if len(d.incidents) != 1 || !d.incidents[0].Backfilled {
		t.Fatalf("incidents %+v", d.incidents)
	}
	d.outbox = nil
	// The poll finds the same incident again: nothing new, nothing alerts.
	if err := s.PollIncidents(ctx); err != nil || len(d.incidents) != 1 || len(d.outbox) != 0 {
		t.Fatalf("poll: %v, %d incidents, %v", err, len(d.incidents), d.kinds())
	}
}

// TestScanRates: a security scan replaces the instances and rates them,
// requested or not; with nothing rated the scores section says why.
func TestScanRates(t *testing.T) {
	t.Parallel()
	acme := vendor("Acme", "https://acme.test")
	d := newDir(acme)
	s := newService(t, d)
	ctx := context.Background()
	r, err := s.Enrich(ctx, admin, []string{"Acme"}, []string{"security"}, false)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := d.outbox[0].Payload.(outbox.Enrich)
	if !ok {
		t.Fatalf("payload is %T", d.outbox[0].Payload)
	}
	if err := s.EnrichJob(ctx, p); err != nil {
		t.Fatal(err)
	}
	prof := d.profiles[acme.ID]
	if st := prof.Enrichment[vendors.SectionScores]; st.Status != vendors.RunSkipped || st.Error == "" {
		t.Fatalf("scores %+v", st)
	}
	if got, _ := s.Run(ctx, admin, vendors.RunEnrich, r.ID); got.Jobs[0].Status != vendors.RunDone {
		t.Fatalf("job %+v", got.Jobs[0])
	}
	// A job of a run that is gone, or of a vendor that is gone, ends quietly.
	if err := s.EnrichJob(ctx, outbox.Enrich{RunID: uuid.New(), JobID: uuid.New(), VendorID: uuid.New()}); err != nil {
		t.Fatal(err)
	}
}

func TestStoreViewsByID(t *testing.T) {
	t.Parallel()
	acme, beta := vendor("Acme", ""), vendor("Beta", "")
	d := newDir(acme, beta)
	d.profiles[acme.ID] = vendors.NewProfile(uuid.New(), acme.ID, clock{}.Now())
	views, err := vendors.StoreViews{Store: ports.Narrow[vendors.Tx](d)}.ViewsByID(context.Background(), []uuid.UUID{acme.ID, beta.ID, uuid.New()})
	if err != nil || len(views) != 2 || views[acme.ID].Profile == nil || views[beta.ID].Profile != nil {
		t.Fatalf("views %+v, %v", views, err)
	}
}
