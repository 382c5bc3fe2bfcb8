package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// assessmentsOf returns the assessments of master-list matching the extra query.
func assessmentsOf(t *testing.T, o *org, extra string) []map[string]any {
	t.Helper()
	var out struct {
		Assessments []map[string]any `json:"assessments"`
	}
	apitest.Must(t, o.env.Do(t, "GET", "/vendor-assessments?account-id="+o.acct+"&vendor-list-id="+o.master+extra, o.owner, nil), 200).JSON(t, &out)
	return out.Assessments
}

// auditOf returns an assessment's audit page.
func auditOf(t *testing.T, o *org, id, extra string) map[string]any {
	t.Helper()
	return apitest.Must(t, o.env.Do(t, "GET", "/vendor-assessments/audit-log?account-id="+o.acct+"&assessment-id="+id+extra, o.owner, nil), 200).Map(t)
}

func (o *org) assessmentsURL() string {
	return "/vendor-assessments?account-id=" + o.acct + "&vendor-list-id=" + o.master
}

func TestAssessmentUpsertIsIdempotent(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	body := map[string]any{"vendor_name": "slack", "compliance_approval_status": "in-progress", "sponsor_business_department": "IT",
		"sponsor_contact": "it@acme.test", "use_case": "Chat", "data_collected": []string{"names", "emails"}, "compliance_comment": "Looks fine"}
	created := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, body), 201).Map(t)
	want := map[string]any{"account_id": o.acct, "vendor_list_id": o.master, "vendor_id": o.vendor["Slack"], "vendor_name": "Slack",
		"compliance_approval_status": "in-progress", "conditional_approval_condition": "", "sponsor_business_department": "IT",
		"sponsor_contact": "it@acme.test", "use_case": "Chat", "compliance_comment": "Looks fine", "created_by": "owner@acme.test", "updated_by": "owner@acme.test"}
	for k, v := range want {
		if created[k] != v {
			t.Fatalf("%s = %v, want %v (%v)", k, created[k], v, created)
		}
	}
	for _, k := range []string{"id", "vendor_profile_id", "data_collected", "created_at", "updated_at"} {
		if _, ok := created[k]; !ok {
			t.Fatalf("record lacks %s: %v", k, created)
		}
	}
	id := created["id"].(string)

	// The same body again (with PUT, and the vendor named in the query):
	// 200, the same record, no new audit event.
	again := apitest.Must(t, env.Do(t, "PUT", o.assessmentsURL()+"&vendor-id="+o.vendor["Slack"], o.owner, body), 200).Map(t)
	if again["id"] != id || again["updated_at"] != created["updated_at"] {
		t.Fatalf("an unchanged save changed the record:\n%v\n%v", created, again)
	}
	if n := auditOf(t, o, id, "")["total_events"]; n != 1.0 {
		t.Fatalf("%v audit events after an unchanged save, want 1", n)
	}
	// Omitted fields keep their values; only the real change is audited.
	upd := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL()+"&vendor_id="+o.vendor["Slack"], o.owner,
		map[string]any{"compliance_approval_status": "approved"}), 200).Map(t)
	if upd["compliance_approval_status"] != "approved" || upd["use_case"] != "Chat" || len(upd["data_collected"].([]any)) != 2 {
		t.Fatalf("partial update = %v", upd)
	}
	audit := auditOf(t, o, id, "")
	ev := audit["events"].([]any)[0].(map[string]any) // newest first
	ch := ev["changes"].([]any)
	if audit["total_events"] != 2.0 || len(ch) != 1 || ev["submitted_by"] != "owner@acme.test" {
		t.Fatalf("audit after one change = %v", audit)
	}
	if c := ch[0].(map[string]any); c["field"] != "compliance_approval_status" || c["old_value"] != "in-progress" || c["new_value"] != "approved" {
		t.Fatalf("change = %v", c)
	}
	// Every name form reaches the same record.
	for _, q := range []string{"&vendor-name=Slack", "&vendor_name=SLACK"} {
		r := apitest.Must(t, env.Do(t, "PUT", o.assessmentsURL()+q, o.owner, nil), 200).Map(t)
		if r["id"] != id {
			t.Fatalf("%s reached %v", q, r["id"])
		}
	}
	if got := assessmentsOf(t, o, ""); len(got) != 1 {
		t.Fatalf("%d assessments, want 1", len(got))
	}
}

