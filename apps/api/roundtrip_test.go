package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/vetted-dev/vetted/apps/api"
	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// roundTripPuts are the PUT operations TestPutAcceptsItsGet covers: a PUT
// the document lists and this does not fails the test.
var roundTripPuts = []string{"put-review-policy", "put-assessment"}

// TestPutAcceptsItsGet: every PUT route takes back, unchanged, the
// document its GET answered: the read-only fields in it (ids, stamps,
// computed states, is_default) are ignored, not refused, and the write
// keeps what the document says.
func TestPutAcceptsItsGet(t *testing.T) {
	t.Parallel()
	for _, item := range api.Describe().OpenAPI().Paths {
		if op := item.Put; op != nil && !slices.Contains(roundTripPuts, op.OperationID) {
			t.Errorf("PUT %s (%s) has no round trip in TestPutAcceptsItsGet", op.Path, op.OperationID)
		}
	}
	o := newOrg(t)
	env := o.env
	roundTrip := func(t *testing.T, method, path string, got map[string]any) map[string]any {
		t.Helper()
		r := env.Do(t, method, path, o.owner, got)
		if r.Status != http.StatusOK {
			b, _ := json.Marshal(got)
			t.Fatalf("%s %s with the GET's document %s = %d: %s", method, path, b, r.Status, r.Body)
		}
		return r.Map(t)
	}

	t.Run("review-policy", func(t *testing.T) {
		path := "/review-policy?account-id=" + o.acct
		got := apitest.Must(t, env.Do(t, "GET", path, o.owner, nil), 200).Map(t)
		if got["is_default"] != true || got["account_id"] != o.acct {
			t.Fatalf("GET %s = %v", path, got)
		}
		got["cadence_months"].(map[string]any)["critical"] = 3
		put := roundTrip(t, "PUT", path, got)
		if put["is_default"] != false || put["cadence_months"].(map[string]any)["critical"] != float64(3) {
			t.Fatalf("PUT = %v", put)
		}
		// Once saved, the document has stamps: it goes back as well.
		again := apitest.Must(t, env.Do(t, "GET", path, o.owner, nil), 200).Map(t)
		again["account_id"], again["is_default"], again["updated_by"] = "01a22048-6437-775f-ad0b-7b8bbb0f4b96", true, "mallory@evil.test"
		if put := roundTrip(t, "PUT", path, again); put["account_id"] != o.acct || put["is_default"] != false || put["updated_by"] != "owner@acme.test" {
			t.Fatalf("PUT = %v", put)
		}
	})

	t.Run("assessment", func(t *testing.T) {
		path := "/vendor-assessments?account-id=" + o.acct + "&vendor-list-id=" + o.master
		approved := env.Clock.Now().UTC().AddDate(0, 0, -21).Format(time.DateOnly)
		apitest.Must(t, env.Do(t, "POST", path, o.owner, map[string]any{"vendor_id": o.vendor["Slack"],
			"compliance_approval_status": "in-progress", "tier": "high", "approval_date": approved}), 201)
		var list struct {
			Assessments []map[string]any `json:"assessments"`
		}
		apitest.Must(t, env.Do(t, "GET", path, o.owner, nil), 200).JSON(t, &list)
		if len(list.Assessments) != 1 {
			t.Fatalf("assessments = %v", list.Assessments)
		}
		got := list.Assessments[0]
		id := got["id"]
		got["use_case"] = "chat"
		// Read-only values are ignored, whatever they say.
		got["id"], got["account_id"], got["vendor_list_id"] = "01a22048-6437-775f-ad0b-7b8bbb0f4b96", "01a22048-6437-775f-ad0b-7b8bbb0f4b97", "01a22048-6437-775f-ad0b-7b8bbb0f4b98"
		got["review_state"], got["created_by"] = "overdue", "mallory@evil.test"
		for _, m := range []string{"PUT", "POST"} {
			put := roundTrip(t, m, path, got)
			if put["id"] != id || put["account_id"] != o.acct || put["vendor_list_id"] != o.master || put["review_state"] != "never_reviewed" ||
				put["created_by"] != "owner@acme.test" || put["use_case"] != "chat" || put["tier"] != "high" || put["approval_date"] != approved {
				t.Fatalf("%s = %v", m, put)
			}
		}
	})
}
