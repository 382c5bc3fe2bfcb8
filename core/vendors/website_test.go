package vendors_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core/assessments"
	"github.com/vetted-dev/vetted/core/platform/domainevent"
	"github.com/vetted-dev/vetted/core/platform/outbox"
	"github.com/vetted-dev/vetted/core/platform/uow"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports"
)

// finder knows the websites of some names; it records the names asked.
type finder struct {
	sites map[string]string
	asked *[]string
}

func (f finder) FindWebsite(_ context.Context, name vendors.Name) (vendors.WebsiteDiscovery, error) {
	*f.asked = append(*f.asked, name.String())
	d := vendors.WebsiteDiscovery{Threshold: 0.7, Candidates: []vendors.WebsiteCandidate{{Domain: "x.com", Verdict: "unresolvable", Reason: "NXDOMAIN"}}}
	if site, ok := f.sites[name.String()]; ok {
		d.Website, d.Confidence, d.MatchText, d.MatchSource = site, 0.9, name.String(), "title"
	}
	return d, nil
}

func enrichAll(t *testing.T, s *vendors.Service, d *dir, names ...string) vendors.Run {
	t.Helper()
	ctx := context.Background()
	d.clearOutbox()
	r, err := s.Enrich(ctx, admin, names, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range d.outbox() {
		if p, ok := m.Payload.(outbox.Enrich); ok {
			if err := s.EnrichJob(ctx, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := s.Run(ctx, admin, vendors.RunEnrich, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestWebsiteDiscovery: a vendor known by name gets the website discovery
// finds, marked discovered, before it is enriched; one discovery cannot
// place reads needs_website (its job skipped, not failed); a website given
// is never looked for or replaced.
func TestWebsiteDiscovery(t *testing.T) {
	t.Parallel()
	found, lost, given := vendor("Zentrix", ""), vendor("Marlow", ""), vendor("Acme", "https://acme.test")
	d := newDir(t, found, lost, given)
	var asked []string
	s, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: d, Clock: clock{}, IDs: ports.UUIDv7{}}, Enricher: enricher{},
		Incidents: incidents{}, Websites: finder{sites: map[string]string{"Zentrix": "https://zentrix.com/", "Acme": "https://other.test/"}, asked: &asked}})
	if err != nil {
		t.Fatal(err)
	}
	r := enrichAll(t, s, d, "Zentrix", "Marlow", "Acme")
	if slices.Sort(asked); !slices.Equal(asked, []string{"Marlow", "Zentrix"}) {
		t.Errorf("discovery asked for %v, want the vendors without a website", asked)
	}
	jobs := map[string]vendors.RunJob{}
	for _, j := range r.Jobs {
		jobs[j.VendorName] = j
	}
	v := d.vendor(found.ID)
	p, _ := d.profile(found.ID)
	if v.WebsiteURL != "https://zentrix.com/" || v.Domain != "zentrix.com" || p.WebsiteSource != vendors.WebsiteDiscovered ||
		p.Discovery == nil || p.Discovery.MatchText != "Zentrix" || p.Company.CompanyDescription != "Zentrix" || jobs["Zentrix"].Status != vendors.RunDone {
		t.Errorf("discovered: vendor %+v, profile source %q discovery %+v, job %+v", v, p.WebsiteSource, p.Discovery, jobs["Zentrix"])
	}
	p, _ = d.profile(lost.ID)
	if p.Discovery == nil || p.Discovery.Found() || p.WebsiteSource != "" || jobs["Marlow"].Status != vendors.RunSkipped {
		t.Errorf("not found: profile %+v, job %+v", p, jobs["Marlow"])
	}
	if st := vendors.EnrichmentStatus(true, p.Enrichment); st != vendors.StatusNeedsWebsite {
		t.Errorf("enrichment status %q, want needs_website", st)
	}
	if !slices.Contains(assessments.EnrichmentStates(), vendors.StatusNeedsWebsite) {
		t.Errorf("the list filter does not offer needs_website: %v", assessments.EnrichmentStates())
	}
	if p, _ := d.profile(given.ID); p.WebsiteSource != vendors.WebsiteGiven || p.Discovery != nil {
		t.Errorf("given: source %q, discovery %+v", p.WebsiteSource, p.Discovery)
	}
	// Enriched again, the discovered website is kept, not looked for anew.
	asked = nil
	enrichAll(t, s, d, "Zentrix")
	if p, _ := d.profile(found.ID); len(asked) != 0 || p.WebsiteSource != vendors.WebsiteDiscovered {
		t.Errorf("second run asked %v, source %q", asked, p.WebsiteSource)
	}
}

// scanner is an enricher whose scan finds the instances it holds, with
// the certificate expiry it holds.
type scanner struct {
	is      *[]vendors.SecurityInstance
	expires *string
}

func (sc scanner) Enrich(_ context.Context, _ vendors.Vendor, cur vendors.Profile, secs []vendors.Section) (vendors.EnrichResult, error) {
	for _, s := range secs {
		cur.Enrichment[s] = vendors.SectionStatus{Status: vendors.RunDone}
	}
	cur.Security.ExternalSignals.TLSExpiresAt = *sc.expires
	return vendors.EnrichResult{Profile: cur, Instances: slices.Clone(*sc.is)}, nil
}

// TestRatingEvents: every scan keeps a record; the first is the baseline,
// a scan that changes nothing that matters is no event, and one whose
// certificate now expires within 14 days is one event on the outbox.
func TestRatingEvents(t *testing.T) {
	t.Parallel()
	acme := vendor("Acme", "https://acme.test")
	d := newDir(t, acme)
	is := []vendors.SecurityInstance{{Code: "hsts_missing", Severity: "medium", Title: "No HSTS", Kind: "finding", Category: "application_security"}}
	expires := clock{}.Now().AddDate(0, 6, 0).Format("2006-01-02T15:04:05Z")
	var hooks []domainevent.Event // the webhook events recorded, in their units of work
	record := func(_ context.Context, _ vendors.Tx, ev domainevent.Event) error {
		hooks = append(hooks, ev)
		return nil
	}
	s, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: d, Clock: clock{}, IDs: ports.UUIDv7{}, Events: record},
		Enricher: scanner{is: &is, expires: &expires}, Incidents: incidents{}})
	if err != nil {
		t.Fatal(err)
	}
	events := func() []outbox.RatingChanged {
		var out []outbox.RatingChanged
		for _, m := range d.outbox() {
			if p, ok := m.Payload.(outbox.RatingChanged); ok {
				out = append(out, p)
			}
		}
		return out
	}
	enrichAll(t, s, d, "Acme")
	enrichAll(t, s, d, "Acme")
	if rs := d.ratings(acme.ID); len(rs) != 2 || len(events()) != 0 {
		t.Fatalf("%d records, events %v; want 2 and none", len(rs), events())
	}
	expires = clock{}.Now().AddDate(0, 0, 10).Format("2006-01-02T15:04:05Z")
	enrichAll(t, s, d, "Acme")
	ev, rs := events(), d.ratings(acme.ID)
	if len(rs) != 3 || len(ev) != 1 || ev[0].EventID != rs[2].ID || ev[0].VendorID != acme.ID {
		t.Fatalf("%d records, events %v", len(rs), ev)
	}
	if ch := rs[2].Changes; len(ch) != 1 || ch[0].Kind != vendors.ChangeCertExpiring {
		t.Fatalf("changes %+v", ch)
	}
	// The same change is one vendor.rating_changed webhook event, with the
	// record's id, the vendor and why.
	if len(hooks) != 1 || hooks[0].Type != domainevent.RatingChanged || hooks[0].ID != rs[2].ID || hooks[0].Data.VendorID != acme.ID ||
		hooks[0].Data.VendorName != "Acme" || len(hooks[0].Data.Reasons) != 1 || !strings.HasPrefix(hooks[0].Data.Reasons[0], string(vendors.ChangeCertExpiring)) {
		t.Fatalf("webhook events %+v", hooks)
	}
}

