package porttest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/core"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

func vendorIDs(vs []vendors.Vendor) []uuid.UUID {
	return idsOf(vs, func(v vendors.Vendor) uuid.UUID { return v.ID })
}

func getVendor(f *fixture, id uuid.UUID) vendors.Vendor {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) (vendors.Vendor, error) { return tx.Vendors().Get(ctx, id) })
}

var vendorCases = []testCase{
	{"Page walks the directory by name in byte order, a page at a time", func(t *testing.T, f *fixture) {
		names := []string{"beta", "Acme", "Zeta", "Émile", "acme2", "Mu", "mu2"}
		vs := f.vendors(names...)
		page := func(after vendors.Name, limit int) []vendors.Vendor {
			return load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Vendor, error) {
				return tx.Vendors().Page(ctx, after, limit)
			})
		}
		want := slices.Clone(names)
		slices.Sort(want) // byte order: upper case before lower case, É last
		var got []string
		after := vendors.Name("")
		for range len(names) {
			p := page(after, 3)
			if len(p) > 3 {
				t.Fatalf("a page of %d entries, limit 3", len(p))
			}
			if len(p) == 0 {
				break
			}
			for _, v := range p {
				got = append(got, v.Name.String())
			}
			after = p[len(p)-1].Name
		}
		equal(t, "names over the pages", strings.Join(got, ","), strings.Join(want, ","))
		if p := page("", 100); len(p) != len(vs) || p[0].ID != vs[1].ID {
			t.Fatalf("one page of everything: %d entries, first %v", len(p), p[0].Name)
		}
		if p := page("zzz", 10); len(p) != 1 || p[0].Name != "Émile" {
			t.Fatalf("after zzz: %v", p)
		}
	}},
	{"Ensure inserts new entries and returns them in input order", func(t *testing.T, f *fixture) {
		in := []vendors.Vendor{f.newVendor("Zeta", "https://zeta.example"), f.newVendor("Acme", ""), f.newVendor("Mu", "")}
		got := f.ensure(in...)
		sameIDs(t, "ensured", vendorIDs(got), vendorIDs(in))
		equal(t, "name", got[0].Name, vendors.Name("Zeta"))
		equal(t, "website", got[0].WebsiteURL, "https://zeta.example")
		equal(t, "domain", got[0].Domain, "zeta.example")
		equal(t, "new vendor has no profile", got[0].HasProfile, false)
		stored := getVendor(f, in[0].ID)
		equal(t, "stored name", stored.Name, vendors.Name("Zeta"))
		sameTime(t, "stored created_at", stored.CreatedAt, in[0].CreatedAt)
	}},
	{"Ensure keeps the id of an existing entry, matching names case-insensitively", func(t *testing.T, f *fixture) {
		acme := f.vendors("Acme")[0]
		got := f.ensure(f.newVendor("Zeta", ""), f.newVendor("ACME", ""))
		equal(t, "existing id", got[1].ID, acme.ID)
		equal(t, "existing name", got[1].Name, vendors.Name("Acme"))
		all := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Vendor, error) { return tx.Vendors().List(ctx) })
		equal(t, "directory size", len(all), 2)
	}},
	{"Ensure fills the website only when the entry has none", func(t *testing.T, f *fixture) {
		bare := f.vendors("Acme")[0]
		withSite := f.ensure(f.newVendor("Beta", "https://beta.example"))[0]
		got := f.ensure(f.newVendor("acme", "https://acme.example"), f.newVendor("beta", "https://other.example"))
		equal(t, "filled website", got[0].WebsiteURL, "https://acme.example")
		equal(t, "filled domain", got[0].Domain, "acme.example")
		equal(t, "kept website", got[1].WebsiteURL, "https://beta.example")
		equal(t, "stored filled website", getVendor(f, bare.ID).WebsiteURL, "https://acme.example")
		equal(t, "stored kept website", getVendor(f, withSite.ID).WebsiteURL, "https://beta.example")
		got = f.ensure(f.newVendor("Acme", ""))
		equal(t, "website not cleared", got[0].WebsiteURL, "https://acme.example")
	}},
	{"HasProfile is computed from the profiles", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta")
		f.profile(vs[0].ID)
		equal(t, "Get with profile", getVendor(f, vs[0].ID).HasProfile, true)
		equal(t, "Get without profile", getVendor(f, vs[1].ID).HasProfile, false)
		got := f.ensure(f.newVendor("Acme", ""))
		equal(t, "Ensure of an existing vendor with profile", got[0].HasProfile, true)
		claims := f.newVendor("Cobalt", "")
		claims.HasProfile = true
		got = f.ensure(claims)
		equal(t, "input HasProfile is ignored", got[0].HasProfile, false)
		byName := load(f, func(ctx context.Context, tx stores.Tx) (vendors.Vendor, error) {
			return tx.Vendors().GetByName(ctx, "Acme")
		})
		equal(t, "GetByName with profile", byName.HasProfile, true)
		all := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Vendor, error) { return tx.Vendors().List(ctx) })
		equal(t, "List with profile", all[0].HasProfile, true)
		equal(t, "List without profile", all[1].HasProfile, false)
		byIDs := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Vendor, error) {
			return tx.Vendors().ListByIDs(ctx, []uuid.UUID{vs[0].ID})
		})
		equal(t, "ListByIDs with profile", byIDs[0].HasProfile, true)
	}},
	{"Get and GetByName find entries; absent ones are not found", func(t *testing.T, f *fixture) {
		acme := f.vendors("Acme Cloud")[0]
		for _, c := range []struct {
			name string
			get  func(ctx context.Context, r vendors.VendorRepo) (vendors.Vendor, error)
			want error
		}{
			{"Get", func(ctx context.Context, r vendors.VendorRepo) (vendors.Vendor, error) { return r.Get(ctx, acme.ID) }, nil},
			{"GetByName", func(ctx context.Context, r vendors.VendorRepo) (vendors.Vendor, error) {
				return r.GetByName(ctx, "Acme Cloud")
			}, nil},
			{"GetByName other case", func(ctx context.Context, r vendors.VendorRepo) (vendors.Vendor, error) {
				return r.GetByName(ctx, "ACME cloud")
			}, nil},
			{"Get absent", func(ctx context.Context, r vendors.VendorRepo) (vendors.Vendor, error) { return r.Get(ctx, newID()) }, core.ErrNotFound},
			{"GetByName absent", func(ctx context.Context, r vendors.VendorRepo) (vendors.Vendor, error) {
				return r.GetByName(ctx, "Nobody")
			}, core.ErrNotFound},
		} {
			got, err := loadErr(f, func(ctx context.Context, tx stores.Tx) (vendors.Vendor, error) { return c.get(ctx, tx.Vendors()) })
			if c.want != nil {
				wantErr(t, c.name, err, c.want)
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			equal(t, c.name, got.ID, acme.ID)
		}
	}},
	{"ListByIDs returns the entries that exist", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta", "Cobalt")
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Vendor, error) {
			return tx.Vendors().ListByIDs(ctx, []uuid.UUID{vs[2].ID, newID(), vs[0].ID})
		})
		sameIDSet(t, "vendors", vendorIDs(got), []uuid.UUID{vs[2].ID, vs[0].ID})
	}},
	{"List returns every entry by name", func(t *testing.T, f *fixture) {
		vs := f.vendors("Mu", "Acme", "Zeta", "Beta")
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Vendor, error) { return tx.Vendors().List(ctx) })
		sameIDs(t, "vendors", vendorIDs(got), []uuid.UUID{vs[1].ID, vs[3].ID, vs[0].ID, vs[2].ID})
	}},
	{"Update stores website, domain and aliases", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		v.WebsiteURL, v.Domain, v.Aliases = "https://acme.example", "acme.example", []string{"Acme Corp", "ACME"}
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Vendors().Update(ctx, v) })
		got := getVendor(f, v.ID)
		equal(t, "website", got.WebsiteURL, v.WebsiteURL)
		equal(t, "domain", got.Domain, v.Domain)
		sameStrings(t, "aliases", got.Aliases, v.Aliases)
		equal(t, "name", got.Name, vendors.Name("Acme"))
	}},
}

