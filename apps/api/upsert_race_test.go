package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// TestConcurrentUpsertsOfOneAssessment sends many upserts of the same
// assessment at once (on the store VETTED_TEST_STORE names): none fails
// because another won, exactly one creates it, one row remains, and the
// audit log chains every change from the one saved before it.
func TestConcurrentUpsertsOfOneAssessment(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	const writers = 16
	statuses := make([]int, writers)
	bodies := make([]string, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			body, _ := json.Marshal(map[string]any{"vendor_name": "zoom", "use_case": fmt.Sprint("use ", i)})
			method := []string{"POST", "PUT"}[i%2]
			req, err := http.NewRequest(method, o.env.URL+o.assessmentsURL(), bytes.NewReader(body))
			if err != nil {
				bodies[i] = err.Error()
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+o.owner)
			res, err := o.env.Client.Do(req)
			if err != nil {
				bodies[i] = err.Error()
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			statuses[i], bodies[i] = res.StatusCode, string(b)
		})
	}
	wg.Wait()
	created := 0
	for i, st := range statuses {
		switch st {
		case 201:
			created++
		case 200:
		default:
			t.Fatalf("upsert %d answered %d: %s", i, st, bodies[i])
		}
	}
	if created != 1 {
		t.Fatalf("%d upserts answered 201, want exactly one (%v)", created, statuses)
	}
	as := assessmentsOf(t, o, "&vendor-id="+o.vendor["Zoom"])
	if len(as) != 1 {
		t.Fatalf("%d assessments of Zoom, want 1: %v", len(as), as)
	}
	var audit struct {
		Total  int `json:"total_events"`
		Events []struct {
			Changes []struct {
				Field    string `json:"field"`
				OldValue string `json:"old_value"`
				NewValue string `json:"new_value"`
			} `json:"changes"`
		} `json:"events"`
	}
	apitest.Must(t, o.env.Do(t, "GET", "/vendor-assessments/audit-log?account-id="+o.acct+"&assessment-id="+as[0]["id"].(string)+"&limit=100",
		o.owner, nil), 200).JSON(t, &audit)
	if audit.Total != writers || len(audit.Events) != writers {
		t.Fatalf("%d audit events (%d on the page), want %d", audit.Total, len(audit.Events), writers)
	}
	// Each upsert read what the one before it saved: following the use case
	// from "" through the events visits every one of them and ends at the
	// stored value.
	next := map[string]string{}
	for _, e := range audit.Events {
		for _, c := range e.Changes {
			if c.Field != "use_case" {
				continue
			}
			if _, dup := next[c.OldValue]; dup {
				t.Fatalf("two upserts changed use_case from %q: one did not see the other's save", c.OldValue)
			}
			next[c.OldValue] = c.NewValue
		}
	}
	cur, steps := "", 0
	for n, ok := next[cur]; ok && steps < writers; n, ok = next[cur] {
		cur, steps = n, steps+1
	}
	if steps != writers || as[0]["use_case"] != cur {
		t.Fatalf("the audit chain covers %d of %d upserts and ends at %q; stored use_case %v", steps, writers, cur, as[0]["use_case"])
	}
}