// editingFinder finds nothing, and while it looks, an admin edits the
// vendor's profile.
type editingFinder struct {
	d      *dir
	vendor vendors.Vendor
}

func (f editingFinder) FindWebsite(context.Context, vendors.Name) (vendors.WebsiteDiscovery, error) {
	p := vendors.NewProfile(uuid.New(), f.vendor.ID, clock{}.Now())
	p.Company.Industry = "Defense"
	f.d.write(func(ctx context.Context, tx vendors.Tx) error { return tx.Profiles().Save(ctx, p) }) // no unit of work is open during a discovery
	return vendors.WebsiteDiscovery{Threshold: 0.7}, nil
}

// TestNeedsWebsiteKeepsAnEdit: a discovery that finds nothing adds its
// evidence to the profile as it is when it ends, not as it was read.
func TestNeedsWebsiteKeepsAnEdit(t *testing.T) {
	t.Parallel()
	stark := vendor("Stark", "")
	d := newDir(t, stark)
	s, err := vendors.NewService(vendors.Deps{Unit: uow.Unit[vendors.Tx]{Store: d, Clock: clock{}, IDs: ports.UUIDv7{}}, Enricher: enricher{},
		Incidents: incidents{}, Websites: editingFinder{d: d, vendor: stark}})
	if err != nil {
		t.Fatal(err)
	}
	enrichAll(t, s, d, "Stark")
	p, _ := d.profile(stark.ID)
	if p.Company.Industry != "Defense" || p.Discovery == nil || vendors.EnrichmentStatus(true, p.Enrichment) != vendors.StatusNeedsWebsite {
		t.Fatalf("profile %+v", p)
	}
}