func getProfile(f *fixture, vendorID uuid.UUID) (vendors.Profile, error) {
	return loadErr(f, func(ctx context.Context, tx stores.Tx) (vendors.Profile, error) {
		return tx.Profiles().Get(ctx, vendorID)
	})
}

func instanceCodes(is []vendors.SecurityInstance) []string {
	out := make([]string, len(is))
	for i, in := range is {
		out[i] = in.Code
	}
	return out
}

func (f *fixture) instance(vendorID uuid.UUID, code, severity string) vendors.SecurityInstance {
	return vendors.SecurityInstance{ID: newID(), VendorID: vendorID, Kind: "finding", Category: "email_security",
		Code: code, Title: code, Severity: severity, Evidence: "seen", Source: "dns", ObservedAt: f.tick()}
}

func replaceInstances(f *fixture, vendorID uuid.UUID, is ...vendors.SecurityInstance) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx stores.Tx) error {
		return tx.Profiles().ReplaceInstances(ctx, vendorID, is)
	})
}

func loadInstances(f *fixture, vendorID uuid.UUID) []vendors.SecurityInstance {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.SecurityInstance, error) {
		return tx.Profiles().Instances(ctx, vendorID)
	})
}

// grcAssessment is an assessment with one domain, one citation and the
// score as its only distinguishing mark.
func (f *fixture) grcAssessment(score int, at time.Time) vendors.GRCAssessment {
	return vendors.GRCAssessment{AggregateScore: score, Grade: vendors.Grade(score), Recommendation: vendors.Recommend(score, "", 1),
		DomainScores:      []vendors.DomainScore{{Domain: "email_security", Score: score, Weight: 1, Findings: []string{"spf_missing"}}},
		EvidenceSummaries: []string{"No SPF record (medium): acme.test has no v=spf1 TXT record"},
		Citations:         []vendors.Citation{{URL: "dns:acme.test?type=TXT", Title: "SPF record (RFC 7208)", RetrievedAt: at}},
		AssessedAt:        at}
}

