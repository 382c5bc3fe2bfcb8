package api_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// TestAssessmentTierAndReviewStamp: tier is set, changed, cleared and
// audited through the upsert; a bad tier is a 422 naming body.tier and
// changes nothing; last_reviewed_at is set when the status becomes a
// decision and kept by other saves.
func TestAssessmentTierAndReviewStamp(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	a := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner,
		map[string]any{"vendor_name": "Slack", "tier": "critical"}), 201).Map(t)
	if a["tier"] != "critical" || a["last_reviewed_at"] != nil || a["condition_due_at"] != nil {
		t.Fatalf("created = %v", a)
	}
	bad := env.Do(t, "PUT", o.assessmentsURL()+"&vendor-name=Slack", o.owner, map[string]any{"tier": "urgent", "use_case": "x"})
	apitest.Must(t, bad, 422)
	if !containsLocation(t, bad, "body.tier") {
		t.Fatalf("422 without body.tier: %s", bad.String())
	}
	approved := apitest.Must(t, env.Do(t, "PUT", o.assessmentsURL()+"&vendor-name=Slack", o.owner,
		map[string]any{"compliance_approval_status": "approved", "tier": "low"}), 200).Map(t)
	if approved["tier"] != "low" || approved["use_case"] != "" {
		t.Fatalf("after a refused save and an update: %v", approved)
	}
	stamp, _ := approved["last_reviewed_at"].(string)
	if stamp == "" {
		t.Fatalf("approved without last_reviewed_at: %v", approved)
	}
	env.Clock.Advance(48 * 3600e9)
	kept := apitest.Must(t, env.Do(t, "PUT", o.assessmentsURL()+"&vendor-name=Slack", o.owner,
		map[string]any{"tier": "", "compliance_comment": "ok", "compliance_approval_status": "approved"}), 200).Map(t)
	if kept["tier"] != "" || kept["last_reviewed_at"] != stamp {
		t.Fatalf("a save that keeps the status moved the review stamp or kept the tier: %v (stamp %s)", kept, stamp)
	}
	audit := auditOf(t, o, a["id"].(string), "&limit=1")
	var fields []string
	for _, c := range audit["events"].([]any)[0].(map[string]any)["changes"].([]any) {
		fields = append(fields, c.(map[string]any)["field"].(string))
	}
	if len(fields) != 2 || fields[0] != "compliance_comment" || fields[1] != "tier" {
		t.Fatalf("audited fields %v, want compliance_comment and tier", fields)
	}
	rejected := apitest.Must(t, env.Do(t, "PUT", o.assessmentsURL()+"&vendor-name=Slack", o.owner,
		map[string]any{"compliance_approval_status": "rejected"}), 200).Map(t)
	if rejected["last_reviewed_at"] == stamp {
		t.Fatalf("approved -> rejected kept the old review stamp: %v", rejected)
	}
}

// containsLocation reports whether a problem answer names loc in errors[].
func containsLocation(t *testing.T, r *apitest.Resp, loc string) bool {
	t.Helper()
	var p struct {
		Errors []struct {
			Location string `json:"location"`
		} `json:"errors"`
	}
	r.JSON(t, &p)
	for _, e := range p.Errors {
		if e.Location == loc {
			return true
		}
	}
	return false
}

// TestReviewPolicy: the default policy, a partial change by the owner, a
// refused change that names the field and changes nothing, and due dates
// that move with the policy.
func TestReviewPolicy(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	url := "/review-policy?account-id=" + o.acct
	def := apitest.Must(t, env.Do(t, "GET", url, o.owner, nil), 200).Map(t)
	c := def["cadence_months"].(map[string]any)
	if c["critical"] != 6.0 || c["high"] != 12.0 || c["medium"] != 24.0 || c["low"] != 36.0 || c["not_tiered"] != 12.0 ||
		def["overdue_repeat_weekly"] != true || def["is_default"] != true || def["updated_at"] != nil {
		t.Fatalf("default policy = %v", def)
	}
	if offs := def["reminder_offsets_days"].([]any); len(offs) != 2 || offs[0] != 30.0 || offs[1] != 7.0 {
		t.Fatalf("default offsets = %v", offs)
	}
	// Approved today, critical: due in six months.
	asm := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner,
		map[string]any{"vendor_name": "Slack", "tier": "critical", "compliance_approval_status": "approved"}), 201).Map(t)
	if asm["next_review_at"] != env.Clock.Date(0, 6, 0).Format(time.RFC3339) || asm["review_state"] != "current" {
		t.Fatalf("approved critical = %v %v", asm["next_review_at"], asm["review_state"])
	}
	for _, bad := range []struct {
		body map[string]any
		loc  string
	}{
		{map[string]any{"cadence_months": map[string]any{"high": -1}}, "body.cadence_months.high"},
		{map[string]any{"cadence_months": map[string]any{"low": 5000}}, "body.cadence_months.low"},
		{map[string]any{"reminder_offsets_days": []int{30, -7}}, "body.reminder_offsets_days"},
		{map[string]any{"reminder_offsets_days": []int{100000}}, "body.reminder_offsets_days"},
	} {
		r := apitest.Must(t, env.Do(t, "PUT", url, o.owner, bad.body), 422)
		if !containsLocation(t, r, bad.loc) {
			t.Fatalf("%v: 422 without %s: %s", bad.body, bad.loc, r.String())
		}
	}
	if again := apitest.Must(t, env.Do(t, "GET", url, o.owner, nil), 200).Map(t); again["is_default"] != true {
		t.Fatalf("a refused change was stored: %v", again)
	}
	put := apitest.Must(t, env.Do(t, "PUT", url, o.owner, map[string]any{"cadence_months": map[string]any{"critical": 1},
		"reminder_offsets_days": []int{7, 45}}), 200).Map(t)
	c = put["cadence_months"].(map[string]any)
	if c["critical"] != 1.0 || c["high"] != 12.0 || put["is_default"] != false || put["updated_by"] != "owner@acme.test" ||
		put["overdue_repeat_weekly"] != true {
		t.Fatalf("changed policy = %v", put)
	}
	if offs := put["reminder_offsets_days"].([]any); len(offs) != 2 || offs[0] != 45.0 {
		t.Fatalf("offsets = %v, want largest first", offs)
	}
	// The due date moved with the policy: one month, so due soon (45 days).
	got := assessmentsOf(t, o, "&assessment-id="+asm["id"].(string))[0]
	if got["next_review_at"] != env.Clock.Date(0, 1, 0).Format(time.RFC3339) || got["review_state"] != "due_soon" {
		t.Fatalf("after the policy change = %v %v", got["next_review_at"], got["review_state"])
	}
}

