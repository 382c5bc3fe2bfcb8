package api_test

import (
	"testing"

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
