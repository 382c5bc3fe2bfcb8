package sqlstore_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vetted-dev/vetted/adapters/sqlstore"
	"github.com/vetted-dev/vetted/adapters/sqlstore/pgtest"
	"github.com/vetted-dev/vetted/core/lists"
	"github.com/vetted-dev/vetted/core/platform/mailonce"
	"github.com/vetted-dev/vetted/core/vendors"
	"github.com/vetted-dev/vetted/ports/stores"
)

// TestMigrateTwiceConcurrently runs the migrations from several stores at
// once on an empty database, then again: all succeed, and the schema works.
func TestMigrateTwiceConcurrently(t *testing.T) {
	t.Parallel()
	dbURL := pgtest.NewDatabase(t)
	ctx := context.Background()
	const n = 4
	stores := make([]*sqlstore.Store, n)
	for i := range stores {
		s, err := sqlstore.OpenPostgres(ctx, dbURL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		stores[i] = s
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, s := range stores {
		wg.Go(func() { errs[i] = s.Migrate(ctx) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("migrator %d: %v", i, err)
		}
	}
	if err := stores[0].Migrate(ctx); err != nil {
		t.Errorf("second migrate: %v", err)
	}
	if err := stores[0].Ping(ctx); err != nil {
		t.Errorf("ping: %v", err)
	}
}

// TestScannerMigrationReplacesOldCodes stores instances with the codes of
// the first enricher, then runs the scanner migration again: codes with an
// equivalent take the catalog's code, kind, category, severity and title,
// the others are gone, and the latest GRC assessment starts the history
// exactly once.
func TestScannerMigrationReplacesOldCodes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	v := e.ensure(e.newVendor("Acme", "https://acme.example"))[0]
	old := func(code, kind, category, severity string) vendors.SecurityInstance {
		return vendors.SecurityInstance{ID: newID(), VendorID: v.ID, Kind: kind, Category: category, Code: code, Title: "old " + code,
			Severity: severity, Evidence: "seen " + code, Source: "https://acme.example/", ObservedAt: e.tick()}
	}
	olds := []vendors.SecurityInstance{
		old("spf_record_missing", "finding", "email_security", "medium"),
		old("dmarc_record_missing", "finding", "email_security", "medium"),
		old("dmarc_policy_none", "finding", "email_security", "low"),
		old("mta_sts_missing", "finding", "email_security", "low"),
		old("caa_record_missing", "finding", "dns_health", "low"),
		old("caa_record_present", "signal", "dns_health", "positive"),
		old("hsts_missing", "finding", "application_security", "medium"),
		old("security_txt_missing", "finding", "application_security", "info"),
		old("tls_cert_expired", "finding", "network_security", "critical"),
		old("tls_cert_expiring", "finding", "network_security", "medium"),
	}
	for _, c := range []string{"tls_valid", "tls_missing", "hsts_enabled", "security_headers_present", "security_headers_missing",
		"spf_record_present", "dmarc_record_present", "mta_sts_present", "dnssec_enabled", "dnssec_missing", "security_txt_present"} {
		olds = append(olds, old(c, "finding", "application_security", "low"))
	}
	p := vendors.NewProfile(newID(), v.ID, e.tick())
	p.LatestGRC = &vendors.GRCAssessment{AggregateScore: 64, Grade: "D", AssessedAt: e.tick()}
	e.write(func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Profiles().Save(ctx, p); err != nil {
			return err
		}
		return tx.Profiles().ReplaceInstances(ctx, v.ID, olds)
	})
	for range 2 {
		if err := sqlstore.RerunMigration(e.ctx, e.s, "20261124000000_scanner.tx.up.sql"); err != nil {
			t.Fatal(err)
		}
	}
	got := mustView(e, func(ctx context.Context, tx stores.Tx) ([]vendors.SecurityInstance, error) {
		return tx.Profiles().Instances(ctx, v.ID)
	})
	want := []string{"tls_cert_expired", "hsts_missing", "dmarc_missing", "spf_missing", "tls_cert_expiring_soon",
		"caa_missing", "dmarc_policy_none", "mta_sts_missing", "security_txt_missing", "caa_present"}
	var codes []string
	for _, in := range got {
		codes = append(codes, in.Code)
		info, ok := vendors.LookupCode(in.Code)
		if !ok || in.Kind != info.Kind || in.Category != info.Category || in.Severity != info.Severity || in.Title != info.Title {
			t.Errorf("%s = %s/%s/%s %q, catalog %+v", in.Code, in.Kind, in.Category, in.Severity, in.Title, info)
		}
		if !strings.HasPrefix(in.Evidence, "seen ") {
			t.Errorf("%s lost its evidence: %q", in.Code, in.Evidence)
		}
	}
	if strings.Join(codes, " ") != strings.Join(want, " ") {
		t.Fatalf("codes after migration =\n%v\nwant\n%v", codes, want)
	}
	hist := mustView(e, func(ctx context.Context, tx stores.Tx) ([]vendors.GRCAssessment, error) {
		return tx.Profiles().GRCAssessments(ctx, v.ID)
	})
	if len(hist) != 1 || hist[0].AggregateScore != 64 || !hist[0].AssessedAt.Equal(p.LatestGRC.AssessedAt) {
		t.Fatalf("history = %+v", hist)
	}
}

// TestDeliveryLeaseMigrationPostgres puts the deliveries table back as version 2
// had it, with a key claimed then, and runs the lease migration twice: the
// old key counts as sent (its job finished long ago), and keys claimed
// afterwards start unsent, so they are busy within the lease, not sent.
func TestDeliveryLeaseMigrationPostgres(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	db := e.s.SQLDB()
	for _, q := range []string{
		"ALTER TABLE deliveries DROP COLUMN sent_at",
		"INSERT INTO deliveries (key, claimed_at) VALUES ('member:old', '2026-01-01T00:00:00Z')",
	} {
		if _, err := db.ExecContext(e.ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for range 2 {
		if err := sqlstore.RerunMigration(e.ctx, e.s, "20261201000000_delivery_lease.tx.up.sql"); err != nil {
			t.Fatal(err)
		}
	}
	claim := func(key string, at time.Time) (d mailonce.Delivery) {
		e.write(func(ctx context.Context, tx stores.Tx) (err error) {
			d, err = tx.Deliveries().Claim(ctx, key, at, time.Minute)
			return err
		})
		return d
	}
	if got := claim("member:old", e.tick()); got.State != mailonce.DeliverySent {
		t.Fatalf("a key claimed before the migration is %v, want sent", got.State)
	}
	claim("member:new", e.tick())
	if got := claim("member:new", e.tick()); got.State != mailonce.DeliveryBusy {
		t.Fatalf("a key claimed after the migration is %v a second later, want busy", got.State)
	}
}

// TestProfileListColumnsMigrationPostgres: a profile saved before the list columns
// were kept (they read as their defaults here) reads on its list with its
// section state and rating once the migration has run, twice over.
func TestProfileListColumnsMigrationPostgres(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.org("Acme")
	l := e.list(a.ID, lists.MasterList)
	v := e.ensure(e.newVendor("Slack", "https://slack.com"))[0]
	p := vendors.NewProfile(newID(), v.ID, e.tick())
	clear(p.Enrichment)
	p.Enrichment[vendors.SectionBasic] = vendors.SectionStatus{Status: "done", UpdatedAt: e.now}
	p.Enrichment[vendors.SectionSecurity] = vendors.SectionStatus{Status: "running", UpdatedAt: e.now}
	p.Scores.SecurityRating = new(64)
	e.write(func(ctx context.Context, tx stores.Tx) error {
		if err := tx.Profiles().Save(ctx, p); err != nil {
			return err
		}
		return tx.Lists().AddEntries(ctx, l.ID, []uuid.UUID{v.ID}, e.tick())
	})
	if _, err := e.s.SQLDB().ExecContext(e.ctx, "UPDATE profiles SET section_statuses = '[]', security_rating = NULL"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := sqlstore.RerunMigration(e.ctx, e.s, "20261212100000_profile_list_columns.tx.up.sql"); err != nil {
			t.Fatal(err)
		}
	}
	var es []lists.Entry
	e.write(func(ctx context.Context, tx stores.Tx) (err error) {
		es, err = tx.Lists().Entries(ctx, l.ID)
		return err
	})
	if len(es) != 1 || es[0].EnrichmentStatus != "running" || es[0].Rating == nil || *es[0].Rating != 64 {
		t.Fatalf("entry after the migration: %+v", es)
	}
}

// TestRatingCoverageMigrationPostgres: a scan recorded before the coverage was kept
// (the columns are taken away here) reads with its coverage unknown (nil),
// not as 0 checks, once the migration has run, twice over; a scan recorded
// afterwards keeps its coverage.
func TestRatingCoverageMigrationPostgres(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	v := e.ensure(e.newVendor("Slack", "https://slack.com"))[0]
	rating, run, total := 85, 20, 26
	rec := func() vendors.RatingRecord {
		return vendors.RatingRecord{ID: newID(), VendorID: v.ID, ScannedAt: e.tick(), Rating: &rating, Grade: "B",
			ChecksRun: &run, ChecksTotal: &total, Findings: []vendors.RatingFinding{}}
	}
	add := func(r vendors.RatingRecord) {
		e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Profiles().AddRating(ctx, r) })
	}
	before := rec()
	add(before)
	if _, err := e.s.SQLDB().ExecContext(e.ctx, "ALTER TABLE rating_history DROP COLUMN checks_run, DROP COLUMN checks_total"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := sqlstore.RerunMigration(e.ctx, e.s, "20261217000000_rating_coverage.tx.up.sql"); err != nil {
			t.Fatal(err)
		}
	}
	after := rec()
	add(after)
	got, err := view(e, func(ctx context.Context, tx stores.Tx) (vendors.RatingRecord, error) {
		return tx.Profiles().GetRating(ctx, before.ID)
	})
	if err != nil || got.ChecksRun != nil || got.ChecksTotal != nil || got.Grade != "B" {
		t.Fatalf("a scan from before: coverage %v of %v, grade %q (%v), want unknown", got.ChecksRun, got.ChecksTotal, got.Grade, err)
	}
	got, err = view(e, func(ctx context.Context, tx stores.Tx) (vendors.RatingRecord, error) {
		return tx.Profiles().GetRating(ctx, after.ID)
	})
	if err != nil || got.ChecksRun == nil || got.ChecksTotal == nil || *got.ChecksRun != run || *got.ChecksTotal != total {
		t.Fatalf("a scan from after: coverage %v of %v (%v), want %d of %d", got.ChecksRun, got.ChecksTotal, err, run, total)
	}
}

// TestIncidentMergeMigrationPostgres: see checkIncidentBefore.
func TestIncidentMergeMigrationPostgres(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	v := e.ensure(e.newVendor("Slack", "https://slack.com"))[0]
	before := incidentBefore(v.ID, e.tick())
	e.write(func(ctx context.Context, tx stores.Tx) error { return tx.Incidents().Create(ctx, before) })
	if _, err := e.s.SQLDB().ExecContext(e.ctx, "ALTER TABLE incidents DROP COLUMN match, DROP COLUMN sources"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		for _, name := range []string{"20261218000000_incident_merge.tx.up.sql", "20261218000100_incident_store.tx.up.sql"} {
			if err := sqlstore.RerunMigration(e.ctx, e.s, name); err != nil {
				t.Fatal(err)
			}
		}
	}
	checkIncidentBefore(t, e.s, before)
}
