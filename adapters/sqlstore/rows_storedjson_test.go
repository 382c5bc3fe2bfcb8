package sqlstore

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
)

// documentRepo as the code before the stored shapes moved here wrote them (the
// core's types with their json tags, marshalled by encoding/json): every
// key a database may already hold. Each must read into the core and be
// written back byte for byte.
var (
	storedCompany    = `{"company_description":"Chat for teams","business_type":"B2B","founded_year":2009,"employee_count":2500,"industry":"Software","primary_product":"Slack","headquarters_location":"SF \u003c\u0026\u003e","website_url":"https://slack.com","alias":["Slack","Slack HQ"],"contact_email":"a@b.c","tos_url":"https://t","logo":"https://l"}`
	storedSecurity   = `{"compliance_certifications":["SOC 2","ISO 27001"],"published_subprocessors":["AWS"],"security_page_url":"https://s","trust_center_url":"https://slack.com/trust","status_page_url":"https://st","external_signals":{"tls":true,"tls_expires_at":"2027-01-01","hsts":true,"security_headers":false,"spf":false,"dmarc":true,"dnssec":true,"caa":false,"mta_sts":true,"security_txt":true}}`
	storedPrivacy    = `{"privacy_policy_url":"https://p","data_collected":["email"],"shared_data_description":"shared","ml_training_data_description":"ml","supports_data_subject_requests":true,"gdpr_compliant":true,"data_returned_after_termination":false,"data_physical_location":"EU"}`
	storedMaturity   = `{"company_type":"public","total_funding":"$1B","funding_round":"IPO","has_enterprise_customers":true,"popularity_index":90,"revenue_estimate":"1B","customer_count_estimate":"10k"}`
	storedScores     = `{"security_rating":85,"risk_score":20,"grade":"B","risk_categories":["email"],"breach_history":[{"date":"2020-01-01","description":"leak","source":"hibp"}]}`
	storedEnrichment = `{"basic":{"status":"done","updated_at":"2026-03-04T05:06:07.891Z","source":"web"},"logo":{"status":"failed","updated_at":"2026-03-04T05:06:07.891Z","source":"web","error":"no logo"}}`
	storedGRC        = `{"aggregate_score":81,"grade":"B","domain_scores":[{"domain":"dns_health","score":70,"weight":0.25,"findings":["no dnssec"]}],"integration_depth":"deep","recommendation":"approve","evidence_summaries":["ev"],"citations":[{"url":"dns:x","title":"t","retrieved_at":"2026-03-04T05:06:07.891Z"}],"assessed_at":"2026-03-04T05:06:07.891Z"}`
	// A profile created empty: every list null, every group present.
	// A company with a legal name (written since profiles have one).
	storedLegalCompany  = `{"company_description":"","business_type":"","founded_year":null,"employee_count":null,"industry":"","primary_product":"Okta Workforce Identity","headquarters_location":"","website_url":"","alias":["Okta"],"legal_name":"Okta, Inc.","contact_email":"","tos_url":"","logo":""}`
	storedEmptyCompany  = `{"company_description":"","business_type":"","founded_year":null,"employee_count":null,"industry":"","primary_product":"","headquarters_location":"","website_url":"","alias":null,"contact_email":"","tos_url":"","logo":""}`
	storedEmptySecurity = `{"compliance_certifications":null,"published_subprocessors":null,"security_page_url":"","trust_center_url":"","status_page_url":"","external_signals":{"tls":null,"tls_expires_at":"","hsts":null,"security_headers":null,"spf":null,"dmarc":null,"dnssec":null,"caa":null,"mta_sts":null,"security_txt":null}}`
	storedEmptyPrivacy  = `{"privacy_policy_url":"","data_collected":null,"shared_data_description":"","ml_training_data_description":"","supports_data_subject_requests":null,"gdpr_compliant":null,"data_returned_after_termination":null,"data_physical_location":""}`
	storedEmptyMaturity = `{"company_type":"","total_funding":"","funding_round":"","has_enterprise_customers":null,"popularity_index":null,"revenue_estimate":"","customer_count_estimate":""}`
	storedEmptyScores   = `{"security_rating":null,"risk_score":null,"grade":"","risk_categories":null,"breach_history":null}`
	storedJobs          = `[{"job_id":"0190a000-0000-7000-8000-000000000001","vendor_id":"0190a000-0000-7000-8000-000000000002","vendor_name":"Slack","status":"done","created":3},{"job_id":"0190a000-0000-7000-8000-000000000003","vendor_id":"0190a000-0000-7000-8000-000000000004","vendor_name":"Zoom","status":"failed","error":"boom"}]`
)