func TestAssessmentReadsAndFilters(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	// Slack gets a profile so it can be named by vendor_profile_id.
	prof := apitest.Must(t, env.Do(t, "PATCH", "/vendor/Slack", o.admin, map[string]any{"company": map[string]any{"industry": "Chat"}}), 200).Map(t)["vendor_profile_id"].(string)
	s := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_profile_id": prof}), 201).Map(t)
	z := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_id": o.vendor["Zoom"]}), 201).Map(t)
	if s["vendor_name"] != "Slack" || s["vendor_profile_id"] != prof || s["compliance_approval_status"] != "not-started" || z["vendor_profile_id"] != nil {
		t.Fatalf("records %v %v", s, z)
	}
	if n := len(assessmentsOf(t, o, "")); n != 2 {
		t.Fatalf("%d assessments, want 2", n)
	}
	for q, want := range map[string]any{"&vendor-id=" + o.vendor["Zoom"]: z["id"], "&vendor-profile-id=" + prof: s["id"], "&assessment-id=" + z["id"].(string): z["id"]} {
		got := assessmentsOf(t, o, q)
		if len(got) != 1 || got[0]["id"] != want {
			t.Fatalf("filter %s = %v", q, got)
		}
	}
	// vendor-list (by name) works as well; the list is required.
	apitest.Must(t, env.Do(t, "GET", "/vendor-assessments?account-id="+o.acct+"&vendor-list=master-list", o.owner, nil), 200)
	mustProblem(t, env.Do(t, "GET", "/vendor-assessments?account-id="+o.acct, o.owner, nil), 422, "vendor-list")
	mustProblem(t, env.Do(t, "GET", o.assessmentsURL()+"&vendor-id=nope", o.owner, nil), 422, "vendor-id")
	// An assessment of a directory vendor not on the list puts it there.
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+o.acct+"&vendor-list=Second", o.owner, nil), 201)
	apitest.Must(t, env.Do(t, "POST", "/vendor-lists?account-id="+o.acct+"&operation=save-vendors&vendor-list=Second", o.owner, map[string]any{"vendors": []string{"Figma"}}), 200)
	apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Figma"}), 201)
	l := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list-id="+o.master, o.owner, nil), 200).Map(t)
	if got := names(l["vendors"]); len(got) != 3 {
		t.Fatalf("list after upsert of a new vendor: %v", got)
	}
}

func TestAssessmentRoles(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	env.AddMember(t, o.acct, o.owner, "viewer@acme.test", "viewer")
	env.AddMember(t, o.acct, o.owner, "member@acme.test", "member")
	viewer, member := env.Token("viewer@acme.test"), env.Token("member@acme.test")
	stranger := env.Token("stranger@else.test")
	a := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), member, map[string]any{"vendor_name": "Slack"}), 201).Map(t)
	id := a["id"].(string)
	apitest.Must(t, env.Do(t, "GET", o.assessmentsURL(), viewer, nil), 200)
	apitest.Must(t, env.Do(t, "GET", "/vendor-assessments/audit-log?account-id="+o.acct+"&assessment-id="+id, viewer, nil), 200)
	mustProblem(t, env.Do(t, "POST", o.assessmentsURL(), viewer, map[string]any{"vendor_name": "Slack", "use_case": "x"}), 403)
	mustProblem(t, env.Do(t, "DELETE", "/vendor-assessments?account-id="+o.acct+"&assessment-id="+id, viewer, nil), 403)
	mustProblem(t, env.Do(t, "GET", o.assessmentsURL(), stranger, nil), 403)
	mustProblem(t, env.Do(t, "GET", "/vendor-assessments/audit-log?account-id="+o.acct+"&assessment-id="+id, stranger, nil), 403)
	if got := assessmentsOf(t, o, ""); got[0]["use_case"] != "" {
		t.Fatalf("a viewer's write landed: %v", got)
	}
}