func addGRC(f *fixture, vendorID uuid.UUID, as ...vendors.GRCAssessment) {
	f.t.Helper()
	f.write(func(ctx context.Context, tx stores.Tx) error {
		for _, a := range as {
			if err := tx.Profiles().AddGRCAssessment(ctx, vendorID, a); err != nil {
				return err
			}
		}
		return nil
	})
}

func grcHistory(f *fixture, vendorID uuid.UUID) []vendors.GRCAssessment {
	f.t.Helper()
	return load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.GRCAssessment, error) {
		return tx.Profiles().GRCAssessments(ctx, vendorID)
	})
}

// grcScores lists the aggregate scores of a history, as text.
func grcScores(as []vendors.GRCAssessment) string {
	var b strings.Builder
	for _, a := range as {
		fmt.Fprintf(&b, "%d ", a.AggregateScore)
	}
	return strings.TrimSpace(b.String())
}

var profileCases = []testCase{
	{"ListByVendors returns the profiles of the vendors that have one", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta", "Custom")
		pa, pb := f.profile(vs[0].ID), f.profile(vs[1].ID)
		got := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Profile, error) {
			return tx.Profiles().ListByVendors(ctx, []uuid.UUID{vs[0].ID, vs[1].ID, vs[2].ID, newID(), vs[0].ID})
		})
		sameIDSet(t, "profiles", idsOf(got, func(p vendors.Profile) uuid.UUID { return p.ID }), []uuid.UUID{pa.ID, pb.ID})
		for _, p := range got {
			equal(t, "description", p.Company.CompanyDescription, "Makes things")
		}
		none := load(f, func(ctx context.Context, tx stores.Tx) ([]vendors.Profile, error) {
			return tx.Profiles().ListByVendors(ctx, nil)
		})
		equal(t, "no vendors", len(none), 0)
	}},
	{"GRC history: newest first, later added first among equal times, per vendor", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta")
		f.profile(vs[0].ID)
		equal(t, "empty history", len(grcHistory(f, vs[0].ID)), 0)
		t1, t2 := f.tick(), f.tick()
		addGRC(f, vs[0].ID, f.grcAssessment(70, t1), f.grcAssessment(90, t2))
		addGRC(f, vs[0].ID, f.grcAssessment(80, t1))
		addGRC(f, vs[1].ID, f.grcAssessment(10, t2))
		got := grcHistory(f, vs[0].ID)
		equal(t, "scores", grcScores(got), "90 80 70")
		a := got[0]
		sameTime(t, "assessed_at", a.AssessedAt, t2)
		equal(t, "grade", a.Grade, "A")
		equal(t, "recommendation", a.Recommendation, "approve")
		if len(a.DomainScores) != 1 || a.DomainScores[0].Domain != "email_security" || a.DomainScores[0].Weight != 1 {
			t.Fatalf("domain scores: got %+v", a.DomainScores)
		}
		sameStrings(t, "findings", a.DomainScores[0].Findings, []string{"spf_missing"})
		sameStrings(t, "summaries", a.EvidenceSummaries, []string{"No SPF record (medium): acme.test has no v=spf1 TXT record"})
		if len(a.Citations) != 1 || a.Citations[0].URL != "dns:acme.test?type=TXT" || !a.Citations[0].RetrievedAt.Equal(t2) {
			t.Fatalf("citations: got %+v", a.Citations)
		}
		equal(t, "other vendor's history", grcScores(grcHistory(f, vs[1].ID)), "10")
	}},
	{"GRC history: a unit of work that fails leaves none; an unknown vendor is not found", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		err := f.try(func(ctx context.Context, tx stores.Tx) error {
			if err := tx.Profiles().AddGRCAssessment(ctx, v.ID, f.grcAssessment(50, f.tick())); err != nil {
				return err
			}
			return errBoom
		})
		wantErr(t, "failed unit", err, errBoom)
		equal(t, "history after rollback", len(grcHistory(f, v.ID)), 0)
		err = f.try(func(ctx context.Context, tx stores.Tx) error {
			return tx.Profiles().AddGRCAssessment(ctx, newID(), f.grcAssessment(50, f.tick()))
		})
		wantErr(t, "unknown vendor", err, core.ErrNotFound)
	}},
	{"GRC history: Delete removes it with the profile", func(t *testing.T, f *fixture) {
		vs := f.vendors("Acme", "Beta")
		f.profile(vs[0].ID)
		addGRC(f, vs[0].ID, f.grcAssessment(70, f.tick()))
		addGRC(f, vs[1].ID, f.grcAssessment(60, f.tick()))
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Delete(ctx, vs[0].ID) })
		equal(t, "history after Delete", len(grcHistory(f, vs[0].ID)), 0)
		equal(t, "other vendor's history", len(grcHistory(f, vs[1].ID)), 1)
	}},
	{"Save then Get and GetByID; absent is not found", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		p := f.profile(v.ID)
		for name, get := range map[string]func(ctx context.Context, r vendors.ProfileRepo) (vendors.Profile, error){
			"Get": func(ctx context.Context, r vendors.ProfileRepo) (vendors.Profile, error) { return r.Get(ctx, v.ID) },
			"GetByID": func(ctx context.Context, r vendors.ProfileRepo) (vendors.Profile, error) {
				return r.GetByID(ctx, p.ID)
			},
		} {
			got := load(f, func(ctx context.Context, tx stores.Tx) (vendors.Profile, error) { return get(ctx, tx.Profiles()) })
			equal(t, name+" id", got.ID, p.ID)
			equal(t, name+" vendor", got.VendorID, v.ID)
			equal(t, name+" description", got.Company.CompanyDescription, "Makes things")
			sameStrings(t, name+" alias", got.Company.Alias, []string{"alias-one"})
			if got.Scores.SecurityRating == nil || *got.Scores.SecurityRating != 87 {
				t.Fatalf("%s security rating: got %v, want 87", name, got.Scores.SecurityRating)
			}
			equal(t, name+" basic enrichment", got.Enrichment[vendors.SectionBasic].Status, "done")
			if got.LatestGRC == nil || got.LatestGRC.Grade != "B" || len(got.LatestGRC.DomainScores) != 1 {
				t.Fatalf("%s latest GRC: got %+v", name, got.LatestGRC)
			}
			sameTime(t, name+" updated_at", got.UpdatedAt, p.UpdatedAt)
		}
		_, err := getProfile(f, f.vendors("Beta")[0].ID)
		wantErr(t, "Get of a vendor without profile", err, core.ErrNotFound)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (vendors.Profile, error) {
			return tx.Profiles().GetByID(ctx, newID())
		})
		wantErr(t, "GetByID absent", err, core.ErrNotFound)
	}},
	{"Save updates the vendor's profile", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		p := f.profile(v.ID)
		p.Company.CompanyDescription, p.UpdatedAt = "Makes other things", f.tick()
		p.LatestGRC = nil
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Save(ctx, p) })
		got, err := getProfile(f, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		equal(t, "description", got.Company.CompanyDescription, "Makes other things")
		equal(t, "latest GRC cleared", got.LatestGRC == nil, true)
		sameTime(t, "updated_at", got.UpdatedAt, p.UpdatedAt)
	}},
	{"Delete removes profile and instances but keeps entry and list entries", func(t *testing.T, f *fixture) {
		a := f.org("Acme Org")
		l := f.list(a.ID, lists.MasterList)
		v := f.vendors("Acme")[0]
		p := f.profile(v.ID)
		f.onList(l.ID, v)
		replaceInstances(f, v.ID, f.instance(v.ID, "spf_record_missing", "high"))
		f.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Delete(ctx, v.ID) })
		_, err := getProfile(f, v.ID)
		wantErr(t, "Get after Delete", err, core.ErrNotFound)
		_, err = loadErr(f, func(ctx context.Context, tx stores.Tx) (vendors.Profile, error) {
			return tx.Profiles().GetByID(ctx, p.ID)
		})
		wantErr(t, "GetByID after Delete", err, core.ErrNotFound)
		equal(t, "instances after Delete", len(loadInstances(f, v.ID)), 0)
		got := getVendor(f, v.ID)
		equal(t, "entry stays without profile", got.HasProfile, false)
		es := load(f, func(ctx context.Context, tx stores.Tx) ([]lists.Entry, error) {
			return tx.Lists().Entries(ctx, l.ID)
		})
		if len(es) != 1 || es[0].VendorID != v.ID || !es[0].IsCustom {
			t.Fatalf("list entries after Delete: got %+v, want the vendor, custom", es)
		}
		err = f.try(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().Delete(ctx, v.ID) })
		wantErr(t, "Delete again", err, core.ErrNotFound)
	}},
	{"Instances are most severe first and ReplaceInstances replaces them all", func(t *testing.T, f *fixture) {
		v := f.vendors("Acme")[0]
		f.profile(v.ID)
		replaceInstances(f, v.ID,
			f.instance(v.ID, "dmarc_present", "positive"),
			f.instance(v.ID, "tls_cert_expired", "critical"),
			f.instance(v.ID, "hsts_missing", "medium"),
			f.instance(v.ID, "spf_record_missing", "high"))
		sameStrings(t, "codes", instanceCodes(loadInstances(f, v.ID)),
			[]string{"tls_cert_expired", "spf_record_missing", "hsts_missing", "dmarc_present"})
		replaceInstances(f, v.ID, f.instance(v.ID, "caa_missing", "low"))
		got := loadInstances(f, v.ID)
		sameStrings(t, "codes after replace", instanceCodes(got), []string{"caa_missing"})
		equal(t, "vendor id", got[0].VendorID, v.ID)
		equal(t, "severity", got[0].Severity, "low")
		replaceInstances(f, v.ID)
		equal(t, "after replacing with none", len(loadInstances(f, v.ID)), 0)
	}},
}
