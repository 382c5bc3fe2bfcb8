package vendors_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/accounts"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
	"github.com/vetted-dev/vetted/ports/memstore"
)

// dir is the memory store as the vendor use cases see it, with the reads
// the tests check it by.
type dir struct {
	ports.UnitOfWork[vendors.Tx]
	s *memstore.Store
	t *testing.T
}

// newDir makes a store whose directory holds vs.
func newDir(t *testing.T, vs ...vendors.Vendor) *dir {
	t.Helper()
	s := memstore.New()
	d := &dir{UnitOfWork: ports.Narrow[vendors.Tx](s), s: s, t: t}
	d.write(func(ctx context.Context, tx vendors.Tx) error {
		_, err := tx.Vendors().Ensure(ctx, vs)
		return err
	})
	return d
}

// write runs fn in a unit of work; read in a read-only one.
func (d *dir) write(fn func(context.Context, vendors.Tx) error) {
	d.t.Helper()
	if err := d.InTx(d.t.Context(), fn); err != nil {
		d.t.Fatal(err)
	}
}

func (d *dir) read(fn func(context.Context, vendors.Tx) error) {
	d.t.Helper()
	if err := d.View(d.t.Context(), fn); err != nil {
		d.t.Fatal(err)
	}
}

// outbox returns what the units of work emitted since clearOutbox.
func (d *dir) outbox() []outbox.Message { return d.s.Undelivered() }

// clearOutbox marks every message delivered.
func (d *dir) clearOutbox() {
	d.t.Helper()
	var ids []uuid.UUID
	for _, m := range d.outbox() {
		ids = append(ids, m.ID)
	}
	d.write(func(ctx context.Context, tx vendors.Tx) error {
		return tx.Outbox().MarkDelivered(ctx, ids, clock{}.Now())
	})
}

func (d *dir) kinds() []outbox.Kind {
	var out []outbox.Kind
	for _, m := range d.outbox() {
		out = append(out, m.Kind)
	}
	return out
}

func (d *dir) vendor(id uuid.UUID) (v vendors.Vendor) {
	d.t.Helper()
	d.read(func(ctx context.Context, tx vendors.Tx) (err error) { v, err = tx.Vendors().Get(ctx, id); return err })
	return v
}

// profile returns the vendor's profile, if it has one.
func (d *dir) profile(id uuid.UUID) (p vendors.Profile, ok bool) {
	d.t.Helper()
	d.read(func(ctx context.Context, tx vendors.Tx) error {
		var err error
		p, err = tx.Profiles().Get(ctx, id)
		if ok = err == nil; errors.Is(err, core.ErrNotFound) {
			return nil
		}
		return err
	})
	return p, ok
}

// incidents returns the vendor's incidents, newest first.
func (d *dir) incidents(id uuid.UUID) (ins []vendors.Incident) {
	d.t.Helper()
	d.read(func(ctx context.Context, tx vendors.Tx) (err error) {
		ins, err = tx.Incidents().ListByVendor(ctx, id)
		return err
	})
	return ins
}