func TestAssessmentConditionalApprovalNeedsCondition(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	mustProblem(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "compliance_approval_status": "conditional approval"}),
		422, "conditional_approval_condition")
	if got := assessmentsOf(t, o, ""); len(got) != 0 {
		t.Fatalf("a refused upsert stored %v", got)
	}
	// An existing record that turns conditional without a condition stays as it was.
	a := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "compliance_approval_status": "on-hold"}), 201).Map(t)
	mustProblem(t, env.Do(t, "PUT", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "compliance_approval_status": "conditional approval", "conditional_approval_condition": "  "}),
		422, "conditional_approval_condition")
	if got := assessmentsOf(t, o, ""); got[0]["compliance_approval_status"] != "on-hold" {
		t.Fatalf("a refused update changed the record: %v", got[0])
	}
	if n := auditOf(t, o, a["id"].(string), "")["total_events"]; n != 1.0 {
		t.Fatalf("a refused update was audited: %v events", n)
	}
	ok := apitest.Must(t, env.Do(t, "PUT", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack",
		"compliance_approval_status": "conditional approval", "conditional_approval_condition": "SSO only"}), 200).Map(t)
	if ok["compliance_approval_status"] != "conditional approval" || ok["conditional_approval_condition"] != "SSO only" {
		t.Fatalf("conditional approval = %v", ok)
	}
}

func TestAssessmentInvalidStatusListsAllowedValues(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	r := env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "compliance_approval_status": "done"})
	mustProblem(t, r, 422, "compliance_approval_status", "not-started", "in-progress", "on-hold", "approved", "conditional approval", "rejected")
	mustProblem(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "sponsor_contact": "not an address"}), 422, "sponsor_contact")
	mustProblem(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "compliance_comment": strings.Repeat("x", 10001)}), 422, "compliance_comment")
	mustProblem(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, `{"vendor_name": "Slack",`), 400)
	if got := assessmentsOf(t, o, ""); len(got) != 0 {
		t.Fatalf("refused upserts stored %v", got)
	}
}

func TestAssessmentUnknownVendorOrList(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	const nobody = "0190a8a0-0000-7000-8000-000000000000"
	mustProblem(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_id": nobody}), 404)
	mustProblem(t, env.Do(t, "POST", o.assessmentsURL()+"&vendor-profile-id="+nobody, o.owner, nil), 404)
	mustProblem(t, env.Do(t, "POST", o.assessmentsURL()+"&vendor-name=Nope", o.owner, nil), 404)
	mustProblem(t, env.Do(t, "POST", "/vendor-assessments?account-id="+o.acct+"&vendor-list-id="+nobody, o.owner, map[string]any{"vendor_name": "Slack"}), 404)
	mustProblem(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"use_case": "no vendor"}), 422, "vendor_id")
	if got := assessmentsOf(t, o, ""); len(got) != 0 {
		t.Fatalf("refused upserts stored %v", got)
	}
	all := apitest.Must(t, env.Do(t, "GET", "/vendors/all", o.owner, nil), 200).Map(t)["vendors"].([]any)
	if len(all) != 2 {
		t.Fatalf("an unknown vendor reached the directory: %v", all)
	}
}