// TestAssessmentReviewStates: every answer carries the due date and state;
// review-state filters, sort orders by next_review_at, and unknown values
// are 422 naming the parameter.
func TestAssessmentReviewStates(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	env.SaveVendors(t, o.owner, o.acct, "Asana", "Box")
	save := func(name string, body map[string]any) map[string]any {
		body["vendor_name"] = name
		r := env.Do(t, "PUT", o.assessmentsURL(), o.owner, body)
		if r.Status != 200 && r.Status != 201 {
			t.Fatalf("save %s: %d %s", name, r.Status, r.String())
		}
		return r.Map(t)
	}
	// Slack: approved long ago (critical) -> overdue; Zoom: conditional
	// approval whose condition is due in a week -> due soon; Asana:
	// approved today (low) -> current; Box: never reviewed.
	save("Slack", map[string]any{"tier": "critical", "compliance_approval_status": "approved"})
	env.Clock.Advance(200 * 24 * 3600e9) // 200 days on (2027-06-10 unshifted)
	save("Zoom", map[string]any{"tier": "low", "compliance_approval_status": "conditional approval",
		"conditional_approval_condition": "SOC 2", "condition_due_at": env.Clock.Date(0, 0, 207).Format(time.DateOnly)})
	save("Asana", map[string]any{"tier": "low", "compliance_approval_status": "rejected"})
	box := save("Box", map[string]any{"use_case": "files"})
	if box["review_state"] != "never_reviewed" || box["next_review_at"] != nil {
		t.Fatalf("Box = %v", box)
	}
	names := func(extra string) []string {
		var out []string
		for _, a := range assessmentsOf(t, o, extra) {
			out = append(out, a["vendor_name"].(string)+":"+a["review_state"].(string))
		}
		return out
	}
	for _, c := range []struct {
		extra string
		want  string
	}{
		{"&review-state=overdue", "[Slack:overdue]"},
		{"&review-state=due_soon", "[Zoom:due_soon]"},
		{"&review-state=current", "[Asana:current]"},
		{"&review-state=never_reviewed", "[Box:never_reviewed]"},
		{"&review-state=overdue,due_soon&sort=next_review_at", "[Slack:overdue Zoom:due_soon]"},
		{"&sort=next_review_at", "[Slack:overdue Zoom:due_soon Asana:current Box:never_reviewed]"},
		{"&sort=-next_review_at", "[Asana:current Zoom:due_soon Slack:overdue Box:never_reviewed]"},
	} {
		if got := fmt.Sprint(names(c.extra)); got != c.want {
			t.Fatalf("%s: %s, want %s", c.extra, got, c.want)
		}
	}
	dash := apitest.Must(t, env.Do(t, "GET", "/metrics/dashboard?account-id="+o.acct, o.owner, nil), 200).Map(t)
	if dash["reviewsDueSoon"] != 1.0 || dash["reviewsOverdue"] != 1.0 {
		t.Fatalf("dashboard = %v, want 1 due soon and 1 overdue", dash)
	}
	for _, bad := range []struct{ extra, loc string }{
		{"&review-state=late", "query.review-state"},
		{"&sort=rating", "query.sort"},
	} {
		r := apitest.Must(t, env.Do(t, "GET", o.assessmentsURL()+bad.extra, o.owner, nil), 422)
		if !containsLocation(t, r, bad.loc) {
			t.Fatalf("%s: 422 without %s: %s", bad.extra, bad.loc, r.String())
		}
	}
}

// TestImportCSVTier: the tier column sets the tier (any case); a bad tier
// refuses the batch naming its row and column.
func TestImportCSVTier(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	target := "/vendor-lists?operation=import-csv&account-id=" + o.acct + "&vendor-list-id=" + o.master
	bad := apitest.Must(t, env.Do(t, "POST", target, o.owner, map[string]any{"csv": "vendor_name,tier\nSlack,high\nZoom,urgent\n"}), 422)
	var p struct {
		Errors []struct {
			Row    int    `json:"row"`
			Column string `json:"column"`
		} `json:"errors"`
	}
	bad.JSON(t, &p)
	if len(p.Errors) != 1 || p.Errors[0].Row != 2 || p.Errors[0].Column != "tier" {
		t.Fatalf("bad tier: %s", bad.String())
	}
	if n := len(assessmentsOf(t, o, "")); n != 0 {
		t.Fatalf("a refused batch stored %d assessments", n)
	}
	apitest.Must(t, env.Do(t, "POST", target, o.owner, map[string]any{"csv": "vendor_name,tier\nSlack,High\nZoom,\n"}), 200)
	got := map[string]any{}
	for _, a := range assessmentsOf(t, o, "") {
		got[a["vendor_name"].(string)] = a["tier"]
	}
	if len(got) != 1 || got["Slack"] != "high" {
		t.Fatalf("tiers after import = %v", got)
	}
}