// ratings returns the vendor's rating history, oldest first.
func (d *dir) ratings(id uuid.UUID) (rs []vendors.RatingRecord) {
	d.t.Helper()
	d.read(func(ctx context.Context, tx vendors.Tx) (err error) {
		rs, err = tx.Profiles().Ratings(ctx, id, nil, 1000)
		slices.Reverse(rs)
		return err
	})
	return rs
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
	d := newDir(t, acme)
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
	d := newDir(t, acme, bare)
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
	for _, m := range d.outbox() {
		p, ok := m.Payload.(outbox.Enrich)
		if !ok {
			t.Fatalf("payload is %T", m.Payload)
		}
		if err := s.EnrichJob(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := d.profile(acme.ID); !ok {
		t.Fatal("Acme has no profile after its enrichment")
	}
	if _, ok := d.profile(bare.ID); ok {
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

	d.clearOutbox()
	r, err = s.Enrich(ctx, admin, []string{"Acme", "Bare"}, nil, true)
	if err != nil || len(d.outbox()) != 1 {
		t.Fatalf("createOnly: %+v, %v, %d queued", r, err, len(d.outbox()))
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
	d := newDir(t, acme)
	s := newService(t, d)
	ctx := context.Background()
	r, err := s.StartBackfill(ctx, admin, []vendors.Ref{ref(t, "Acme"), ref(t, acme.ID.String())}, nil)
	if err != nil || len(r.Jobs) != 1 {
		t.Fatalf("backfill: %+v, %v", r, err)
	}
	if err := s.RunBackfill(ctx, outbox.Backfill{RunID: r.ID}); err != nil {
		t.Fatal(err)
	}
	if ins := d.incidents(acme.ID); len(ins) != 1 || !ins[0].Backfilled {
		t.Fatalf("incidents %+v", ins)
	}
	d.clearOutbox()
	// The poll finds the same incident again: nothing new, nothing alerts.
	if err := s.PollIncidents(ctx); err != nil || len(d.incidents(acme.ID)) != 1 || len(d.outbox()) != 0 {
		t.Fatalf("poll: %v, %d incidents, %v", err, len(d.incidents(acme.ID)), d.kinds())
	}
}

// TestScanRates: a security scan replaces the instances and rates them,
// requested or not; with nothing rated the scores section says why.
func TestScanRates(t *testing.T) {
	t.Parallel()
	acme := vendor("Acme", "https://acme.test")
	d := newDir(t, acme)
	s := newService(t, d)
	ctx := context.Background()
	r, err := s.Enrich(ctx, admin, []string{"Acme"}, []string{"security"}, false)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := d.outbox()[0].Payload.(outbox.Enrich)
	if !ok {
		t.Fatalf("payload is %T", d.outbox()[0].Payload)
	}
	if err := s.EnrichJob(ctx, p); err != nil {
		t.Fatal(err)
	}
	prof, _ := d.profile(acme.ID)
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
	d := newDir(t, acme, beta)
	d.write(func(ctx context.Context, tx vendors.Tx) error {
		return tx.Profiles().Save(ctx, vendors.NewProfile(uuid.New(), acme.ID, clock{}.Now()))
	})
	views, err := vendors.StoreViews{Store: ports.Narrow[vendors.Tx](d)}.ViewsByID(context.Background(), []uuid.UUID{acme.ID, beta.ID, uuid.New()})
	if err != nil || len(views) != 2 || views[acme.ID].Profile == nil || views[beta.ID].Profile != nil {
		t.Fatalf("views %+v, %v", views, err)
	}
}

// TestPatchVendorAliases: the aliases member of a PATCH sets the directory
// entry's aliases in the same unit of work as the profile's groups (all or
// nothing), null or [] clears them, and aliases alone make no profile.
func TestPatchVendorAliases(t *testing.T) {
	t.Parallel()
	acme, bare := vendor("Acme", "https://acme.test"), vendor("Bare", "")
	d := newDir(t, acme, bare)
	s, ctx := newService(t, d), t.Context()
	patch := func(name, doc string) (vendors.View, error) {
		var p map[string]json.RawMessage
		if err := json.Unmarshal([]byte(doc), &p); err != nil {
			t.Fatal(err)
		}
		return s.PatchVendor(ctx, admin, ref(t, name), p)
	}

	if _, err := s.PatchVendor(ctx, accounts.Actor{Email: "x@vetted.test"}, ref(t, "Bare"), map[string]json.RawMessage{"aliases": json.RawMessage(`["B"]`)}); !errors.Is(err, core.ErrForbidden) {
		t.Fatalf("a non-admin set aliases: %v", err)
	}
	// Aliases alone: the entry has them, no profile is made.
	view, err := patch("Bare", `{"aliases": [" Bare Co ", "bare co", "BareSoft"]}`)
	if err != nil || !slices.Equal(view.Vendor.Aliases, []string{"Bare Co", "BareSoft"}) || view.Profile != nil || view.Vendor.HasProfile {
		t.Fatalf("aliases alone: %+v, %v", view, err)
	}
	if _, ok := d.profile(bare.ID); ok {
		t.Fatal("a patch of aliases alone made a profile")
	}
	if got := d.vendor(bare.ID).Aliases; !slices.Equal(got, []string{"Bare Co", "BareSoft"}) {
		t.Fatalf("stored aliases %q", got)
	}
	// With a group: both, and the profile is made as before.
	view, err = patch("Acme", `{"aliases": ["Acme Corp"], "company": {"industry": "Anvils"}}`)
	if err != nil || !slices.Equal(view.Vendor.Aliases, []string{"Acme Corp"}) || view.Profile == nil || view.Profile.Company.Industry != "Anvils" {
		t.Fatalf("aliases and a group: %+v, %v", view, err)
	}
	// Aliases alone on a vendor with a profile: the profile is answered, unchanged.
	view, err = patch("Acme", `{"aliases": ["Acme Corp", "ACME Anvils"]}`)
	if err != nil || view.Profile == nil || view.Profile.Company.Industry != "Anvils" || len(view.Vendor.Aliases) != 2 {
		t.Fatalf("aliases alone with a profile: %+v, %v", view, err)
	}
	// A refused part refuses all: a bad group keeps the aliases, bad aliases keep the profile.
	if _, err := patch("Acme", `{"aliases": ["Other"], "company": {"founded_year": "old"}}`); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("a bad group: %v", err)
	}
	if _, err := patch("Acme", `{"aliases": [""], "company": {"industry": "Rockets"}}`); !errors.Is(err, core.ErrInvalid) {
		t.Fatalf("a bad alias: %v", err)
	}
	if p, _ := d.profile(acme.ID); p.Company.Industry != "Anvils" || len(d.vendor(acme.ID).Aliases) != 2 {
		t.Fatalf("a refused patch changed something: %q, %q", p.Company.Industry, d.vendor(acme.ID).Aliases)
	}
	// Both wrong: both named.
	_, err = patch("Acme", `{"aliases": "Acme", "compny": {}}`)
	var fields []string
	for _, f := range core.Failures(err) {
		fields = append(fields, f.Field)
	}
	if slices.Sort(fields); !slices.Equal(fields, []string{"Patch.aliases", "Patch.compny"}) {
		t.Fatalf("both wrong named %q (%v)", fields, err)
	}
	// null and [] clear.
	for _, empty := range []string{`null`, `[]`} {
		if _, err := patch("Acme", `{"aliases": ["x"]}`); err != nil {
			t.Fatal(err)
		}
		if view, err = patch("Acme", `{"aliases": `+empty+`}`); err != nil || view.Vendor.Aliases == nil || len(view.Vendor.Aliases) != 0 || len(d.vendor(acme.ID).Aliases) != 0 {
			t.Fatalf("aliases %s: %+v, %v", empty, view.Vendor, err)
		}
	}
	// The website and domain stay.
	if v := d.vendor(acme.ID); v.WebsiteURL != acme.WebsiteURL || v.Domain != acme.Domain {
		t.Fatalf("aliases changed the entry's website: %+v", v)
	}
}