func TestAssessmentDelete(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	s := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "use_case": "Chat"}), 201).Map(t)
	apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Zoom"}), 201)
	del := apitest.Must(t, env.Do(t, "DELETE", "/vendor-assessments?account-id="+o.acct+"&assessment-id="+s["id"].(string), o.owner, nil), 200).Map(t)
	if d := del["deleted"].(map[string]any); d["id"] != s["id"] || d["use_case"] != "Chat" {
		t.Fatalf("deleted = %v", del)
	}
	mustProblem(t, env.Do(t, "GET", "/vendor-assessments/audit-log?account-id="+o.acct+"&assessment-id="+s["id"].(string), o.owner, nil), 404)
	apitest.Must(t, env.Do(t, "DELETE", "/vendor-assessments?account-id="+o.acct+"&vendor-id="+o.vendor["Zoom"]+"&vendor-list-id="+o.master, o.owner, nil), 200)
	if got := assessmentsOf(t, o, ""); len(got) != 0 {
		t.Fatalf("left after deletes: %v", got)
	}
	mustProblem(t, env.Do(t, "DELETE", "/vendor-assessments?account-id="+o.acct+"&assessment-id="+s["id"].(string), o.owner, nil), 404)
	mustProblem(t, env.Do(t, "DELETE", "/vendor-assessments?account-id="+o.acct+"&vendor-id="+o.vendor["Zoom"], o.owner, nil), 404)
	mustProblem(t, env.Do(t, "DELETE", "/vendor-assessments?account-id="+o.acct, o.owner, nil), 422, "assessment-id")
	// The vendors stay on the list.
	l := apitest.Must(t, env.Do(t, "GET", "/vendor-lists?account-id="+o.acct+"&vendor-list-id="+o.master, o.owner, nil), 200).Map(t)
	if got := names(l["vendors"]); len(got) != 2 {
		t.Fatalf("list after deletes: %v", got)
	}
}

func TestAuditLogPaging(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	var id string
	for i, st := range []string{"in-progress", "on-hold", "approved"} {
		r := env.Do(t, "PUT", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "compliance_approval_status": st, "use_case": fmt.Sprint("v", i)})
		if r.Status != 200 && r.Status != 201 {
			t.Fatalf("save %d: %d %s", i, r.Status, r.Body)
		}
		id = r.Map(t)["id"].(string)
	}
	first := auditOf(t, o, id, "")
	if first["page"] != 1.0 || first["limit"] != 20.0 || first["total_events"] != 3.0 || first["assessment_id"] != id || len(first["events"].([]any)) != 3 {
		t.Fatalf("default page = %v", first)
	}
	// The first save set two fields (status and use_case), the others two each: logs is flat.
	if n := len(first["logs"].([]any)); n != 6 {
		t.Fatalf("%d log rows, want 6: %v", n, first["logs"])
	}
	log0 := first["logs"].([]any)[0].(map[string]any)
	for _, k := range []string{"event_id", "created_at", "submitted_by", "field", "old_value", "new_value"} {
		if _, ok := log0[k]; !ok {
			t.Fatalf("log row lacks %s: %v", k, log0)
		}
	}
	newest := first["events"].([]any)[0].(map[string]any)
	for _, c := range newest["changes"].([]any) {
		if c := c.(map[string]any); c["field"] == "compliance_approval_status" && c["new_value"] != "approved" {
			t.Fatalf("events are not newest first: %v", newest)
		}
	}
	p1 := auditOf(t, o, id, "&page=1&limit=2")
	p2 := auditOf(t, o, id, "&page=2&limit=2")
	p3 := auditOf(t, o, id, "&page=3&limit=2")
	if len(p1["events"].([]any)) != 2 || len(p2["events"].([]any)) != 1 || len(p3["events"].([]any)) != 0 || p2["total_events"] != 3.0 || p2["page"] != 2.0 {
		t.Fatalf("pages: %v / %v / %v", p1, p2, p3)
	}
	if p1["events"].([]any)[1].(map[string]any)["event_id"] == p2["events"].([]any)[0].(map[string]any)["event_id"] {
		t.Fatal("pages overlap")
	}
	for _, q := range []string{"&page=0", "&page=-1", "&limit=0", "&limit=101", "&limit=1000", "&page=x"} {
		mustProblem(t, env.Do(t, "GET", "/vendor-assessments/audit-log?account-id="+o.acct+"&assessment-id="+id+q, o.owner, nil), 422)
	}
	apitest.Must(t, env.Do(t, "GET", "/vendor-assessments/audit-log?account-id="+o.acct+"&assessment-id="+id+"&limit=100", o.owner, nil), 200)
	mustProblem(t, env.Do(t, "GET", "/vendor-assessments/audit-log?account-id="+o.acct+"&assessment-id=0190a8a0-0000-7000-8000-000000000000", o.owner, nil), 404)
}

