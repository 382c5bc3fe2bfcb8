package api_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// attestationTicket is the answer of create-attestation.
type attestationTicket struct {
	uploadTicket
	ID   string `json:"id"`
	Kind string `json:"kind"`
}

func attestationsURL(o *org, vendor string) string {
	return q("/attestations", "account-id", o.acct, "vendor-id", vendor)
}

func listAttestations(t *testing.T, o *org, token, vendor string) []map[string]any {
	t.Helper()
	var out struct {
		Attestations []map[string]any `json:"attestations"`
	}
	apitest.Must(t, o.env.Do(t, "GET", attestationsURL(o, vendor), token, nil), 200).JSON(t, &out)
	return out.Attestations
}

func soc2Body() map[string]any {
	return map[string]any{"kind": "soc2", "report_type": 2, "period_start": "2025-03-01", "period_end": "2026-02-28",
		"auditor": "Audit & Co", "opinion": "qualified", "exceptions": "Two late access reviews",
		"subservice_organizations": []string{"AWS"}, "cuecs": []string{"Customers enforce MFA"}}
}

func TestAttestationsCreateReadUploadDelete(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env, slack := o.env, o.vendor["Slack"]
	var c attestationTicket
	res := apitest.Must(t, env.Do(t, "POST", attestationsURL(o, slack), o.owner, soc2Body()), 201)
	res.JSON(t, &c)
	got := res.Map(t)
	want := map[string]any{"vendor_id": slack, "kind": "soc2", "visibility": "account", "report_type": 2.0, "period_start": "2025-03-01",
		"period_end": "2026-02-28", "auditor": "Audit & Co", "opinion": "qualified", "exceptions": "Two late access reviews",
		"valid_until": "2027-02-28", "has_file": false, "content_type": "application/pdf", "created_by": "owner@acme.test", "method": "PUT"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	for _, k := range []string{"certificate_number", "scope", "firm", "performed_on", "open_high"} {
		if _, ok := got[k]; ok {
			t.Errorf("a soc2 answer carries %s: %v", k, got)
		}
	}
	if c.UploadURL == "" || c.Headers["Content-Type"] != "application/pdf" || c.ExpiresAt.Sub(env.Clock.Now()) > 16*time.Minute {
		t.Fatalf("upload = %+v", c.uploadTicket)
	}
	// The record exists before its file; no download yet.
	list := listAttestations(t, o, o.owner, slack)
	if len(list) != 1 || list[0]["id"] != c.ID || list[0]["has_file"] != false {
		t.Fatalf("before upload: %v", list)
	}
	dl := q("/attestations/download-url", "account-id", o.acct, "attestation-id", c.ID)
	mustProblem(t, env.Do(t, "GET", dl, o.owner, nil), 409)

	content := "%PDF-1.7 SOC 2 type 2"
	if r := put(t, c.uploadTicket, strings.NewReader(content), int64(len(content))); r.StatusCode/100 != 2 {
		t.Fatalf("upload: %d", r.StatusCode)
	}
	// Write-once: a second upload to the same URL is refused.
	if r := put(t, c.uploadTicket, strings.NewReader("other"), 5); r.StatusCode/100 == 2 {
		t.Fatalf("second upload accepted: %d", r.StatusCode)
	}
	list = listAttestations(t, o, o.owner, slack)
	if list[0]["has_file"] != true || list[0]["subservice_organizations"].([]any)[0] != "AWS" || list[0]["cuecs"].([]any)[0] != "Customers enforce MFA" {
		t.Fatalf("after upload: %v", list)
	}
	var d struct {
		DownloadURL string `json:"download_url"`
	}
	apitest.Must(t, env.Do(t, "GET", dl, o.owner, nil), 200).JSON(t, &d)
	if r := sendRaw(t, env, "GET", d.DownloadURL, nil, nil); r.Status != 200 || r.String() != content {
		t.Fatalf("download: %d %q", r.Status, r.String())
	}

	apitest.Must(t, env.Do(t, "DELETE", q("/attestations", "account-id", o.acct, "attestation-id", c.ID), o.owner, nil), 204)
	if r := sendRaw(t, env, "GET", d.DownloadURL, nil, nil); r.Status != 404 {
		t.Fatalf("file after delete: %d, want 404", r.Status)
	}
	if l := listAttestations(t, o, o.owner, slack); len(l) != 0 {
		t.Fatalf("after delete: %v", l)
	}
	mustProblem(t, env.Do(t, "DELETE", q("/attestations", "account-id", o.acct, "attestation-id", c.ID), o.owner, nil), 404)
	env.Drain(t) // the outbox's delete of a file already gone is no failure
}

func TestAttestationsEachKindAndDerivedState(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env, zoom := o.env, o.vendor["Zoom"]
	today := env.Clock.Now().UTC()
	day := func(d int) string { return today.AddDate(0, 0, d).Format(time.DateOnly) }
	cases := []struct {
		body  map[string]any
		until string
		state string
	}{
		{map[string]any{"kind": "iso27001", "certificate_number": "IS 555", "issuer": "BSI", "scope": "Hosting", "valid_until": day(61)}, day(61), "current"},
		{map[string]any{"kind": "insurance", "valid_until": day(60)}, day(60), "expiring"},
		{map[string]any{"kind": "other", "valid_until": day(0), "content_type": "image/png"}, day(0), "expiring"},
		{map[string]any{"kind": "other", "valid_until": day(-1)}, day(-1), "expired"},
		{map[string]any{"kind": "pentest", "performed_on": "2024-02-29", "firm": "Pen Ltd", "open_critical": 0, "open_high": 2}, "2025-02-28", ""},
	}
	for _, c := range cases {
		got := apitest.Must(t, env.Do(t, "POST", attestationsURL(o, zoom), o.owner, c.body), 201).Map(t)
		if got["valid_until"] != c.until || (c.state != "" && got["state"] != c.state) {
			t.Errorf("%v: valid_until %v state %v, want %s %s", c.body, got["valid_until"], got["state"], c.until, c.state)
		}
		for k, v := range c.body {
			if n, ok := v.(int); ok {
				v = float64(n)
			}
			if k != "valid_until" && got[k] != v {
				t.Errorf("%s: %s = %v, want %v", c.body["kind"], k, got[k], v)
			}
		}
		if _, ok := got["scope"]; ok != (c.body["kind"] == "iso27001") {
			t.Errorf("%s: scope present %v", c.body["kind"], ok)
		}
	}
	if l := listAttestations(t, o, o.owner, zoom); len(l) != len(cases) {
		t.Fatalf("list: %d, want %d", len(l), len(cases))
	}
}

func TestAttestationsRefuseNamingTheField(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	slack := o.vendor["Slack"]
	with := func(k string, v any) map[string]any {
		b := soc2Body()
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{with("kind", "gdpr"), "kind"},
		{with("report_type", 3), "report_type"},
		{with("period_end", nil), "period_end"},
		{with("period_start", "2025-02-30"), "period_start"},
		{with("opinion", "clean"), "opinion"},
		{with("valid_until", "2027-01-01"), "valid_until"},
		{with("firm", "Pen Ltd"), "firm"},
		{with("content_type", "text/html"), "content_type"},
		{map[string]any{"kind": "iso27001", "certificate_number": "1", "issuer": "BSI"}, "valid_until"},
		{map[string]any{"kind": "pentest", "performed_on": "2025-01-01", "firm": "x", "open_critical": -1}, "open_critical"},
		{map[string]any{"kind": "insurance", "valid_until": "2026-01-01", "opinion": "adverse"}, "opinion"},
	} {
		r := o.env.Do(t, "POST", attestationsURL(o, slack), o.owner, c.body)
		mustProblem(t, r, 422, c.field)
	}
	// A vendor on none of the account's lists.
	env := o.env
	owner2 := env.Token("owner@beta.test", apitest.Verified())
	beta := env.NewAccount(t, "Beta", "owner@beta.test")
	saved := env.SaveVendors(t, owner2, beta, "Notion")
	notion := saved["added"].([]any)[0].(map[string]any)["vendor_id"].(string)
	mustProblem(t, env.Do(t, "POST", attestationsURL(o, notion), o.owner, map[string]any{"kind": "other", "valid_until": "2027-01-01"}), 422, "vendor-id")
	mustProblem(t, env.Do(t, "POST", attestationsURL(o, "0190a8a0-0000-7000-8000-000000000000"), o.owner, map[string]any{"kind": "other", "valid_until": "2027-01-01"}), 404)
}

func TestAttestationsRolesAndIsolation(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env, slack := o.env, o.vendor["Slack"]
	env.AddMember(t, o.acct, o.owner, "viewer@acme.test", "viewer")
	env.AddMember(t, o.acct, o.owner, "member@acme.test", "member")
	viewer, member := env.Token("viewer@acme.test", apitest.Verified()), env.Token("member@acme.test", apitest.Verified())
	body := map[string]any{"kind": "insurance", "valid_until": "2027-06-30"}
	mustProblem(t, env.Do(t, "POST", attestationsURL(o, slack), viewer, body), 403)
	id := apitest.Must(t, env.Do(t, "POST", attestationsURL(o, slack), member, body), 201).Map(t)["id"].(string)
	if l := listAttestations(t, o, viewer, slack); len(l) != 1 || l[0]["id"] != id {
		t.Fatalf("viewer reads: %v", l)
	}
	mustProblem(t, env.Do(t, "DELETE", q("/attestations", "account-id", o.acct, "attestation-id", id), viewer, nil), 403)

	// Another account carrying the same vendor sees none of ours and
	// cannot reach it by id.
	beta := env.NewAccount(t, "Beta", "owner@beta.test")
	owner2 := env.Token("owner@beta.test", apitest.Verified())
	env.SaveVendors(t, owner2, beta, "Slack")
	var out struct {
		Attestations []map[string]any `json:"attestations"`
	}
	apitest.Must(t, env.Do(t, "GET", q("/attestations", "account-id", beta, "vendor-id", slack), owner2, nil), 200).JSON(t, &out)
	if len(out.Attestations) != 0 {
		t.Fatalf("another account sees: %v", out.Attestations)
	}
	mustProblem(t, env.Do(t, "DELETE", q("/attestations", "account-id", beta, "attestation-id", id), owner2, nil), 404)
	mustProblem(t, env.Do(t, "GET", q("/attestations/download-url", "account-id", beta, "attestation-id", id), owner2, nil), 404)
	// A stranger naming our account is refused.
	mustProblem(t, env.Do(t, "GET", attestationsURL(o, slack), owner2, nil), 403)
	apitest.Must(t, env.Do(t, "DELETE", q("/attestations", "account-id", o.acct, "attestation-id", id), member, nil), 204)
}

func TestDirectoryAttestationsAreSharedAndReadOnly(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env, slack := o.env, o.vendor["Slack"]
	beta := env.NewAccount(t, "Beta", "owner@beta.test")
	owner2 := env.Token("owner@beta.test", apitest.Verified())
	env.SaveVendors(t, owner2, beta, "Slack")
	iso := map[string]any{"kind": "iso27001", "certificate_number": "IS 1", "issuer": "BSI", "scope": "Everything", "valid_until": "2028-01-31"}
	dir := q("/directory/attestations", "vendor-id", slack)
	mustProblem(t, env.Do(t, "POST", dir, o.owner, iso), 403)
	var c attestationTicket
	res := apitest.Must(t, env.Do(t, "POST", dir, o.admin, iso), 201)
	res.JSON(t, &c)
	if m := res.Map(t); m["visibility"] != "directory" || m["scope"] != "Everything" || c.UploadURL == "" {
		t.Fatalf("directory create: %v", m)
	}
	if r := put(t, c.uploadTicket, strings.NewReader("%PDF cert"), 9); r.StatusCode/100 != 2 {
		t.Fatalf("upload: %d", r.StatusCode)
	}
	own := apitest.Must(t, env.Do(t, "POST", attestationsURL(o, slack), o.owner, map[string]any{"kind": "other", "valid_until": "2027-01-01"}), 201).Map(t)["id"].(string)
	// Every account sees it, beside its own.
	for _, acct := range []struct{ id, token string }{{o.acct, o.owner}, {beta, owner2}} {
		var out struct {
			Attestations []map[string]any `json:"attestations"`
		}
		apitest.Must(t, env.Do(t, "GET", q("/attestations", "account-id", acct.id, "vendor-id", slack), acct.token, nil), 200).JSON(t, &out)
		found := false
		for _, a := range out.Attestations {
			if a["id"] == c.ID {
				found = a["visibility"] == "directory" && a["has_file"] == true
			}
			if a["id"] == own && acct.id == beta {
				t.Fatalf("beta sees acme's own: %v", out.Attestations)
			}
		}
		if !found {
			t.Fatalf("account %s does not see the directory's: %v", acct.id, out.Attestations)
		}
		apitest.Must(t, env.Do(t, "GET", q("/attestations/download-url", "account-id", acct.id, "attestation-id", c.ID), acct.token, nil), 200)
		// No account deletes it.
		mustProblem(t, env.Do(t, "DELETE", q("/attestations", "account-id", acct.id, "attestation-id", c.ID), acct.token, nil), 403)
	}
	mustProblem(t, env.Do(t, "DELETE", q("/directory/attestations", "attestation-id", c.ID), o.owner, nil), 403)
	mustProblem(t, env.Do(t, "DELETE", q("/directory/attestations", "attestation-id", own), o.admin, nil), 404)
	apitest.Must(t, env.Do(t, "DELETE", q("/directory/attestations", "attestation-id", c.ID), o.admin, nil), http.StatusNoContent)
	if l := listAttestations(t, o, o.owner, slack); len(l) != 1 || l[0]["id"] != own {
		t.Fatalf("after directory delete: %v", l)
	}
}

func TestAttestationFilesGoWithTheirAccount(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env, slack := o.env, o.vendor["Slack"]
	var c attestationTicket
	apitest.Must(t, env.Do(t, "POST", attestationsURL(o, slack), o.owner, map[string]any{"kind": "insurance", "valid_until": "2027-01-01"}), 201).JSON(t, &c)
	if r := put(t, c.uploadTicket, strings.NewReader("%PDF policy"), 11); r.StatusCode/100 != 2 {
		t.Fatalf("upload: %d", r.StatusCode)
	}
	var d struct {
		DownloadURL string `json:"download_url"`
	}
	apitest.Must(t, env.Do(t, "GET", q("/attestations/download-url", "account-id", o.acct, "attestation-id", c.ID), o.owner, nil), 200).JSON(t, &d)
	apitest.Must(t, env.Do(t, "DELETE", "/accounts", o.admin, map[string]any{"account_ids": []string{o.acct}}), 200)
	env.Drain(t)
	if r := sendRaw(t, env, "GET", d.DownloadURL, nil, nil); r.Status != 404 {
		t.Fatalf("file after the account's deletion: %d, want 404", r.Status)
	}
}
