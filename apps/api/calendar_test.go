package api_test

import (
	"strings"
	"testing"

	ics "github.com/arran4/golang-ical"
	"github.com/vetted-dev/vetted/apps/api/apitest"
)

// TestReviewCalendarFeed: a member's link answers text/calendar that the
// iCalendar library parses back, one all-day event per review due with the
// assessment's UID (the same when the date moves); the link is the same
// until revoked, and a revoked or forged link answers 404.
func TestReviewCalendarFeed(t *testing.T) {
	t.Parallel()
	o := newOrg(t)
	env := o.env
	viewer := env.Token("viewer@acme.test", apitest.Verified())
	env.AddMember(t, o.acct, o.owner, "viewer@acme.test", "viewer")
	slack := apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner,
		map[string]any{"vendor_name": "Slack", "tier": "critical", "compliance_approval_status": "approved"}), 201).Map(t)
	apitest.Must(t, env.Do(t, "POST", o.assessmentsURL(), o.owner, map[string]any{"vendor_name": "Zoom", "use_case": "calls"}), 201)

	link := func(token string) string {
		t.Helper()
		u := apitest.Must(t, env.Do(t, "GET", "/review-calendar?account-id="+o.acct, token, nil), 200).Map(t)["url"].(string)
		if !strings.HasPrefix(u, env.URL+"/review-calendar/feed.ics?token=") {
			t.Fatalf("link %q", u)
		}
		return strings.TrimPrefix(u, env.URL)
	}
	feed := func(path string) *ics.Calendar {
		t.Helper()
		r := apitest.Must(t, env.Do(t, "GET", path, "", nil), 200)
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/calendar") {
			t.Fatalf("Content-Type %q", ct)
		}
		cal, err := ics.ParseCalendar(strings.NewReader(r.String()))
		if err != nil {
			t.Fatalf("parse the feed: %v\n%s", err, r.String())
		}
		return cal
	}
	mine := link(viewer)
	if again := link(viewer); again != mine {
		t.Fatalf("a second ask gave another link")
	}
	cal := feed(mine)
	evs := cal.Events()
	if len(evs) != 1 { // Zoom was never reviewed: no due date
		t.Fatalf("%d events, want 1:\n%s", len(evs), cal.Serialize())
	}
	uid := slack["id"].(string) + "@vetted"
	start := evs[0].GetProperty(ics.ComponentPropertyDtStart)
	if evs[0].Id() != uid || start == nil || start.Value != env.Clock.Date(0, 6, 0).Format("20060102") || !strings.Contains(evs[0].GetProperty(ics.ComponentPropertySummary).Value, "Slack") {
		t.Fatalf("event %s", cal.Serialize())
	}
	// A policy change moves the date; the event keeps its UID.
	apitest.Must(t, env.Do(t, "PUT", "/review-policy?account-id="+o.acct, o.owner, map[string]any{"cadence_months": map[string]any{"critical": 3}}), 200)
	cal = feed(mine)
	moved := cal.Events()
	if len(moved) != 1 || moved[0].Id() != uid || moved[0].GetProperty(ics.ComponentPropertyDtStart).Value != env.Clock.Date(0, 3, 0).Format("20060102") {
		t.Fatalf("after the policy change:\n%s", cal.Serialize())
	}
	// Links are personal: the owner's is another; revoking the viewer's
	// leaves the owner's working.
	owners := link(o.owner)
	if owners == mine {
		t.Fatalf("two members got the same link")
	}
	apitest.Must(t, env.Do(t, "DELETE", "/review-calendar?account-id="+o.acct, viewer, nil), 204)
	apitest.Must(t, env.Do(t, "GET", mine, "", nil), 404)
	feed(owners)
	if fresh := link(viewer); fresh == mine {
		t.Fatalf("the link after revoking is the revoked one")
	}
	forged := mine[:len(mine)-3] + "abc"
	apitest.Must(t, env.Do(t, "GET", forged, "", nil), 404)
	apitest.Must(t, env.Do(t, "GET", "/review-calendar/feed.ics?token=", "", nil), 422)
}