// The original web client upserts with vendor-id in the query, nulls for
// fields it leaves alone, and three fields of its own; they are kept.
func TestAssessmentOriginalClientShape(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	// Dates before the clock's start (2026-03-04 and 2026-03-10 unshifted).
	submitted, approved := env.Clock.Date(0, -8, -18).Format(time.DateOnly), env.Clock.Date(0, -8, -12)
	body := map[string]any{"vendor_id": o.vendor["Slack"], "compliance_approval_status": "in-progress",
		"sponsor_business_department": nil, "sponsor_contact": nil, "use_case": "Chat", "compliance_comment": nil,
		"compliance_contact": "Grace Hopper", "submission_date": submitted, "approval_date": nil}
	rec := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL()+"&vendor-id="+o.vendor["Slack"], o.owner, body), 201).Map(t)
	if rec["compliance_contact"] != "Grace Hopper" || rec["submission_date"] != submitted || rec["approval_date"] != nil ||
		rec["use_case"] != "Chat" || rec["sponsor_business_department"] != "" {
		t.Fatalf("record = %v", rec)
	}
	// An approval date in the past of the app's clock (a future one is refused).
	upd := apitest.Must(t, env.Do(t, "PUT", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack",
		"compliance_approval_status": "approved", "approval_date": approved.Format(time.RFC3339)}), 200).Map(t)
	if upd["approval_date"] != approved.Format(time.DateOnly) || upd["compliance_contact"] != "Grace Hopper" {
		t.Fatalf("update = %v", upd)
	}
	ev := auditOf(t, o, rec["id"].(string), "")["events"].([]any)[0].(map[string]any)
	fields := map[string]bool{}
	for _, c := range ev["changes"].([]any) {
		fields[c.(map[string]any)["field"].(string)] = true
	}
	if !fields["approval_date"] || !fields["compliance_approval_status"] || len(fields) != 2 {
		t.Fatalf("audited changes = %v", fields)
	}
	res := apitest.Must(t, env.Do(t, "PUT", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "submission_date": "soon"}), 422)
	if p := readProblem(t, res); len(p.Errors) != 1 || p.Errors[0].Location != "body.submission_date" {
		t.Fatalf("bad date: %s", res.Body)
	}
}

// TestFutureApprovalDateIsRefused: an approval date after today (by the
// app's clock, wherever the day has begun) is 422 at body.approval_date
// and changes nothing; today's date is taken.
func TestFutureApprovalDateIsRefused(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	today := env.Clock.Now().UTC()
	rec := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack",
		"approval_date": today.Format(time.DateOnly)}), 201).Map(t)
	for _, future := range []string{today.AddDate(0, 0, 2).Format(time.DateOnly), today.AddDate(1, 0, 0).Format(time.RFC3339)} {
		res := env.Do(t, "PUT", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Slack", "approval_date": future, "use_case": "Chat"})
		mustProblem(t, res, http.StatusUnprocessableEntity, "has not come yet")
		if p := readProblem(t, res); len(p.Errors) != 1 || p.Errors[0].Location != "body.approval_date" {
			t.Fatalf("approval date %s: %s", future, res.Body)
		}
	}
	var got struct {
		Assessments []map[string]any `json:"assessments"`
	}
	apitest.Must(t, env.Do(t, "GET", o.assessmentsURL(), o.owner, nil), 200).JSON(t, &got)
	if len(got.Assessments) != 1 || got.Assessments[0]["approval_date"] != rec["approval_date"] || got.Assessments[0]["use_case"] != "" {
		t.Fatalf("refused saves changed the assessment: %v", got.Assessments)
	}
}