// roundTrip decodes doc into the stored shape T, passes it through the
// core with fromCore(toCore(...)), and checks it encodes to doc again.
func roundTrip[T, C any](t *testing.T, name, doc string, toCore func(T) C, fromCore func(C) T) {
	t.Helper()
	var stored T
	if err := json.Unmarshal([]byte(doc), &stored); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got, err := json.Marshal(fromCore(toCore(stored)))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if string(got) != doc {
		t.Fatalf("%s written back differently:\n got %s\nwant %s", name, got, doc)
	}
}

func TestStoredProfileJSON(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{storedCompany, storedEmptyCompany, storedLegalCompany} {
		roundTrip(t, "company", doc, companyJSON.core, fromCompany)
	}
	for _, doc := range []string{storedSecurity, storedEmptySecurity} {
		roundTrip(t, "security", doc, securityJSON.core, fromSecurity)
	}
	for _, doc := range []string{storedScores, storedEmptyScores} {
		roundTrip(t, "scores", doc, scoresJSON.core, fromScores)
	}
	roundTrip(t, "enrichment", storedEnrichment, enrichmentCore, fromEnrichment)
	roundTrip(t, "latest_grc", storedGRC, (*grcJSON).corePtr, fromGRCPtr)
	roundTrip(t, "latest_grc null", "null", (*grcJSON).corePtr, fromGRCPtr)
	roundTrip(t, "grc_assessments.assessment", storedGRC, grcJSON.core, fromGRC)

	// The whole row, as the stores read and write it.
	var row profileRow
	cols := []struct {
		doc string
		v   any
	}{{storedCompany, &row.Company}, {storedSecurity, &row.Security}, {storedEmptyPrivacy, &row.Privacy},
		{storedMaturity, &row.Maturity}, {storedScores, &row.Scores}, {storedEnrichment, &row.Enrichment}, {storedGRC, &row.LatestGRC}}
	for _, c := range cols {
		if err := json.Unmarshal([]byte(c.doc), c.v); err != nil {
			t.Fatal(err)
		}
	}
	again := fromProfile(row.Core())
	for i, v := range []any{again.Company, again.Security, again.Privacy, again.Maturity, again.Scores, again.Enrichment, again.LatestGRC} {
		if got, _ := json.Marshal(v); string(got) != cols[i].doc {
			t.Fatalf("profile column %d written back differently:\n got %s\nwant %s", i, got, cols[i].doc)
		}
	}
	row.Privacy, row.Maturity = privacyJSON{}, maturityJSON{}
	if err := json.Unmarshal([]byte(storedPrivacy), &row.Privacy); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(storedEmptyMaturity), &row.Maturity); err != nil {
		t.Fatal(err)
	}
	again = fromProfile(row.Core())
	if got, _ := json.Marshal(again.Privacy); string(got) != storedPrivacy {
		t.Fatalf("privacy written back as %s", got)
	}
	if got, _ := json.Marshal(again.Maturity); string(got) != storedEmptyMaturity {
		t.Fatalf("maturity written back as %s", got)
	}
	// A profile without enrichment is stored with {}, never null.
	if got, _ := json.Marshal(fromProfile(profileRow{}.Core()).Enrichment); string(got) != "{}" {
		t.Fatalf("empty enrichment stored as %s", got)
	}
}

func TestStoredRunJSON(t *testing.T) {
	t.Parallel()
	var row runRow
	if err := json.Unmarshal([]byte(storedJobs), &row.Jobs); err != nil {
		t.Fatal(err)
	}
	row.ID = uuid.New()
	if got, _ := json.Marshal(fromRun(row.Core()).Jobs); string(got) != storedJobs {
		t.Fatalf("jobs written back differently:\n got %s\nwant %s", got, storedJobs)
	}
	if jobs := (runRow{}).Core().Jobs; jobs == nil || len(jobs) != 0 {
		t.Fatalf("a run without jobs reads as %#v, want an empty list", jobs)
	}
}
